import AppStateCore
import AppStateIPC
import NIOCore
import NIOEmbedded
import ServicePorts
import ServiceTestDoubles
import XCTest

@testable import VarlinkServer

/// One connection's pipeline as the server builds it (framing, then the connection handler)
/// on an `EmbeddedChannel`, with a ``FakeCallProcessor`` behind it and a recorder of the
/// reads the handler lets through.
@MainActor final class ConnectionHarness {
    let channel = EmbeddedChannel()
    let processor = FakeCallProcessor()
    let counter = ConnectionCounter()
    let reads = ReadRecorder()
    let metrics = RecordingServerMetrics()
    static let info = ServiceInfo(vendor: "test", product: "test", version: "1", url: "https://example.org")
    let limits: ServerLimits
    private let peer: EventLoopPromise<Peer>

    /// Builds the pipeline.
    /// - Parameters:
    ///   - limits: The bounds on messages and connections.
    ///   - errors: The errors answered about the connection: io.appstate's unless told otherwise.
    init(limits: ServerLimits = ServerLimits(), errors: ConnectionErrors = .appState) throws {
        self.limits = limits
        let peer = channel.eventLoop.makePromise(of: Peer.self)
        self.peer = peer
        try channel.pipeline.syncOperations.addHandlers(
            reads,
            ByteToMessageHandler(
                VarlinkCallDecoder(
                    maximumMessageSize: limits.maximumMessageSize,
                    partialMessageTimeout: limits.partialMessageTimeout)),
            VarlinkConnectionHandler(
                dispatcher: CallDispatcher(processors: [processor], info: Self.info, runner: MainQueueRunner(), metrics: metrics),
                limits: limits, counter: counter, peers: PeerIdentifier { _ in peer.futureResult },
                lane: EventLoopWatcherLane(eventLoop: channel.eventLoop, metrics: metrics), errors: errors,
                runner: MainQueueRunner())
        )
    }

    /// Connects the channel and, unless told otherwise, identifies the peer at once.
    func connect(identified: Bool = true) async throws {
        // With a promise rather than awaiting `get()`, which would run off the main thread,
        // where the embedded loop may not be used.
        channel.connect(to: try SocketAddress(unixDomainSocketPath: "/run/test.sock"), promise: nil)
        if identified { identify() }
    }

    /// Tells the handler who the peer is: root, unless another user is named.
    func identify(uid: UInt32 = 0) {
        peer.succeed(Peer(pid: 1, uid: uid, gid: uid, mayMutate: uid == 0))
    }

    /// Makes the peer unknown, as when SO_PEERCRED cannot be read.
    func failIdentification() {
        peer.fail(ServerError.peerUnknown("no credentials in a test"))
    }

    /// Delivers bytes as one read burst.
    func send(_ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    /// Lets the batches handed to the main actor be answered and their replies come back to
    /// the event loop.
    func settle() async {
        for _ in 0..<20 {
            await Task.yield()
            channel.embeddedEventLoop.run()
        }
    }

    /// The replies written since the last call, decoded.
    func writtenReplies(file: StaticString = #filePath, line: UInt = #line) throws -> [VarlinkReply] {
        var bytes: [UInt8] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        }
        XCTAssertTrue(bytes.isEmpty || bytes.last == 0, "a reply is cut short", file: file, line: line)
        return try bytes.split(separator: 0).map { try VarlinkReply(frame: Array($0)) }
    }

    /// The numbers the written replies carry under `answered` or `read`, in order.
    func writtenNumbers(file: StaticString = #filePath, line: UInt = #line) throws -> [Int] {
        try writtenReplies(file: file, line: line).map { ($0.parameters["answered"] ?? $0.parameters["read"])?.intValue ?? -1 }
    }

    var isClosed: Bool { !channel.isActive }

    /// The frame of a call that goes to the processor, numbered `n`.
    static func mutation(_ n: Int, oneway: Bool = false) -> String {
        #"{"method":"test.Mutate","parameters":{"n":\#(n)}"# + (oneway ? #","oneway":true}"# : "}") + "\0"
    }

    /// The frame of a call answered at once when nothing is in flight, numbered `n`.
    static func read(_ n: Int) -> String {
        #"{"method":"test.Read","parameters":{"n":\#(n)}}"# + "\0"
    }

    /// The frame of a call that starts a stream.
    static let watch = #"{"method":"test.Watch","more":true}"# + "\0"
}

/// Counts the reads that reach the socket, that is, those the connection handler let through.
final class ReadRecorder: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    private(set) var count = 0

    func read(context: ChannelHandlerContext) {
        count += 1
        context.read()
    }
}
