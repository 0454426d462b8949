import AppStateIPC
import Glibc
import NIOCore
import NIOPosix
import ServicePorts
import ServiceTestDoubles
import TestSupport
import XCTest

@testable import VarlinkServer

/// The watcher cut-off at the daemon's default limits, exactly: RELIABILITY.md §4 promises
/// that a watcher may have 1,024 replies (and 4 MiB) queued, and is told `WatcherTooSlow`
/// when, and not before, its queue passes that. The watcher's channel holds every write, as
/// the socket of a peer that never reads does once the kernel's buffer is full, so the
/// count of queued replies is exact (the end-to-end test in `ReliabilityLoadTests` also has
/// the kernel's buffer in front).
final class WatcherLimitTests: AppStateTestCase {
    /// The number of replies the documents promise a watcher may have queued.
    private static let documentedReplyLimit = 1024
    /// The number of bytes the documents promise a watcher may have queued.
    private static let documentedByteLimit = 4 * 1024 * 1024

    /// Keeps every write and its promise: a peer that reads nothing.
    private final class HoldingHandler: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = ByteBuffer
        /// Touched on the channel's event loop only.
        var held: [(bytes: ByteBuffer, promise: EventLoopPromise<Void>?)] = []
        var written = 0

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            held.append((unwrapOutboundIn(data), promise))
        }

        func flush(context: ChannelHandlerContext) {}

        /// Completes the oldest `count` writes still held, as if the peer had read them.
        func write(oldest count: Int) {
            let end = min(held.count, written + count)
            for index in written..<end { held[index].promise?.succeed() }
            written = end
        }

        /// Fails what is still held, so that no promise is left behind.
        func failRemaining() {
            for index in written..<held.count { held[index].promise?.fail(ChannelError.ioOnClosedChannel) }
            written = held.count
        }
    }

    private struct Fixture: Sendable {
        let channel: any Channel
        let holder: HoldingHandler
        let watcher: WatcherConnection

        /// Runs `body` on the watcher's event loop.
        func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
            try await channel.eventLoop.submit(body).get()
        }
    }

    /// A watcher with the daemon's default limits on a channel that holds its writes.
    private func makeWatcher() throws -> Fixture {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let holder = HoldingHandler()
        let channel = try NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(holder) } }
            .takingOwnershipOfDescriptors(input: fds[0], output: fds[1]).wait()
        let watcher = WatcherConnection(
            channel: channel, lane: EventLoopWatcherLane(eventLoop: channel.eventLoop, metrics: RecordingServerMetrics()),
            limits: ServerLimits(), errors: .appState, runner: MainQueueRunner())
        return Fixture(channel: channel, holder: holder, watcher: watcher)
    }

    private func finish(_ fixture: Fixture) async throws {
        try await fixture.onLoop { fixture.holder.failRemaining() }
        try? await fixture.channel.close()
    }

    /// One `Watch` reply of about `size` bytes, NUL-terminated.
    private static func frame(size: Int = 0) -> ByteBuffer {
        let padding = String(repeating: "x", count: max(0, size - 60))
        let reply = VarlinkReply(parameters: ["event": .object(["name": .string("SetPage"), "pad": .string(padding)])], continues: true)
        return ByteBuffer(bytes: reply.encoded)
    }

    /// The frames held so far, as replies: whether each is an error, and the cut-off's `queued`.
    private static func summary(of holder: HoldingHandler) -> (count: Int, errors: [String], queued: Int?) {
        let replies = holder.held.map { held in
            try? VarlinkReply(frame: Array(held.bytes.readableBytesView.dropLast()))
        }
        let errors = replies.compactMap { $0?.error }
        let queued = replies.last??.parameters["queued"].flatMap { value -> Int? in
            if case .number(let number) = value { return Int(number) }
            return nil
        }
        return (holder.held.count, errors, replies.last??.error == nil ? nil : queued)
    }

    func testWatcher_whenExactlyTheReplyLimitIsQueued_thenNotCutOff() async throws {
        let fixture = try makeWatcher()
        let frame = Self.frame()
        let state = try await fixture.onLoop {
            for _ in 0..<Self.documentedReplyLimit { fixture.watcher.send(frame) }
            return Self.summary(of: fixture.holder)
        }
        XCTAssertEqual(state.count, Self.documentedReplyLimit)
        XCTAssertEqual(state.errors, [], "cut off with \(Self.documentedReplyLimit) replies queued, before its queue passed the limit")
        XCTAssertTrue(fixture.channel.isActive)
        try await finish(fixture)
    }

    func testWatcher_whenOneReplyMoreThanTheLimitArrives_thenToldWatcherTooSlowWithQueued1024AndSentNothingMore() async throws {
        let fixture = try makeWatcher()
        let frame = Self.frame()
        let state = try await fixture.onLoop {
            for _ in 0..<(Self.documentedReplyLimit + 1) { fixture.watcher.send(frame) }
            let atCutOff = Self.summary(of: fixture.holder)
            for _ in 0..<10 { fixture.watcher.send(frame) }
            return (atCutOff, fixture.holder.held.count)
        }
        XCTAssertEqual(state.0.count, Self.documentedReplyLimit + 1, "the replies, then the error")
        XCTAssertEqual(state.0.errors, ["io.appstate.WatcherTooSlow"])
        XCTAssertEqual(state.0.queued, Self.documentedReplyLimit)
        XCTAssertEqual(state.1, Self.documentedReplyLimit + 1, "replies were queued after the cut-off")
        try await finish(fixture)
    }

    func testWatcher_whenQueuedRepliesAreWritten_thenTheirPlacesAreFreeAgain() async throws {
        let fixture = try makeWatcher()
        let frame = Self.frame()
        let state = try await fixture.onLoop {
            for _ in 0..<Self.documentedReplyLimit { fixture.watcher.send(frame) }
            // The peer reads 10: 10 more fit, the next one passes the limit again.
            fixture.holder.write(oldest: 10)
            for _ in 0..<10 { fixture.watcher.send(frame) }
            let refilled = Self.summary(of: fixture.holder)
            fixture.watcher.send(frame)
            return (refilled, Self.summary(of: fixture.holder))
        }
        XCTAssertEqual(state.0.count, Self.documentedReplyLimit + 10)
        XCTAssertEqual(state.0.errors, [])
        XCTAssertEqual(state.1.errors, ["io.appstate.WatcherTooSlow"])
        XCTAssertEqual(state.1.queued, Self.documentedReplyLimit)
        try await finish(fixture)
    }

    func testWatcher_whenLargeRepliesPassTheByteLimit_thenCutOffAtFourMiB() async throws {
        let fixture = try makeWatcher()
        let frame = Self.frame(size: 5000)
        let size = frame.readableBytes
        let fitting = Self.documentedByteLimit / size
        XCTAssertLessThan(fitting, Self.documentedReplyLimit, "the byte limit must come first for this test")
        let state = try await fixture.onLoop {
            for _ in 0..<fitting { fixture.watcher.send(frame) }
            let full = Self.summary(of: fixture.holder)
            fixture.watcher.send(frame)
            return (full, Self.summary(of: fixture.holder))
        }
        XCTAssertEqual(state.0.count, fitting)
        XCTAssertEqual(state.0.errors, [], "cut off with \(fitting * size) bytes queued, within 4 MiB")
        XCTAssertEqual(state.1.errors, ["io.appstate.WatcherTooSlow"])
        XCTAssertEqual(state.1.queued, fitting)
        try await finish(fixture)
    }
}
