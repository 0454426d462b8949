import NIOCore
import NIOHTTP1
import Synchronization

/// One client's Server-Sent Events stream: messages are written in the order sent, from any
/// thread, and a client that leaves more than ``HTTPServerLimits/streamBufferLimit`` unread
/// is disconnected rather than buffered for, so that it cannot grow the server's memory.
/// An `EventSource` reconnects by itself and is brought up to date then.
public final class EventStream: Sendable {
    private let channel: any Channel
    private let limit: Int
    /// Bytes handed to the connection and not yet written to its socket: what the client
    /// has not taken, wherever they wait (the event loop's queue or the channel's buffer).
    private let unsent = Atomic<Int>(0)
    /// Set once the client was too slow, so that it is reported so once.
    private let dropped = Atomic<Bool>(false)

    init(channel: any Channel, limit: Int) {
        self.channel = channel
        self.limit = limit
    }

    /// What became of a message.
    public enum Delivery: Hashable, Sendable {
        /// It is queued for the client.
        case sent
        /// The connection is closed; nothing was sent.
        case closed
        /// The client left too much unread: it has just been disconnected.
        case tooSlow
    }

    /// Sends one message: text already in the event-stream format (see ``ServerSentEvent``).
    /// - Parameter text: The message.
    /// - Returns: What became of it.
    @discardableResult
    public func send(_ text: String) -> Delivery {
        send(ByteBuffer(string: text))
    }

    /// Sends one message already in bytes, which may be shared by every stream it goes to.
    /// - Parameter buffer: The message.
    /// - Returns: What became of it.
    @discardableResult
    public func send(_ buffer: ByteBuffer) -> Delivery {
        let delivery = admit(buffer.readableBytes)
        if delivery == .sent { write(buffer) }
        return delivery
    }

    /// Sends one message to many streams, as one task per event loop that writes it to each
    /// of that loop's streams, rather than one task per stream: a change reaches all the
    /// pages of a loop together, as the daemon's watcher lanes do.
    /// - Parameters:
    ///   - buffer: The message, shared by every stream.
    ///   - streams: Where it goes.
    /// - Returns: What became of it on each stream, in the order of `streams`.
    public static func broadcast(_ buffer: ByteBuffer, to streams: [EventStream]) -> [Delivery] {
        var lanes: [ObjectIdentifier: (eventLoop: any EventLoop, streams: [EventStream])] = [:]
        let deliveries = streams.map { stream in
            let delivery = stream.admit(buffer.readableBytes)
            if delivery == .sent {
                lanes[ObjectIdentifier(stream.channel.eventLoop), default: (stream.channel.eventLoop, [])].streams.append(stream)
            }
            return delivery
        }
        for lane in lanes.values {
            lane.eventLoop.execute {
                for stream in lane.streams { stream.write(buffer) }
            }
        }
        return deliveries
    }

    /// Counts a message's bytes as unsent, or disconnects a client that has too many.
    private func admit(_ size: Int) -> Delivery {
        guard channel.isActive, !dropped.load(ordering: .relaxed) else { return .closed }
        guard unsent.add(size, ordering: .relaxed).newValue <= limit else {
            channel.close(promise: nil)
            return dropped.exchange(true, ordering: .relaxed) ? .closed : .tooSlow
        }
        return .sent
    }

    /// Writes an admitted message; on the channel's event loop, the write costs no hop.
    private func write(_ buffer: ByteBuffer) {
        let size = buffer.readableBytes
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer))).whenComplete { [self] _ in
            unsent.subtract(size, ordering: .relaxed)
        }
    }

    /// Whether the connection is still open.
    public var isOpen: Bool { channel.isActive }

    /// Closes the connection.
    public func close() {
        channel.close(promise: nil)
    }

    /// Ends the response as HTTP ends it (the last chunk), after what was sent before, then
    /// closes the connection: the client reads a stream that ended, not one cut off.
    func end() {
        let channel = channel
        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Completes when the connection has closed.
    var closeFuture: EventLoopFuture<Void> { channel.closeFuture }

    /// Runs `body` once, when the connection has closed, from either side (soon after, when
    /// it already has), on the stream's event loop and never within a call of this stream's:
    /// `body` may take a lock that the code calling ``send(_:)`` or ``close()`` holds.
    /// - Parameter body: What to do, such as stop sending to the stream.
    public func onClose(_ body: @escaping @Sendable () -> Void) {
        let eventLoop = channel.eventLoop
        channel.closeFuture.whenComplete { _ in eventLoop.execute(body) }
    }
}
