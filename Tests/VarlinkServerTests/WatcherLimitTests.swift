import AppStateIPC
import Glibc
import NIOCore
import NIOEmbedded
import NIOPosix
import ServicePorts
import ServiceTestDoubles
import TestSupport
import XCTest

@testable import VarlinkServer

/// The watcher cut-off at the daemon's default limits, exactly: docs/reliability/load-and-abuse.md promises
/// that a watcher may have 1,024 replies (and 4 MiB) queued once its socket has stopped taking
/// them, and is told `WatcherTooSlow` when, and not before, its queue passes that. The
/// watcher's channel holds every write and, as NIO marks a channel once more than its
/// high-water mark is unwritten, is not writable, so the count of queued replies is exact
/// (`testWatcher_whenItsPeerNeverReads…` has a real socket and NIO's own writability instead).
final class WatcherLimitTests: AppStateTestCase {
    /// The number of replies the documents promise a watcher may have queued.
    private static let documentedReplyLimit = 1024
    /// The number of bytes the documents promise a watcher may have queued.
    private static let documentedByteLimit = 4 * 1024 * 1024

    /// Keeps every write and its promise: a peer that reads nothing.
    private final class HoldingHandler: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
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

    private struct Fixture {
        let channel: EmbeddedChannel
        let holder: HoldingHandler
        let watcher: WatcherConnection
    }

    /// A watcher with the daemon's default limits on a channel that holds its writes, not
    /// writable unless `writable`. Connected with a promise rather than by awaiting `get()`,
    /// which would run off the thread that owns an embedded loop.
    @MainActor private func makeWatcher(writable: Bool = false) throws -> Fixture {
        let holder = HoldingHandler()
        let channel = EmbeddedChannel(handler: holder)
        channel.connect(to: try SocketAddress(unixDomainSocketPath: "/run/test.sock"), promise: nil)
        channel.isWritable = writable
        let watcher = WatcherConnection(
            channel: channel, lane: EventLoopWatcherLane(eventLoop: channel.eventLoop, metrics: RecordingServerMetrics()),
            limits: ServerLimits(), errors: .appState, runner: MainQueueRunner())
        return Fixture(channel: channel, holder: holder, watcher: watcher)
    }

