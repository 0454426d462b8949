import NIOCore
import Varlink

/// Splits a connection's bytes into ``VarlinkCall``s with the library's
/// `VarlinkFrameDecoder`, for NIO's `ByteToMessageHandler`.
///
/// Its limits protect the daemon: a message over the maximum size is reported as a
/// `VarlinkProtocolError` of kind `messageTooLarge` (the connection handler answers
/// the host's message-too-large error (``ConnectionErrors``) and closes), a malformed one as another
/// `VarlinkProtocolError` (the handler closes), and a connection that holds half a message
/// for the partial-message timeout is closed, so a peer cannot hold a connection with a
/// message it never finishes.
struct VarlinkCallDecoder: ByteToMessageDecoder {
    /// The calls complete in one read, passed on together: one pipeline message per read
    /// rather than one boxed call each, which pipelined clients pay for per call.
    typealias InboundOut = [VarlinkCall]

    private var frames: VarlinkFrameDecoder
    private let partialMessageTimeout: TimeAmount
    /// Set while part of a message waits for the rest.
    private var partialMessageDeadline: Scheduled<Void>?

    /// Creates a decoder.
    /// - Parameters:
    ///   - maximumMessageSize: The largest message accepted, in bytes, without its terminator.
    ///   - partialMessageTimeout: How long part of a message may wait for the rest.
    init(maximumMessageSize: Int, partialMessageTimeout: Duration) {
        self.frames = VarlinkFrameDecoder(maximumMessageSize: maximumMessageSize)
        self.partialMessageTimeout = TimeAmount(partialMessageTimeout)
    }

    /// Passes on every complete call the bytes finish.
    /// - Throws: `VarlinkProtocolError` for an oversized or malformed message; the calls
    ///   before it were passed on.
    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        try passCalls(from: &buffer, context: context)
        watchPartialMessage(context)
        return .needMoreData
    }

    /// Passes on what the last bytes finish; a message the peer left unfinished when it
    /// stopped sending is never answered.
    /// - Throws: `VarlinkProtocolError` for an oversized or malformed message.
    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try passCalls(from: &buffer, context: context)
        return .needMoreData
    }

    mutating func decoderRemoved(context: ChannelHandlerContext) {
        partialMessageDeadline?.cancel()
        partialMessageDeadline = nil
    }

    /// Moves all the bytes into the frame decoder, which finds the NULs with `memchr` and
    /// parses each frame in place, and passes on every call it completes.
    private mutating func passCalls(from buffer: inout ByteBuffer, context: ChannelHandlerContext) throws {
        buffer.withUnsafeReadableBytes { frames.append($0) }
        buffer.moveReaderIndex(to: buffer.writerIndex)
        var calls: [VarlinkCall] = []
        // The calls before a malformed frame are still answered, as they would have been
        // had they arrived in an earlier read.
        defer { if !calls.isEmpty { context.fireChannelRead(wrapInboundOut(calls)) } }
        while let call = try frames.nextCall() {
            calls.append(call)
        }
    }

    /// Arms the deadline when part of a message waits, and disarms it once none does. It is
    /// not pushed back by more bytes of the same message, so trickling them does not help.
    private mutating func watchPartialMessage(_ context: ChannelHandlerContext) {
        guard frames.hasPartialMessage else {
            partialMessageDeadline?.cancel()
            partialMessageDeadline = nil
            return
        }
        guard partialMessageDeadline == nil else { return }
        partialMessageDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: partialMessageTimeout) {
            context.close(promise: nil)
        }
    }
}
