import NIOCore
import Varlink

/// The watchers of one event loop: each change reaches all of them in one task on the loop.
final class EventLoopWatcherLane: WatcherLane {
    /// The loop the watchers' channels belong to.
    let eventLoop: any EventLoop
    /// Where the fan-out is timed and the watchers cut off are counted.
    let metrics: any ServerMetrics
    private let allocator = ByteBufferAllocator()

    /// Creates the lane of an event loop.
    /// - Parameters:
    ///   - eventLoop: The loop.
    ///   - metrics: Where the fan-out is timed and the watchers cut off are counted.
    init(eventLoop: any EventLoop, metrics: any ServerMetrics) {
        self.eventLoop = eventLoop
        self.metrics = metrics
    }

    func send(_ frame: [UInt8], to watchers: [WatcherConnection], published: ContinuousClock.Instant) {
        // Copied once here, then shared by every watcher's write.
        let buffer = allocator.buffer(bytes: frame)
        let metrics = self.metrics
        let write: @Sendable () -> Void = {
            for watcher in watchers { watcher.send(buffer) }
            // The writes are issued (queued on each channel and flushed); when the kernel
            // takes the bytes, and when the watchers read them, is outside the process.
            metrics.recordFanOut(.now - published)
        }
        // The daemon's main actor runs on its one event loop: the change is written at once,
        // not after the rest of what the loop has queued.
        if eventLoop.inEventLoop {
            write()
        } else {
            eventLoop.execute(write)
        }
    }
}