    @MainActor private func finish(_ fixture: Fixture) {
        fixture.holder.failRemaining()
        fixture.channel.close(promise: nil)
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

    @MainActor func testWatcher_whenExactlyTheReplyLimitIsQueued_thenNotCutOff() async throws {
        let fixture = try makeWatcher()
        let frame = Self.frame()
        for _ in 0..<Self.documentedReplyLimit { fixture.watcher.send(frame) }
        let state = Self.summary(of: fixture.holder)
        XCTAssertEqual(state.count, Self.documentedReplyLimit)
        XCTAssertEqual(state.errors, [], "cut off with \(Self.documentedReplyLimit) replies queued, before its queue passed the limit")
        XCTAssertTrue(fixture.channel.isActive)
        finish(fixture)
    }

    @MainActor func testWatcher_whenOneReplyMoreThanTheLimitArrives_thenToldWatcherTooSlowWithQueued1024AndSentNothingMore() async throws {
        let fixture = try makeWatcher()
        let frame = Self.frame()
        for _ in 0..<(Self.documentedReplyLimit + 1) { fixture.watcher.send(frame) }
        let atCutOff = Self.summary(of: fixture.holder)
        for _ in 0..<10 { fixture.watcher.send(frame) }
        XCTAssertEqual(atCutOff.count, Self.documentedReplyLimit + 1, "the replies, then the error")
        XCTAssertEqual(atCutOff.errors, ["io.appstate.WatcherTooSlow"])
        XCTAssertEqual(atCutOff.queued, Self.documentedReplyLimit)
        XCTAssertEqual(fixture.holder.held.count, Self.documentedReplyLimit + 1, "replies were queued after the cut-off")
        finish(fixture)
    }

    @MainActor func testWatcher_whenQueuedRepliesAreWritten_thenTheirPlacesAreFreeAgain() async throws {
        let fixture = try makeWatcher()
        let frame = Self.frame()
        for _ in 0..<Self.documentedReplyLimit { fixture.watcher.send(frame) }
        // The peer reads 10: 10 more fit, the next one passes the limit again.
        fixture.holder.write(oldest: 10)
        for _ in 0..<10 { fixture.watcher.send(frame) }
        let refilled = Self.summary(of: fixture.holder)
        fixture.watcher.send(frame)
        let passed = Self.summary(of: fixture.holder)
        XCTAssertEqual(refilled.count, Self.documentedReplyLimit + 10)
        XCTAssertEqual(refilled.errors, [])
        XCTAssertEqual(passed.errors, ["io.appstate.WatcherTooSlow"])
        XCTAssertEqual(passed.queued, Self.documentedReplyLimit)
        finish(fixture)
    }

    @MainActor func testWatcher_whenLargeRepliesPassTheByteLimit_thenCutOffAtFourMiB() async throws {
        let fixture = try makeWatcher()
        let frame = Self.frame(size: 5000)
        let size = frame.readableBytes
        let fitting = Self.documentedByteLimit / size
        XCTAssertLessThan(fitting, Self.documentedReplyLimit, "the byte limit must come first for this test")
        for _ in 0..<fitting { fixture.watcher.send(frame) }
        let full = Self.summary(of: fixture.holder)
        fixture.watcher.send(frame)
        let passed = Self.summary(of: fixture.holder)
        XCTAssertEqual(full.count, fitting)
        XCTAssertEqual(full.errors, [], "cut off with \(fitting * size) bytes queued, within 4 MiB")
        XCTAssertEqual(passed.errors, ["io.appstate.WatcherTooSlow"])
        XCTAssertEqual(passed.queued, fitting)
        finish(fixture)
    }

    @MainActor func testWatcher_whileItsChannelIsWritable_thenNothingCountsAndCountingStartsWhenItIsNot() async throws {
        let fixture = try makeWatcher(writable: true)
        let frame = Self.frame()
        for _ in 0..<(2 * Self.documentedReplyLimit) { fixture.watcher.send(frame) }
        XCTAssertEqual(Self.summary(of: fixture.holder).errors, [], "replies counted while NIO took them under its mark")
        fixture.channel.isWritable = false
        for _ in 0..<Self.documentedReplyLimit { fixture.watcher.send(frame) }
        XCTAssertEqual(Self.summary(of: fixture.holder).errors, [])
        fixture.watcher.send(frame)
        let passed = Self.summary(of: fixture.holder)
        XCTAssertEqual(passed.count, 3 * Self.documentedReplyLimit + 1)
        XCTAssertEqual(passed.errors, ["io.appstate.WatcherTooSlow"])
        XCTAssertEqual(passed.queued, Self.documentedReplyLimit)
        finish(fixture)
    }

    /// A real socket whose peer reads nothing until the watcher is cut off: the kernel's buffer
    /// and NIO's, up to its high-water mark, take the first replies, then the documented limit
    /// is counted; reading at last, the peer finds every reply sent before the cut-off in
    /// order, then the error, then the end.
    func testWatcher_whenItsPeerNeverReads_thenEveryReplyBeforeTheCutOffArrivesThenWatcherTooSlow() async throws {
        var descriptors: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors), 0)
        let peer = descriptors[1]
        defer { close(peer) }
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).withConnectedSocket(descriptors[0]).get()
        let metrics = RecordingServerMetrics()
        let watcher = WatcherConnection(
            channel: channel, lane: EventLoopWatcherLane(eventLoop: channel.eventLoop, metrics: metrics),
            limits: ServerLimits(), errors: .appState, runner: MainQueueRunner())
        let sent = try await channel.eventLoop.submit {
            var sent = 0
            while metrics.watchersCut == 0, sent < 100_000 {
                watcher.send(Self.frame(number: sent))
                sent += 1
            }
            return sent
        }.get()
        XCTAssertEqual(metrics.watchersCut, 1, "never cut off")
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while case let count = read(peer, &chunk, chunk.count), count > 0 { received += chunk[..<count] }
        let replies = try received.split(separator: 0).map { try VarlinkReply(frame: Array($0)) }
        XCTAssertEqual(replies.count, sent, "the replies sent before the one that cut it off, then the error")
        XCTAssertEqual(replies.dropLast().map { $0.parameters["number"]?.intValue }, (0..<(sent - 1)).map { $0 })
        XCTAssertEqual(replies.last?.error, "io.appstate.WatcherTooSlow")
        XCTAssertEqual(replies.last?.parameters["queued"]?.intValue, Self.documentedReplyLimit)
    }

    /// One `Watch` reply carrying its number.
    private static func frame(number: Int) -> ByteBuffer {
        ByteBuffer(bytes: VarlinkReply(parameters: ["number": .number(Double(number))], continues: true).encoded)
    }
}
