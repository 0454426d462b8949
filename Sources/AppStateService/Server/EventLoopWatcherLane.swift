import NIOCore

/// The watchers of one event loop: each change reaches all of them in one task on the loop.
final class EventLoopWatcherLane: WatcherLane {
    /// The loop the watchers' channels belong to.
    let eventLoop: any EventLoop
    private let allocator = ByteBufferAllocator()

    /// Creates the lane of an event loop.
    /// - Parameter eventLoop: The loop.
    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func send(_ frame: [UInt8], to watchers: [WatcherConnection]) {
        // Copied once here, then shared by every watcher's write.
        let buffer = allocator.buffer(bytes: frame)
        eventLoop.execute {
            for watcher in watchers { watcher.send(buffer) }
        }
    }
}
