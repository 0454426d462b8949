import AppStateCore
import TestSupport
import XCTest

final class JSONParserTests: AppStateTestCase {
    private func parse(_ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth) throws(JSONParseError) -> JSONValue {
        try JSONParser(maximumDepth: maximumDepth).parse(bytes)
    }

    private func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private func assertRejects(
        _ bytes: [UInt8], _ kind: JSONParseError.Kind, at offset: Int? = nil,
        maximumDepth: Int = JSONParser.defaultMaximumDepth, file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            let value = try parse(bytes, maximumDepth: maximumDepth)
            XCTFail("accepted \(String(decoding: bytes, as: UTF8.self)) as \(value)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.kind, kind, "for \(bytes)", file: file, line: line)
            if let offset { XCTAssertEqual(error.offset, offset, "for \(bytes)", file: file, line: line) }
        }
    }

    private func assertRejects(
        _ text: String, _ kind: JSONParseError.Kind, at offset: Int? = nil, file: StaticString = #filePath, line: UInt = #line
    ) {
        assertRejects(Array(text.utf8), kind, at: offset, file: file, line: line)
    }

    /// Asserts that each text is rejected with `kind`, at its offset when one is given: the
    /// rejection tests list their inputs as a table.
    private func assertRejects(
        _ kind: JSONParseError.Kind, _ cases: [(text: String, offset: Int?)], file: StaticString = #filePath, line: UInt = #line
    ) {
        for (text, offset) in cases {
            assertRejects(text, kind, at: offset, file: file, line: line)
        }
    }

    // MARK: accepted input

