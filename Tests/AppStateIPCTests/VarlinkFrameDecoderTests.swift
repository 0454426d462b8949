import AppStateIPC
import TestSupport
import XCTest

final class VarlinkFrameDecoderTests: AppStateTestCase {
    private func frames(_ texts: [String]) -> [UInt8] {
        texts.flatMap { Array($0.utf8) + [0] }
    }

    private func drain(_ decoder: inout VarlinkFrameDecoder) throws -> [String] {
        var result: [String] = []
        while let frame = try decoder.nextFrame() { result.append(String(decoding: frame, as: UTF8.self)) }
        return result
    }

    func testNextFrame_whenFrameArrivesSplitAtAnyByte_thenReturnedOnceComplete() throws {
        let message = #"{"method":"io.appstate.GetTree","parameters":{"tree":"é"}}"#
        let bytes = frames([message])
        for split in 0...bytes.count {
            var decoder = VarlinkFrameDecoder()
            decoder.append(Array(bytes[..<split]))
            let early = try drain(&decoder)
            decoder.append(Array(bytes[split...]))
            XCTAssertEqual(early + (try drain(&decoder)), [message], "split at \(split)")
            XCTAssertEqual(decoder.bufferedByteCount, 0)
        }
    }

    func testNextFrame_whenFrameArrivesOneByteAtATime_thenNothingUntilTerminator() throws {
        let bytes = frames(["{\"a\":1}"])
        var decoder = VarlinkFrameDecoder()
        for byte in bytes.dropLast() {
            decoder.append([byte])
            XCTAssertNil(try decoder.nextFrame())
            XCTAssertTrue(decoder.hasPartialMessage)
        }
        decoder.append([0])
        XCTAssertEqual(try decoder.nextFrame(), Array("{\"a\":1}".utf8))
        XCTAssertNil(try decoder.nextFrame())
        XCTAssertFalse(decoder.hasPartialMessage)
    }

    func testNextFrame_whenSeveralFramesInOneChunk_thenEachInOrder() throws {
        var decoder = VarlinkFrameDecoder()
        decoder.append(frames(["{}", "[1]", "\"x\""]) + Array("{\"par".utf8))
        XCTAssertEqual(try drain(&decoder), ["{}", "[1]", "\"x\""])
        XCTAssertEqual(decoder.bufferedByteCount, 5)
        decoder.append(Array("tial\":true}".utf8) + [0])
        XCTAssertEqual(try drain(&decoder), ["{\"partial\":true}"])
    }

    func testNextFrame_whenStreamIsCutAtRandomBoundaries_thenSameFramesInOrder() throws {
        var generator = SeededGenerator(seed: 99)
        let messages = (0..<300).map { index in
            #"{"method":"io.appstate.Push","parameters":{"id":"\#(String(repeating: "x", count: index % 37))"}}"#
        }
        let stream = frames(messages)
        for _ in 0..<20 {
            var decoder = VarlinkFrameDecoder(maximumMessageSize: 200)
            var received: [String] = []
            var offset = 0
            while offset < stream.count {
                let length = Int.random(in: 1...300, using: &generator)
                let end = min(stream.count, offset + length)
                decoder.append(Array(stream[offset..<end]))
                received += try drain(&decoder)
                offset = end
            }
            XCTAssertEqual(received, messages)
        }
    }

    func testNextFrame_whenEmptyFrame_thenReturnedEmptyAndCallIsMalformed() throws {
        var decoder = VarlinkFrameDecoder()
        decoder.append([0, 0])
        XCTAssertEqual(try decoder.nextFrame(), [])
        XCTAssertThrowsError(try decoder.nextCall()) { error in
            XCTAssertEqual((error as? VarlinkProtocolError)?.kind, .invalidJSON)
        }
    }

    func testNextFrame_whenFrameIsExactlyTheLimit_thenAccepted() throws {
        var decoder = VarlinkFrameDecoder(maximumMessageSize: 8)
        decoder.append(frames(["\"123456\""]))
        XCTAssertEqual(try decoder.nextFrame()?.count, 8)
    }

