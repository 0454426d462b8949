import AppStateCore
import TestSupport
import XCTest

final class JSONWriterTests: AppStateTestCase {
    private func text(_ value: JSONValue) -> String {
        String(decoding: JSONWriter.bytes(of: value), as: UTF8.self)
    }

    func testWrite_whenNumberIsIntegral_thenNoFraction() {
        XCTAssertEqual(text(3.0), "3")
        XCTAssertEqual(text(-17), "-17")
        XCTAssertEqual(text(0), "0")
        XCTAssertEqual(text(.number(-0.0)), "0")
        XCTAssertEqual(text(1e15), "1000000000000000")
        XCTAssertEqual(text(9_007_199_254_740_993), "9007199254740992")
        XCTAssertEqual(text(.number(-9.1e18)), "-9100000000000000000")
    }

    func testWrite_whenIntegralBeyondInt64_thenExponentFormThatReadsBack() throws {
        for number in [Double(Int64.min), 1e19, -1e300, 0x1p70] {
            let written = text(.number(number))
            XCTAssertTrue(written.contains("e"), written)
            XCTAssertEqual(try JSONValue(jsonText: written), .number(number))
        }
    }

    func testWrite_whenNumberHasFraction_thenShortestRoundTripForm() {
        XCTAssertEqual(text(0.5), "0.5")
        XCTAssertEqual(text(0.1), "0.1")
        XCTAssertEqual(text(-2.25), "-2.25")
        XCTAssertEqual(text(1e-7), "1e-07")
    }

    func testWrite_whenNumberIsNotFinite_thenNull() {
        XCTAssertEqual(text(.number(.nan)), "null")
        XCTAssertEqual(text(.number(.infinity)), "null")
        XCTAssertEqual(text([.number(-.infinity)]), "[null]")
    }

    func testWrite_whenStringNeedsEscapes_thenEscapesExactlyThose() {
        XCTAssertEqual(text("a\"b\\c"), #""a\"b\\c""#)
        XCTAssertEqual(text("\n\r\t\u{8}\u{C}"), #""\n\r\t\b\f""#)
        XCTAssertEqual(text("\u{0}\u{1}\u{1F}"), #""\u0000\u0001\u001f""#)
        XCTAssertEqual(text("/\u{7F}é€😀"), "\"/\u{7F}é€😀\"")
    }

    func testWrite_whenObjectHasSeveralKeys_thenSortedAndCompact() {
        XCTAssertEqual(text(["b": 1, "a": [true, nil], "c": ["z": "y", "x": [:]]]), #"{"a":[true,null],"b":1,"c":{"x":{},"z":"y"}}"#)
        XCTAssertEqual(text([]), "[]")
        XCTAssertEqual(text([:]), "{}")
    }

    func testWrite_whenSameValueBuiltInDifferentOrder_thenSameBytes() {
        var first: [String: JSONValue] = [:]
        var second: [String: JSONValue] = [:]
        for index in 0..<50 { first["k\(index)"] = .number(Double(index)) }
        for index in (0..<50).reversed() { second["k\(index)"] = .number(Double(index)) }
        XCTAssertEqual(JSONWriter.bytes(of: .object(first)), JSONWriter.bytes(of: .object(second)))
    }

    func testRoundTrip_whenValueIsWrittenAndParsed_thenEqual() throws {
        let value: JSONValue = [
            "string": "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} unicode é€😀",
            "numbers": [0, -1, 1.5, 1e300, -2.5e-300, 123_456_789, 0.1, .number(.leastNonzeroMagnitude)],
            "nested": ["deeper": [["x": nil], [true, false]]],
            "empty": ["": ""],
        ]
        XCTAssertEqual(try JSONValue(jsonBytes: value.jsonBytes), value)
        XCTAssertEqual(try JSONValue(jsonText: value.jsonText), value)
    }

    func testRoundTrip_whenRandomValues_thenEqual() throws {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<300 {
            let value = randomValue(depth: 0, using: &generator)
            XCTAssertEqual(try JSONValue(jsonBytes: value.jsonBytes), value)
        }
    }

    private func randomValue(depth: Int, using generator: inout SeededGenerator) -> JSONValue {
        switch Int.random(in: 0...(depth > 4 ? 3 : 5), using: &generator) {
        case 0: return nil
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            let double = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            return .number(double.isFinite ? double : Double(Int32.random(in: .min ... .max, using: &generator)))
        case 3:
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x1F_FFF, using: &generator))
            }
            return .string(String(String.UnicodeScalarView(scalars)))
        case 4:
            return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1, using: &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0...4, using: &generator) {
                members["k\(index)\u{E9}"] = randomValue(depth: depth + 1, using: &generator)
            }
            return .object(members)
        }
    }
}
