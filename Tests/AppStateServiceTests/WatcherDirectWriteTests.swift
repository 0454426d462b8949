import AppStateCore
import AppStateIPC
@testable import AppStateService
import Glibc
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import XCTest

/// A watcher that knows its socket writes each reply to it in one `send` while the channel
/// holds nothing unwritten, and through the channel otherwise: the peer reads every byte in
/// the order sent, whatever the socket took, and a closed connection's descriptor number,
/// which the kernel may give to another connection, is never written.
final class WatcherDirectWriteTests: XCTestCase {
    /// Counts the writes that go through the channel's pipeline.
    private final class WriteCounter: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = ByteBuffer
        private let count = NIOLockedValueBox(0)
        var writes: Int { count.withLockedValue { $0 } }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            count.withLockedValue { $0 += 1 }
            context.write(data, promise: promise)
        }
    }

    private struct Fixture: Sendable {
        let channel: any Channel
        let counter: WriteCounter
        let watcher: WatcherConnection
        /// The socket's other end, as the watching client holds it.
        let peer: CInt
        let descriptor: CInt

        /// Sends each frame to the watcher on its event loop.
        func send(_ frames: [ByteBuffer]) async throws {
            try await channel.eventLoop.submit { for frame in frames { watcher.send(frame) } }.get()
        }
    }

    /// A watcher on one end of a socket pair, as the daemon's acceptor sets one up.
    private func makeWatcher(limit: Int = 4 << 20) async throws -> Fixture {
        var pair: [CInt] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        let counter = WriteCounter()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(counter) } }
            .withConnectedSocket(pair[0]).get()
        let watcher = WatcherConnection(channel: channel, descriptor: pair[0], lane: EventLoopWatcherLane(eventLoop: channel.eventLoop),
                                        limit: limit, replyLimit: 1 << 20, grace: .seconds(5))
        return Fixture(channel: channel, counter: counter, watcher: watcher, peer: pair[1], descriptor: pair[0])
    }

    /// Frame `n` of a stream: its number, padded to `size` bytes with the NUL.
    private static func frame(_ n: Int, size: Int) -> ByteBuffer {
        let text = "{\"n\":\(n)}"
        return ByteBuffer(string: text + String(repeating: " ", count: max(0, size - text.utf8.count - 1)) + "\0")
    }

    /// Reads from `fd` until `count` bytes came or nothing more comes for 5 s.
    private static func read(_ count: Int, from fd: CInt) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < count {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 5000) == 1 else { break }
            let got = Glibc.read(fd, &chunk, min(chunk.count, count - bytes.count))
            guard got > 0 else { break }
            bytes += chunk[0..<got]
        }
        return bytes
    }

    /// Whether anything can be read from `fd` within 200 ms.
    private static func hasData(_ fd: CInt) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 200) == 1
    }

    func testSend_whenTheSocketTakesEveryReply_thenWrittenDirectlyAndReadInOrder() async throws {
        let fixture = try await makeWatcher()
        let frames = (0..<100).map { Self.frame($0, size: 149) }

        try await fixture.send(frames)

        XCTAssertEqual(Self.read(100 * 149, from: fixture.peer), frames.flatMap { Array($0.readableBytesView) })
        XCTAssertEqual(fixture.counter.writes, 0, "replies went through the channel although the socket took them")
        try await fixture.channel.close()
        close(fixture.peer)
    }

    func testSend_whenThePeerStopsReading_thenTheRestQueuesInTheChannelAndArrivesInOrderAfterWhatTheSocketTook() async throws {
        let fixture = try await makeWatcher()
        // Far more than a socket pair buffers, so that one reply is cut and the rest queue.
        let frames = (0..<2000).map { Self.frame($0, size: 1000) }

        try await fixture.send(frames)
        XCTAssertGreaterThan(fixture.counter.writes, 0, "the socket took every reply: the test sent too little to fill it")
        XCTAssertLessThan(fixture.counter.writes, frames.count, "nothing was written directly")

        XCTAssertEqual(Self.read(2000 * 1000, from: fixture.peer), frames.flatMap { Array($0.readableBytesView) })
        // Everything queued is written now: the next reply goes directly again.
        let writesBefore = fixture.counter.writes
        try await fixture.channel.eventLoop.submit {}.get()
        try await fixture.send([Self.frame(2000, size: 1000)])
        XCTAssertEqual(Self.read(1000, from: fixture.peer), Array(Self.frame(2000, size: 1000).readableBytesView))
        XCTAssertEqual(fixture.counter.writes, writesBefore)
        try await fixture.channel.close()
        close(fixture.peer)
    }

    func testSend_whenTheConnectionsOwnReplyStillWaitsInTheChannel_thenTheWatcherReplyQueuesBehindIt() async throws {
        let fixture = try await makeWatcher()
        // A reply the connection handler wrote (a `Watch` call's snapshot, say), larger than
        // the socket takes at once.
        let reply = ByteBuffer(repeating: UInt8(ascii: "r"), count: 1 << 20)
        let frame = Self.frame(0, size: 149)

        // The client reads part of it, so the socket has room again, before the channel has
        // had a turn to write more: only the channel knows that the rest must come first.
        let first = try await fixture.channel.eventLoop.submit {
            fixture.channel.writeAndFlush(reply, promise: nil)
            fixture.watcher.channelWritten()
            let first = Self.read(1 << 16, from: fixture.peer)
            fixture.watcher.send(frame)
            return first
        }.get()

        let rest = Self.read((1 << 20) + 149 - first.count, from: fixture.peer)
        XCTAssertEqual(first + rest, Array(reply.readableBytesView) + Array(frame.readableBytesView))
        try await fixture.channel.close()
        close(fixture.peer)
    }

    func testSend_whenTheConnectionHandlerWroteAReplyTheSocketCut_thenTheWatcherReplyQueuesBehindIt() async throws {
        // The daemon's pipeline on one end of a socket pair, the client on the other.
        var pair: [CInt] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        // Off the main actor, which answers the calls while this test blocks reading.
        let processor = await MainActor.run { FakeCallProcessor() }
        let limits = {
            var limits = ServerLimits()
            limits.maximumMessageSize = 4 << 20
            return limits
        }()
        let descriptor = pair[0]
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let peer = channel.eventLoop.makeSucceededFuture(Peer(pid: 1, uid: 0, gid: 0, mayMutate: true))
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(VarlinkCallDecoder(maximumMessageSize: limits.maximumMessageSize,
                                                                partialMessageTimeout: limits.partialMessageTimeout)),
                        VarlinkConnectionHandler(processor: processor, limits: limits, counter: ConnectionCounter(),
                                                 peers: PeerIdentifier { _ in peer },
                                                 lane: EventLoopWatcherLane(eventLoop: channel.eventLoop), descriptor: descriptor)
                    )
                }
            }
            .withConnectedSocket(pair[0]).get()
        let client = pair[1]
        func call(_ n: String) -> [UInt8] { Array(#"{"method":"test.Mutate","parameters":{"n":"\#(n)"}}"#.utf8) + [0] }
        func reply(_ n: String) -> [UInt8] { VarlinkReply(parameters: ["answered": .string(n)]).encoded }

        // A first call, for the connection's watcher; then a reply written directly, so that
        // the watcher has seen the channel empty.
        XCTAssertEqual(Glibc.write(client, call("1"), call("1").count), call("1").count)
        XCTAssertEqual(Self.read(reply("1").count, from: client), reply("1"))
        let watcher = try await MainActor.run { try XCTUnwrap(processor.connections.first?.watcher as? WatcherConnection) }
        let event = Self.frame(0, size: 149)
        try await channel.eventLoop.submit { watcher.send(event) }.get()
        XCTAssertEqual(Self.read(149, from: client), Array(event.readableBytesView))

        // A reply far larger than the socket takes, which the handler writes through the channel.
        let large = String(repeating: "x", count: 1 << 20)
        let request = call(large)
        XCTAssertEqual(request.withUnsafeBytes { Glibc.write(client, $0.baseAddress, $0.count) }, request.count)
        XCTAssertTrue(Self.hasData(client), "the handler wrote no reply")
        // The client reads part of it before the channel has had a turn to write more.
        let next = Self.frame(1, size: 149)
        let first = try await channel.eventLoop.submit {
            let first = Self.read(1 << 16, from: client)
            watcher.send(next)
            return first
        }.get()

        let expected = reply(large) + Array(next.readableBytesView)
        let rest = Self.read(expected.count - first.count, from: client)
        XCTAssertEqual(first + rest, expected, "the watcher's reply overtook the rest of the handler's")
        try await channel.close()
        close(client)
    }

    func testSend_whenARepliesQueueIsOverTheLimit_thenCutOffWithWhatTheSocketTookNotCounted() async throws {
        let fixture = try await makeWatcher(limit: 64 * 1000)
        let frames = (0..<1000).map { Self.frame($0, size: 1000) }

        try await fixture.send(frames)

        // The socket took a few hundred kilobytes: the 64,000 bytes after them are what may
        // queue (the rest of the reply it cut, and 63 more; or 64 whole ones), then the error.
        let writes = try await fixture.channel.eventLoop.submit { fixture.counter.writes }.get()
        XCTAssertEqual(writes, 64 + 1, "64 replies' worth queued, then WatcherTooSlow")
        try await fixture.channel.close()
        close(fixture.peer)
    }

    func testSend_whenTheConnectionClosedAndItsNumberWentToAnotherSocket_thenThatSocketGetsNothing() async throws {
        let fixture = try await makeWatcher()
        try await fixture.channel.close()
        close(fixture.peer)
        // The number the closed connection had, now another connection's, as accept(2) would
        // reuse it: the lowest free number usually is that one already.
        var pair: [CInt] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        if !pair.contains(fixture.descriptor) {
            XCTAssertEqual(fcntl(fixture.descriptor, F_GETFD), -1, "the channel left its descriptor open")
            XCTAssertEqual(dup2(pair[0], fixture.descriptor), fixture.descriptor)
            close(pair[0])
            pair[0] = fixture.descriptor
        }
        let reader = pair[0] == fixture.descriptor ? pair[1] : pair[0]
        defer {
            close(pair[0])
            close(pair[1])
        }

        try await fixture.send([Self.frame(0, size: 149)])

        XCTAssertFalse(Self.hasData(reader), "a closed watcher wrote to the connection that took its descriptor number")
        XCTAssertTrue(fixture.watcher.isClosed)
    }
}
