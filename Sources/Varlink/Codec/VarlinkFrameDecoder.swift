import Glibc

/// Splits a byte stream into Varlink messages, each terminated by a NUL byte.
///
/// Feed it whatever the socket delivers with ``append(_:)-([UInt8])`` and then take messages
/// with ``nextFrame()``, ``nextCall()`` or ``nextReply()`` until they return `nil`. A NUL
/// can only end a message, because JSON escapes every control character inside strings.
///
/// Memory stays bounded: a message longer than ``maximumMessageSize`` is reported once as
/// ``VarlinkProtocolError/Kind/messageTooLarge`` (as soon as that many bytes are buffered
/// without a terminator, or when the terminator arrives) and its bytes are discarded up
/// to and including its terminator, so the decoder holds at most the limit plus one chunk.
/// The caller decides whether to continue after that or, as a server does, answer
/// the error its interface declares for it and close.
///
/// A call whose bytes are those of the call before it is not parsed again: ``nextCall()``
/// returns the call it decoded last, so a peer that asks the same question over and over (a
/// poller, a pipelined reader) costs a comparison of its bytes rather than a parse.
public struct VarlinkFrameDecoder: Sendable {
    /// The limit used when none is given: 1 MiB, far above any call this project sends.
    public static let defaultMaximumMessageSize = 1 << 20

    /// The largest message accepted, in bytes, without its NUL terminator.
    public let maximumMessageSize: Int

    private var buffer: [UInt8] = []
    /// Where the first unconsumed byte is in `buffer`.
    private var start = 0
    /// Bytes from `start` up to here are known to hold no NUL, so each byte is searched once.
    private var scanned = 0
    /// Whether the rest of an oversized message is being dropped until its terminator.
    private var discarding = false
    /// The last call ``nextCall()`` decoded and its frame, if the frame was short enough to
    /// keep: a longer one is rarely sent twice, and would hold its bytes for nothing.
    private var lastCall: (frame: [UInt8], call: VarlinkCall)?
    /// The longest frame kept as ``lastCall``.
    private static let longestRememberedCall = 512

    /// Creates a decoder.
    /// - Parameter maximumMessageSize: The largest message accepted, in bytes, without its terminator.
    public init(maximumMessageSize: Int = VarlinkFrameDecoder.defaultMaximumMessageSize) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// How many received bytes are not yet returned as messages.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Whether part of a message has arrived without its terminator (for idle timeouts of
    /// half-sent messages).
    public var hasPartialMessage: Bool { bufferedByteCount > 0 || discarding }

    /// Adds received bytes.
    /// - Parameter bytes: The bytes, as read from the socket.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var bytes = bytes
        if discarding {
            guard let terminator = VarlinkFrameDecoder.firstNUL(in: bytes) else { return }
            discarding = false
            bytes = UnsafeRawBufferPointer(rebasing: bytes[(terminator + 1)...])
        }
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    /// - Parameter bytes: The bytes, as read from the socket.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Removes and returns the next complete message, without its terminator.
    /// - Returns: The message's bytes, or `nil` when no complete message is buffered.
    /// - Throws: ``VarlinkProtocolError/Kind/messageTooLarge`` for an oversized message.
    public mutating func nextFrame() throws(VarlinkProtocolError) -> [UInt8]? {
        try withNextFrame { frame throws(VarlinkProtocolError) in Array(frame) }
    }

    /// Removes the next complete message and decodes it as a call, without copying it.
    /// - Returns: The call, or `nil` when no complete message is buffered.
    /// - Throws: ``VarlinkProtocolError`` for an oversized or malformed message; the
    ///   message is consumed either way.
    public mutating func nextCall() throws(VarlinkProtocolError) -> VarlinkCall? {
        let last = lastCall
        var remember: [UInt8]?
        let call = try withNextFrame { frame throws(VarlinkProtocolError) in
            if let last, last.frame.count == frame.count,
                last.frame.withUnsafeBytes({ memcmp($0.baseAddress!, frame.baseAddress!, frame.count) == 0 })
            {
                return last.call
            }
            let call = try VarlinkCall(frame: frame)
            if frame.count <= Self.longestRememberedCall { remember = Array(frame) }
            return call
        }
        if let remember, let call { lastCall = (remember, call) }
        return call
    }

    /// Removes the next complete message and decodes it as a reply, without copying it.
    /// - Returns: The reply, or `nil` when no complete message is buffered.
    /// - Throws: ``VarlinkProtocolError`` for an oversized or malformed message; the
    ///   message is consumed either way.
    public mutating func nextReply() throws(VarlinkProtocolError) -> VarlinkReply? {
        try withNextFrame { frame throws(VarlinkProtocolError) in try VarlinkReply(frame: frame) }
    }

    private mutating func withNextFrame<Message>(
        _ decode: (UnsafeRawBufferPointer) throws(VarlinkProtocolError) -> Message
    ) throws(VarlinkProtocolError) -> Message? {
        let searchFrom = max(scanned, start)
        let found = buffer.withUnsafeBytes { raw in
            VarlinkFrameDecoder.firstNUL(in: UnsafeRawBufferPointer(rebasing: raw[searchFrom...])).map { $0 + searchFrom }
        }
        guard let terminator = found else {
            scanned = buffer.count
            if buffer.count - start > maximumMessageSize {
                buffer.removeAll(keepingCapacity: false)
                start = 0
                scanned = 0
                discarding = true
                throw .messageTooLarge(limit: maximumMessageSize)
            }
            return nil
        }
        let frameStart = start
        start = terminator + 1
        scanned = start
        guard terminator - frameStart <= maximumMessageSize else { throw .messageTooLarge(limit: maximumMessageSize) }
        let result = buffer.withUnsafeBytes { raw in
            Result { () throws(VarlinkProtocolError) in
                try decode(UnsafeRawBufferPointer(rebasing: raw[frameStart..<terminator]))
            }
        }
        return try result.get()
    }

    /// Drops consumed bytes: all of them when nothing is pending (the common case, and
    /// free), otherwise once they are most of the buffer, so moving costs amortised O(1).
    /// A buffer that grew for one large message is released rather than kept, because a
    /// daemon holds one decoder per connection.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            start = 0
            scanned = 0
        } else if start > 4096, start > buffer.count / 2 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
    }

    private static func firstNUL(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty,
            let hit = memchr(base, 0, bytes.count)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }
}