    func testNextFrame_whenUnterminatedDataExceedsLimit_thenMessageTooLargeAndRestOfItDiscarded() throws {
        var decoder = VarlinkFrameDecoder(maximumMessageSize: 16)
        decoder.append(Array(repeating: UInt8(ascii: "x"), count: 17))
        XCTAssertThrowsError(try decoder.nextFrame()) { error in
            XCTAssertEqual((error as? VarlinkProtocolError)?.kind, .messageTooLarge)
            XCTAssertEqual((error as? VarlinkProtocolError)?.limit, 16)
        }
        XCTAssertEqual(decoder.bufferedByteCount, 0)
        for _ in 0..<1000 { decoder.append(Array(repeating: UInt8(ascii: "y"), count: 1000)) }
        XCTAssertEqual(decoder.bufferedByteCount, 0, "an oversized message must never be buffered")
        XCTAssertTrue(decoder.hasPartialMessage)
        XCTAssertNil(try decoder.nextFrame())
        decoder.append(Array("tail".utf8) + [0] + frames(["{\"ok\":1}"]))
        XCTAssertEqual(try drain(&decoder), ["{\"ok\":1}"])
    }

    func testNextFrame_whenTerminatedFrameExceedsLimit_thenMessageTooLargeThenNextFrame() throws {
        var decoder = VarlinkFrameDecoder(maximumMessageSize: 4)
        decoder.append(frames(["123456", "12"]))
        XCTAssertThrowsError(try decoder.nextFrame()) { error in
            XCTAssertEqual((error as? VarlinkProtocolError)?.kind, .messageTooLarge)
        }
        XCTAssertEqual(try drain(&decoder), ["12"])
    }

    func testNextCall_whenFramesAreCalls_thenDecodedWithoutCopy() throws {
        var decoder = VarlinkFrameDecoder()
        decoder.append(VarlinkCall(method: "a.B", parameters: ["x": 1]).encoded + VarlinkCall(method: "a.C", oneway: true).encoded)
        XCTAssertEqual(try decoder.nextCall(), VarlinkCall(method: "a.B", parameters: ["x": 1]))
        XCTAssertEqual(try decoder.nextCall(), VarlinkCall(method: "a.C", oneway: true))
        XCTAssertNil(try decoder.nextCall())
    }

    func testNextCall_whenTheSameCallRepeats_thenEachDecodesAsItsBytesSay() throws {
        var decoder = VarlinkFrameDecoder()
        let call = VarlinkCall(method: "a.B", parameters: ["x": 1])
        // The same length, one byte apart.
        let neighbour = VarlinkCall(method: "a.B", parameters: ["x": 2])
        decoder.append(call.encoded + call.encoded + neighbour.encoded + call.encoded + frames(["[]"]) + call.encoded)
        XCTAssertEqual(try decoder.nextCall(), call)
        XCTAssertEqual(try decoder.nextCall(), call)
        XCTAssertEqual(try decoder.nextCall(), neighbour)
        XCTAssertEqual(try decoder.nextCall(), call)
        XCTAssertThrowsError(try decoder.nextCall()) { error in
            XCTAssertEqual(error as? VarlinkProtocolError, .notAnObject)
        }
        XCTAssertEqual(try decoder.nextCall(), call)
        XCTAssertNil(try decoder.nextCall())
    }

    func testNextCall_whenOneFrameIsMalformed_thenThrowsAndNextFrameStillDecodes() throws {
        var decoder = VarlinkFrameDecoder()
        decoder.append(frames(["[]"]) + VarlinkCall(method: "a.B").encoded)
        XCTAssertThrowsError(try decoder.nextCall()) { error in
            XCTAssertEqual(error as? VarlinkProtocolError, .notAnObject)
        }
        XCTAssertEqual(try decoder.nextCall()?.method, "a.B")
    }

    func testNextReply_whenFramesAreReplies_thenDecoded() throws {
        var decoder = VarlinkFrameDecoder()
        decoder.append(VarlinkReply(parameters: ["n": 1], continues: true).encoded + VarlinkReply(error: .permissionDenied).encoded)
        XCTAssertEqual(try decoder.nextReply(), VarlinkReply(parameters: ["n": 1], continues: true))
        XCTAssertEqual(try decoder.nextReply()?.varlinkError, .permissionDenied)
    }

    func testAppend_whenManySmallFramesAreConsumed_thenBufferDoesNotGrow() throws {
        var decoder = VarlinkFrameDecoder()
        let frame = frames(["{\"method\":\"a.B\"}"])
        for _ in 0..<10_000 {
            decoder.append(frame + Array(frame[..<5]))
            _ = try decoder.nextFrame()
            decoder.append(Array(frame[5...]))
            _ = try decoder.nextFrame()
        }
        XCTAssertEqual(decoder.bufferedByteCount, 0)
    }
}
