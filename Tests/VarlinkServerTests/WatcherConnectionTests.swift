import AppStateCore
import AppStateIPC
import NIOCore
import NIOEmbedded
import ServicePorts
import ServiceTestDoubles
import TestSupport
import XCTest

@testable import VarlinkServer

/// A connection as a `Watch` stream: a lane writes each change to its watchers at once on their
/// event loop, or in one task there from another thread, and a watcher that does not read is
/// told and cut off.
final class WatcherConnectionTests: AppStateTestCase {
    @MainActor func testSend_whenCalledOnTheEventLoop_thenEveryWatcherWritesItAtOnce() async throws {
        let loop = EmbeddedEventLoop()
        let channels = [EmbeddedChannel(loop: loop), EmbeddedChannel(loop: loop)]
        let (lane, watchers, metrics) = try Self.watchers(of: channels, on: loop)

        lane.send(Array("{}\0".utf8), to: watchers, published: ContinuousClock.now)

        XCTAssertEqual(metrics.fanOuts, 1, "one fan-out, timed once the lane's writes are issued")
        for channel in channels {
            XCTAssertEqual(try channel.readOutbound(as: ByteBuffer.self).map { Array($0.readableBytesView) }, Array("{}\0".utf8))
        }
    }

    @MainActor func testSend_whenCalledOffTheEventLoop_thenEveryWatcherWritesItInATaskOnTheLoop() async throws {
        let loop = NIOAsyncTestingEventLoop()
        let channels = [NIOAsyncTestingChannel(loop: loop), NIOAsyncTestingChannel(loop: loop)]
        let (lane, watchers, metrics) = try Self.watchers(of: channels, on: loop)

        // A write from here, off the loop, would fail the watchers' loop-bound state check.
        lane.send(Array("{}\0".utf8), to: watchers, published: ContinuousClock.now)
        await loop.run()

        XCTAssertEqual(metrics.fanOuts, 1)
        for channel in channels {
            let written = try await channel.readOutbound(as: ByteBuffer.self)
            XCTAssertEqual(written.map { Array($0.readableBytesView) }, Array("{}\0".utf8))
        }
        await loop.shutdownGracefully()
    }

    @MainActor func testWhenClosed_whenTheConnectionCloses_thenTheHostIsToldOnTheMainActor() async throws {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(loop: loop)
        let (_, watchers, _) = try Self.watchers(of: [channel], on: loop)
        let told = expectation(description: "told of the close")
        watchers[0].whenClosed { told.fulfill() }

        channel.close(promise: nil)
        loop.run()

        await fulfillment(of: [told], timeout: 10)
        XCTAssertTrue(watchers[0].isClosed)
    }

    /// The channels, connected (at once on an embedded loop; on a testing loop, when it next
    /// runs), as watchers of one lane of `loop`, with the lane's metrics. Connected with a
    /// promise rather than by awaiting `get()`, which would run off the thread that owns an
    /// embedded loop.
    private static func watchers(of channels: [any Channel], on loop: any EventLoop) throws
        -> (EventLoopWatcherLane, [WatcherConnection], RecordingServerMetrics)
    {
        for channel in channels { channel.connect(to: try SocketAddress(unixDomainSocketPath: "/run/test.sock"), promise: nil) }
        let metrics = RecordingServerMetrics()
        let lane = EventLoopWatcherLane(eventLoop: loop, metrics: metrics)
        let watchers = channels.map {
            WatcherConnection(channel: $0, lane: lane, limits: Self.limits(replies: 16), errors: .appState, runner: MainQueueRunner())
        }
        return (lane, watchers, metrics)
    }

    /// Limits of 64 KiB and `replies` replies, with a second's grace.
    private static func limits(replies: Int) -> ServerLimits {
        var limits = ServerLimits()
        limits.maximumWatcherQueue = 1 << 16
        limits.maximumWatcherReplies = replies
        limits.partialMessageTimeout = .seconds(1)
        return limits
    }

    @MainActor func testSend_whenRepliesPileUpUnread_thenWatcherTooSlowAfterThemAndClosedAfterTheGrace() async throws {
        let stall = StallingWriter()
        let channel = EmbeddedChannel(handler: stall)
        channel.connect(to: try SocketAddress(unixDomainSocketPath: "/run/test.sock"), promise: nil)
        // As NIO marks a channel once more than its high-water mark is unwritten.
        channel.isWritable = false
        let metrics = RecordingServerMetrics()
        let lane = EventLoopWatcherLane(eventLoop: channel.eventLoop, metrics: metrics)
        var limits = Self.limits(replies: 2)
        limits.partialMessageTimeout = .seconds(5)
        let watcher = WatcherConnection(channel: channel, lane: lane, limits: limits, errors: .appState, runner: MainQueueRunner())
        let frame = channel.allocator.buffer(bytes: Array("{}\0".utf8))

        for _ in 0..<4 { watcher.send(frame) }

        let written = try stall.writes.map { try VarlinkReply(frame: Array($0.readableBytesView.dropLast())) }
        XCTAssertEqual(written.map(\.error), [nil, nil, "io.appstate.WatcherTooSlow"], "nothing is queued after the error")
        XCTAssertEqual(written.last?.parameters["queued"]?.intValue, 2)
        XCTAssertEqual(metrics.watchersCut, 1)
        XCTAssertFalse(watcher.isClosed, "the watcher has the grace period to read the error")
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        XCTAssertTrue(watcher.isClosed)
    }
}

/// Keeps every write, as a socket whose peer never reads: they complete only when the
/// channel closes, failed.
private final class StallingWriter: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    private(set) var writes: [ByteBuffer] = []
    private var promises: [EventLoopPromise<Void>] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        writes.append(unwrapOutboundIn(data))
        if let promise { promises.append(promise) }
    }

    func flush(context: ChannelHandlerContext) {}

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        for promise in promises { promise.fail(ChannelError.ioOnClosedChannel) }
        promises = []
        context.close(mode: mode, promise: promise)
    }
}
