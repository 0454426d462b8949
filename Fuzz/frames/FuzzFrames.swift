import AppStateIPC

/// Target `frames`: a byte stream cut into chunks, as a socket delivers it, through
/// ``VarlinkFrameDecoder`` and the call and reply decoding behind it.
///
/// The first byte of the input chooses the chunk sizes, the rest is the stream. Two decoders
/// read it, one taking calls and one taking replies. Invariants: nothing traps; after each
/// chunk a decoder buffers at most its limit plus that chunk; both decoders split the stream
/// at the same places; every decoded call or reply encodes to one NUL-terminated frame that
/// decodes back to an equal value and re-encodes to the same bytes.

/// Small, so that inputs of a few hundred bytes reach the oversize paths.
private let limit = 128

func fuzz(_ bytes: [UInt8]) {
    guard let seed = bytes.first else { return }
    var sizes = ChunkSizes(seed: seed)
    var calls = VarlinkFrameDecoder(maximumMessageSize: limit)
    var replies = VarlinkFrameDecoder(maximumMessageSize: limit)
    var rest = bytes.dropFirst()
    while !rest.isEmpty {
        let chunk = Array(rest.prefix(sizes.next()))
        rest = rest.dropFirst(chunk.count)
        calls.append(chunk)
        replies.append(chunk)
        require(calls.bufferedByteCount <= limit + chunk.count, "buffered \(calls.bufferedByteCount) bytes, limit \(limit), chunk \(chunk.count)")
        let callOutcomes = drain(&calls) { decoder throws(VarlinkProtocolError) in
            try decoder.nextCall().map { call in
                roundTrip(call, encoded: \.encoded) { frame throws(VarlinkProtocolError) in try VarlinkCall(frame: frame) }
            }
        }
        let replyOutcomes = drain(&replies) { decoder throws(VarlinkProtocolError) in
            try decoder.nextReply().map { reply in
                roundTrip(reply, encoded: \.encoded) { frame throws(VarlinkProtocolError) in try VarlinkReply(frame: frame) }
            }
        }
        require(callOutcomes == replyOutcomes, "call decoder saw \(callOutcomes), reply decoder \(replyOutcomes)")
        require(calls.bufferedByteCount == replies.bufferedByteCount, "decoders buffer different byte counts")
    }
}

/// What a decoder made of one frame; a well-formed call can be a malformed reply and back,
/// so only oversize is told apart.
private enum Outcome: Equatable {
    case frame, tooLarge
}

/// Takes frames until the decoder has no complete one, going on after errors as a lenient
/// caller would. A decoder that throws without consuming would loop here: libFuzzer's
/// timeout reports that as a hang.
private func drain(
    _ decoder: inout VarlinkFrameDecoder,
    _ next: (inout VarlinkFrameDecoder) throws(VarlinkProtocolError) -> Void?
) -> [Outcome] {
    var outcomes: [Outcome] = []
    while true {
        do {
            guard try next(&decoder) != nil else { return outcomes }
            outcomes.append(.frame)
        } catch {
            outcomes.append(error.kind == .messageTooLarge ? .tooLarge : .frame)
        }
    }
}

private func roundTrip<Message: Equatable>(
    _ message: Message,
    encoded: (Message) -> [UInt8],
    decode: ([UInt8]) throws(VarlinkProtocolError) -> Message
) {
    let bytes = encoded(message)
    require(bytes.firstIndex(of: 0) == bytes.count - 1, "encoding is not one NUL-terminated frame: \(bytes)")
    let again: Message
    do {
        again = try decode(Array(bytes.dropLast()))
    } catch {
        fatalError("invariant broken: own encoding does not decode (\(error)): \(String(decoding: bytes, as: UTF8.self))")
    }
    require(again == message, "decodes to another value: \(message) became \(again)")
    require(encoded(again) == bytes, "re-encoding differs: \(String(decoding: bytes, as: UTF8.self))")
}

/// Chunk sizes from 1 to 80 bytes, varied by a small linear congruential generator so that one
/// input byte gives a reproducible, irregular split.
private struct ChunkSizes {
    private var state: UInt32

    init(seed: UInt8) { state = UInt32(seed) &+ 1 }

    mutating func next() -> Int {
        state = state &* 1_103_515_245 &+ 12_345
        return Int((state >> 16) % 80) + 1
    }
}
