import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// Replays the committed inputs of fuzz target `frames` — its seeds and any input it found
/// (Fuzz/frames/regressions; docs/reliability/fuzzing.md) — with the checks the target makes, so that
/// the suite fails when the decoders or the writer break what the target holds them to.
final class FrameFuzzReplayTests: AppStateTestCase {
    /// Small, as in the target, so that inputs of a few hundred bytes reach the oversize paths.
    private let limit = 128

    func testCommittedInputs_whenReplayed_thenDecodersAgreeAndMessagesRoundTrip() throws {
        let inputs = try FuzzInputs.committed(to: "frames")
        XCTAssertFalse(inputs.isEmpty, "no inputs in Fuzz/frames")
        for (name, bytes) in inputs {
            replay(bytes, name: name)
        }
    }

    /// What target `frames` does with one input, with assertions instead of traps: the first
    /// byte chooses the chunk sizes, the rest is the stream, read by a call decoder and a
    /// reply decoder side by side.
    private func replay(_ bytes: [UInt8], name: String) {
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
            XCTAssertLessThanOrEqual(calls.bufferedByteCount, limit + chunk.count, name)
            let callOutcomes = drain(&calls, name) { decoder throws(VarlinkProtocolError) in
                try decoder.nextCall().map {
                    assertRoundTrip($0, name, encoded: \.encoded) { frame throws(VarlinkProtocolError) in try VarlinkCall(frame: frame) }
                }
            }
            let replyOutcomes = drain(&replies, name) { decoder throws(VarlinkProtocolError) in
                try decoder.nextReply().map {
                    assertRoundTrip($0, name, encoded: \.encoded) { frame throws(VarlinkProtocolError) in try VarlinkReply(frame: frame) }
                }
            }
            XCTAssertEqual(callOutcomes, replyOutcomes, "\(name): the decoders split the stream differently")
            XCTAssertEqual(calls.bufferedByteCount, replies.bufferedByteCount, name)
        }
    }

    /// Takes frames until none is complete, going on after errors. Each frame consumes at
    /// least its terminator, so more frames than buffered bytes mean the decoder is stuck,
    /// where the target would hang.
    private func drain(
        _ decoder: inout VarlinkFrameDecoder, _ name: String,
        _ next: (inout VarlinkFrameDecoder) throws(VarlinkProtocolError) -> Void?
    ) -> [Bool] {
        var tooLarge: [Bool] = []
        for _ in 0...(decoder.bufferedByteCount + 1) {
            do {
                guard try next(&decoder) != nil else { return tooLarge }
                tooLarge.append(false)
            } catch {
                tooLarge.append(error.kind == .messageTooLarge)
            }
        }
        XCTFail("\(name): the decoder keeps returning frames it does not consume")
        return tooLarge
    }

    private func assertRoundTrip<Message: Equatable>(
        _ message: Message, _ name: String,
        encoded: (Message) -> [UInt8],
        decode: ([UInt8]) throws(VarlinkProtocolError) -> Message
    ) {
        let bytes = encoded(message)
        XCTAssertEqual(bytes.firstIndex(of: 0), bytes.count - 1, "\(name): not one NUL-terminated frame")
        do {
            let again = try decode(Array(bytes.dropLast()))
            XCTAssertEqual(again, message, "\(name): decodes to another value")
            XCTAssertEqual(encoded(again), bytes, "\(name): re-encoding differs")
        } catch {
            XCTFail("\(name): own encoding does not decode (\(error)): \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    /// The target's chunk sizes: 1 to 80 bytes from a linear congruential generator seeded
    /// by the input's first byte.
    private struct ChunkSizes {
        private var state: UInt32

        init(seed: UInt8) { state = UInt32(seed) &+ 1 }

        mutating func next() -> Int {
            state = state &* 1_103_515_245 &+ 12_345
            return Int((state >> 16) % 80) + 1
        }
    }
}