    func testParse_whenDocumentMixesEveryType_thenBuildsMatchingValue() throws {
        let value = try parse(#" { "a" : [1, -2.5, 1e3, true, false, null, "x"], "b": {"c": {}}, "d": [] } "#)
        XCTAssertEqual(value, ["a": [1, -2.5, 1000, true, false, nil, "x"], "b": ["c": [:]], "d": []])
    }

    func testParse_whenScalarsAtTopLevel_thenAccepted() throws {
        XCTAssertEqual(try parse("true"), true)
        XCTAssertEqual(try parse("null"), nil)
        XCTAssertEqual(try parse("\"s\""), "s")
        XCTAssertEqual(try parse(" \t\r\n42\n"), 42)
    }

    func testParse_whenStringHasEveryEscape_thenDecodesThem() throws {
        let value = try parse(#""\"\\\/\b\f\n\r\t\u00e9\u20AC\ud83d\ude00\u0000""#)
        XCTAssertEqual(value, .string("\"\\/\u{8}\u{C}\n\r\té€😀\u{0}"))
    }

    func testParse_whenStringHasRawMultiByteUTF8_thenKeepsIt() throws {
        XCTAssertEqual(try parse("\"é€😀 ok\""), "é€😀 ok")
        XCTAssertEqual(try parse("\"a\\nб😀\""), "a\nб😀")
    }

    func testParse_whenNumbersUseEveryForm_thenMatchesStandardConversion() throws {
        let texts = [
            "0", "-0", "3", "-17", "0.1", "0.3", "1e22", "1e23", "1E-7", "2.5e+3", "0.000001", "123.456",
            "9007199254740993", "123456789012345678901234567890", "1.7976931348623157e308",
            "2.2250738585072014e-308", "5e-324", "1e-400", "0.1e1", "4.35", "100000000000000000000000",
        ]
        for text in texts {
            let expected = try XCTUnwrap(Double(text), text)
            XCTAssertEqual(try parse(text).doubleValue?.bitPattern, expected.bitPattern, text)
        }
    }

    func testParse_whenNestingEqualsLimit_thenAccepted() throws {
        let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        XCTAssertNoThrow(try parse(text))
        let objects = String(repeating: #"{"a":"#, count: 63) + "[]" + String(repeating: "}", count: 63)
        XCTAssertNoThrow(try parse(objects))
    }

    // MARK: rejected input

    func testParse_whenNestingExceedsLimit_thenTooDeep() {
        assertRejects(String(repeating: "[", count: 65) + String(repeating: "]", count: 65), .tooDeep, at: 64)
        assertRejects(String(repeating: #"{"a":"#, count: 64) + "[]" + String(repeating: "}", count: 64), .tooDeep)
        assertRejects(Array("[[[]]]".utf8), .tooDeep, at: 2, maximumDepth: 2)
    }

    func testParse_whenNestingIsHuge_thenTooDeepWithoutExhaustingTheStack() {
        assertRejects(String(repeating: "[", count: 1_000_000), .tooDeep)
    }

    func testParse_whenStringHasInvalidUTF8_thenInvalidUTF8() {
        assertRejects([0x22, 0xFF, 0x22], .invalidUTF8, at: 1)
        assertRejects([0x22, 0x80, 0x22], .invalidUTF8, at: 1)
        assertRejects([0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, at: 1)
        assertRejects([0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8, at: 1)
        assertRejects([0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, at: 1)
        assertRejects([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, at: 1)
        assertRejects([0x22, 0xC3, 0x22], .invalidUTF8, at: 1)
        assertRejects([0x22, 0x61, 0x5C, 0x6E, 0xE2, 0x82, 0x22], .invalidUTF8, at: 4)
    }

    func testParse_whenUTF8IsTruncatedAtEnd_thenUnexpectedEnd() {
        assertRejects([0x22, 0xE2, 0x82], .unexpectedEnd)
    }

    func testParse_whenNonASCIIOutsideString_thenUnexpectedCharacter() {
        assertRejects([0xEF, 0xBB, 0xBF, 0x31], .unexpectedCharacter, at: 0)
    }

    func testParse_whenStringHasRawControlCharacter_thenControlCharacter() {
        assertRejects([0x22, 0x61, 0x0A, 0x22], .controlCharacter, at: 2)
        assertRejects([0x22, 0x09, 0x22], .controlCharacter, at: 1)
        assertRejects([0x22, 0x5C, 0x6E, 0x00, 0x22], .controlCharacter, at: 3)
        assertRejects([0x22, 0x1F, 0x22], .controlCharacter)
    }

    func testParse_whenSurrogateEscapeIsUnpaired_thenLoneSurrogate() {
        assertRejects(
            .loneSurrogate,
            [
                (#""\uD800""#, 1), (#""\uDC00""#, 1), (#""\ud83dx""#, 1), (#""a\ud83d\u0041""#, 2), (#""\ud83d\ud83d""#, nil),
            ])
    }

    func testParse_whenEscapeIsUnknownOrMalformed_thenInvalidEscape() {
        assertRejects(.invalidEscape, [(#""\x""#, 1), (#""\'""#, nil), (#""\u12G4""#, 5), (#""\U0041""#, nil)])
    }

    func testParse_whenInputStopsEarly_thenUnexpectedEnd() {
        for text in ["", "   ", "[", "[1", "[1,", "{", #"{"a""#, #"{"a":"#, #"{"a":1"#, "\"abc", "tru", "-", "1.", "1e", "1e+", #""\u12"#, #""\"#] {
            assertRejects(text, .unexpectedEnd)
        }
    }

    func testParse_whenValueIsFollowedByMore_thenTrailingData() {
        assertRejects(.trailingData, [("1 2", 2), ("{} x", 3), ("[1]]", 3), ("nullnull", 4)])
        assertRejects([0x31, 0x00], .trailingData, at: 1)
    }

    func testParse_whenNonFiniteLiteral_thenUnexpectedCharacter() {
        assertRejects(.unexpectedCharacter, [("NaN", 0), ("Infinity", 0), ("[1, NaN]", 4)])
        assertRejects("-Infinity", .invalidNumber, at: 1)
    }

    func testParse_whenNumberOverflowsDouble_thenNumberOutOfRange() {
        assertRejects(
            .numberOutOfRange,
            [
                ("1e999", 0), ("-1e999", 0), ("[0, 1" + String(repeating: "0", count: 400) + "]", 4), ("1.8e308", nil),
            ])
    }

    func testParse_whenNumberBreaksGrammar_thenInvalidNumber() {
        assertRejects(.invalidNumber, [("01", 1), ("-01", 2), ("1.e5", 2), ("1ea", 2), ("-a", 1)])
        assertRejects(.unexpectedCharacter, [("+1", 0), (".5", 0)])
        assertRejects("0x10", .trailingData, at: 1)
    }

    func testParse_whenStructureIsBroken_thenUnexpectedCharacter() {
        assertRejects(
            .unexpectedCharacter,
            [
                ("[1,]", 3), (#"{"a":1,}"#, 7), ("{a:1}", 1), ("['a']", 1), (#"{"a" 1}"#, 5), ("[1 2]", 3), ("// x\n1", 0), ("trUe", 2),
            ])
    }

    func testParse_whenObjectRepeatsKey_thenDuplicateKey() {
        assertRejects(#"{"a":1,"b":2,"a":3}"#, .duplicateKey, at: 13)
    }

    func testParse_whenDuplicateKeysAreAllowed_thenTheFirstValueCountsAndLaterErrorsAreStillFound() throws {
        let lenient = JSONParser(allowsDuplicateKeys: true)
        XCTAssertEqual(try lenient.parse(Array(#"{"a":1,"b":{"c":2,"c":3},"a":4}"#.utf8)), ["a": 1, "b": ["c": 2]])
        XCTAssertThrowsError(try lenient.parse(Array(#"{"a":1,"a":2 "b":3}"#.utf8))) { error in
            XCTAssertEqual(error as? JSONParseError, JSONParseError(.unexpectedCharacter, at: 13))
        }
    }

    func testParseError_description_namesKindAndOffset() {
        XCTAssertEqual(JSONParseError(.invalidUTF8, at: 12).description, "invalid UTF-8 at byte 12")
    }
}
