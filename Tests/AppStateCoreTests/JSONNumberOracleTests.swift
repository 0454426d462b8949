import AppStateCore
import Foundation
import Glibc
import TestSupport
import XCTest

/// Number parsing checked against oracles that are not the parser's own code: glibc's
/// `strtod`, called directly, for random numbers of every shape (the parser converts most
/// of them itself, by Clinger's fast path, and hands the rest to the standard library), and
/// a table of known hard cases whose bit patterns were computed independently of glibc and
/// of Swift (Python's correctly rounded `float()`, checked with exact decimal arithmetic):
/// round-half-even ties, subnormals, 17-digit mantissas, the edges of overflow, `-0` and
/// long exponents.
final class JSONNumberOracleTests: AppStateTestCase {
    private func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser().parse(Array(text.utf8))
    }

    /// Glibc's conversion of the whole text, or nil when it does not take all of it.
    private func strtodOracle(_ text: String) -> Double? {
        text.withCString { start in
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(start, &end)
            guard let end, end - UnsafeMutablePointer(mutating: start) == text.utf8.count else { return nil }
            return value
        }
    }

    /// Compares the parser with `strtod` for one text: the same bits, or, where `strtod`
    /// overflows, `numberOutOfRange`.
    private func assertAgreesWithStrtod(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let expected = strtodOracle(text) else { return XCTFail("strtod did not read all of \(text)", file: file, line: line) }
        do {
            let value = try parse(text)
            XCTAssertTrue(expected.isFinite, "\(text) accepted as \(value), strtod overflows", file: file, line: line)
            XCTAssertEqual(
                value.doubleValue?.bitPattern, expected.bitPattern,
                "\(text): \(value.doubleValue.map { "\($0)" } ?? "\(value)"), strtod \(expected)", file: file, line: line)
        } catch {
            XCTAssertFalse(expected.isFinite, "\(text) refused (\(error)), strtod gives \(expected)", file: file, line: line)
            XCTAssertEqual(error.kind, .numberOutOfRange, text, file: file, line: line)
        }
    }

    func testStrtod_whenThisProcessConverts_thenUsesTheCLocalesDecimalPoint() {
        // Guards the oracle: another locale would read "0.5" differently.
        XCTAssertEqual(strtodOracle("0.5"), 0.5)
        XCTAssertEqual(strtodOracle("-1.25e2"), -125)
    }

    /// Random decimal texts: half with at most 15 significant digits and a power of ten within
    /// 10^±22 (what the parser converts itself), half beyond (what it hands on), with leading
    /// and trailing zeros, fractions, signs and exponents up to ±400.
    func testParse_whenRandomDecimalTexts_thenEqualsGlibcStrtod() {
        var generator = SeededGenerator(seed: 14)
        var fastPath = 0
        let count = 20_000
        for index in 0..<count {
            let digitCount = index.isMultiple(of: 2) ? Int.random(in: 1...15, using: &generator) : Int.random(in: 16...40, using: &generator)
            var digits = (0..<digitCount).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) }
            if digits[0] == "0" { digits[0] = "1" }
            let exponent = index.isMultiple(of: 2) ? Int.random(in: -22...22, using: &generator) : Int.random(in: -400...400, using: &generator)
            // Where the decimal point goes among the digits, and the written exponent that
            // keeps the value digits × 10^exponent.
            let point = Int.random(in: 0...digits.count, using: &generator)
            let written = exponent + (digits.count - point)
            let integerPart = point == 0 ? "0" : String(digits[..<point])
            let fraction = point == digits.count ? "" : "." + String(digits[point...])
            let leadingZeros =
                point == 0 && Bool.random(using: &generator) ? String(repeating: "0", count: Int.random(in: 1...5, using: &generator)) : ""
            let fractionText = point == 0 ? "." + leadingZeros + String(digits) : fraction
            let writtenExponent = point == 0 ? written + leadingZeros.count : written
            let sign = Bool.random(using: &generator) ? "-" : ""
            let exponentText = writtenExponent == 0 && Bool.random(using: &generator) ? "" : "e\(writtenExponent)"
            let text = sign + integerPart + fractionText + exponentText
            if digitCount <= 15, (-22...22).contains(exponent) { fastPath += 1 }
            assertAgreesWithStrtod(text)
        }
        // Both of the parser's paths were exercised in earnest.
        XCTAssertGreaterThan(fastPath, count / 3)
        XCTAssertLessThan(fastPath, count * 2 / 3)
    }

    /// Random bit patterns, written as the standard library writes them (the shortest text
    /// that reads back), with 17 significant digits, and as integers when they are whole:
    /// each must read back as exactly the double it was written from.
    func testParse_whenRandomDoublesAreWritten_thenReadBackToTheSameBits() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<5000 {
            let double = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            guard double.isFinite else { continue }
            for text in [double.description, String(format: "%.17g", double), String(format: "%.16e", double)] {
                XCTAssertEqual(try parse(text).doubleValue?.bitPattern, double.bitPattern, text)
                assertAgreesWithStrtod(text)
            }
        }
    }

    /// Texts with their correctly rounded bit patterns, from an oracle outside glibc and Swift.
    static let hardCases: [(text: String, bits: UInt64, why: String)] = [
        // Ties and near-ties: round half to even.
        ("9007199254740993", 0x4340_0000_0000_0000, "2^53 + 1, a tie: down to even 2^53"),
        ("9007199254740995", 0x4340_0000_0000_0002, "2^53 + 3, a tie: up to even 2^53 + 4"),
        ("9007199254740993.0000000000000001", 0x4340_0000_0000_0001, "just above a tie: up"),
        ("1.00000000000000011102230246251565404236316680908203125", 0x3FF0_0000_0000_0000, "1 + 2^-53 exactly, a tie: down to even 1"),
        ("1.00000000000000011102230246251565404236316680908203126", 0x3FF0_0000_0000_0001, "just above the tie: up"),
        ("1.00000000000000011102230246251565404236316680908203124", 0x3FF0_0000_0000_0000, "just below the tie: down"),
        ("1.00000000000000033306690738754696212708950042724609375", 0x3FF0_0000_0000_0002, "1 + 3 × 2^-53, a tie: up to even"),
        ("72057594037927945", 0x4370_0000_0000_0001, "2^56 + 9: above the tie"),
        ("9007199254740991.5", 0x4340_0000_0000_0000, "2^53 - 0.5, a tie: up to even 2^53"),
        // Decimal texts that are hard to round (from the literature on strtod).
        ("0.1", 0x3FB9_9999_9999_999A, "0.1"),
        ("0.3", 0x3FD3_3333_3333_3333, "0.3"),
        ("1e23", 0x44B5_2D02_C7E1_4AF6, "1e23 lies between two doubles, near the middle"),
        ("8.533e+68", 0x4E3F_A691_65A8_EEA2, "Paxson's hard case"),
        ("4.1006e-184", 0x19DB_E0D1_C7EA_60C9, "Paxson's hard case"),
        ("9.998e+307", 0x7FE1_CC0A_350C_A87B, "Paxson's hard case"),
        ("9.9538452227e-280", 0x0602_117A_E45C_DE43, "Paxson's hard case"),
        ("6.47660115e-260", 0x0A1F_DD9E_333B_ADAD, "Paxson's hard case"),
        ("7.4e+47", 0x49E0_33D7_ECA0_ADEF, "Paxson's hard case"),
        ("5.92e+48", 0x4A10_33D7_ECA0_ADEF, "Paxson's hard case"),
        ("7.35e+66", 0x4DD1_72B7_0EAB_ABA9, "Paxson's hard case"),
        ("8.32116e+55", 0x4B8B_2628_393E_02CD, "Paxson's hard case"),
        // Subnormals and the normal boundary.
        ("5e-324", 0x0000_0000_0000_0001, "the smallest subnormal"),
        ("4.9406564584124654e-324", 0x0000_0000_0000_0001, "the smallest subnormal, 17 digits"),
        ("2.4703282292062327e-324", 0x0000_0000_0000_0000, "just below half the smallest subnormal: 0"),
        ("2.4703282292062328e-324", 0x0000_0000_0000_0001, "just above half the smallest subnormal"),
        (halfTheSmallestSubnormal, 0x0000_0000_0000_0000, "exactly half the smallest subnormal, a tie: down to even 0"),
        (threeHalvesOfTheSmallestSubnormal, 0x0000_0000_0000_0002, "exactly 1.5 × the smallest subnormal, a tie: up to even 2"),
        ("1e-320", 0x0000_0000_0000_07E8, "a subnormal"),
        ("1.5e-323", 0x0000_0000_0000_0003, "a subnormal"),
        ("2.2250738585072011e-308", 0x000F_FFFF_FFFF_FFFF, "the largest subnormal (the value that hung PHP and Java)"),
        ("-2.2250738585072011e-308", 0x800F_FFFF_FFFF_FFFF, "its negative"),
        ("2.2250738585072012e-308", 0x0010_0000_0000_0000, "rounds up to the smallest normal"),
        ("2.2250738585072014e-308", 0x0010_0000_0000_0000, "the smallest normal"),
        ("4.4501477170144023e-308", 0x001F_FFFF_FFFF_FFFF, "the largest double of the smallest binade"),
        ("1e-400", 0x0000_0000_0000_0000, "underflows to 0"),
        // 17 and more significant digits.
        ("0.10000000000000001", 0x3FB9_9999_9999_999A, "17 digits that name 0.1"),
        ("1.0000000000000002", 0x3FF0_0000_0000_0001, "1 + 2^-52"),
        ("0.30000000000000004", 0x3FD3_3333_3333_3334, "0.1 + 0.2"),
        ("123456789012345678", 0x437B_69B4_BA63_0F35, "18 digits"),
        ("2.9802322387695312e-8", 0x3E60_0000_0000_0000, "2^-25"),
        ("3.4028234663852886e38", 0x47EF_FFFF_E000_0000, "Float's largest, as a double"),
        ("1234567890123456e22", 0x47A2_9361_EDE0_0463, "16 digits: past the fast path"),
        // The fast path's edges: 15 digits and 10^±22.
        ("123456789012345e22", 0x476D_B89C_AFCC_D3A9, "15 digits × 10^22"),
        ("999999999999999e-22", 0x3E7A_D7F2_9ABC_AF41, "15 digits × 10^-22"),
        ("1e22", 0x4480_F0CF_064D_D592, "the largest exact power of ten"),
        ("1e-22", 0x3B5E_3920_1017_5EE6, "10^-22"),
        // The top of the range.
        ("1e308", 0x7FE1_CCF3_85EB_C8A0, "1e308"),
        ("1.7976931348623157e308", 0x7FEF_FFFF_FFFF_FFFF, "the largest double"),
        ("1.7976931348623158e308", 0x7FEF_FFFF_FFFF_FFFF, "rounds down to the largest double"),
        (justBelowTheOverflowTie, 0x7FEF_FFFF_FFFF_FFFF, "2^1024 - 2^970 - 1, just below the tie with infinity: the largest double"),
        // Zeros and long exponents.
        ("-0", 0x8000_0000_0000_0000, "negative zero"),
        ("-0.0e+99999", 0x8000_0000_0000_0000, "negative zero with a long exponent"),
        ("0e-99999999999999999999", 0x0000_0000_0000_0000, "zero with a 20-digit exponent"),
        ("1e-99999999999999999999", 0x0000_0000_0000_0000, "a 20-digit negative exponent: 0"),
        ("1e00000000000000000000000000001", 0x4024_0000_0000_0000, "an exponent with 30 leading zeros: 10"),
        ("1000000000000000000000e-21", 0x3FF0_0000_0000_0000, "22 digits × 10^-21: 1"),
        ("0.000000000000000000000000000000000000000000001e45", 0x3FF0_0000_0000_0000, "45 leading zeros: 1"),
        ("100000000000000000000000000000000000000000000000000000000000e-60", 0x3FB9_9999_9999_999A, "60 digits × 10^-60: 0.1"),
    ]

    /// Texts whose correctly rounded value is beyond the largest double.
    static let overflowingCases: [String] = [
        "1e309", "-1e309", "1.7976931348623159e308", "1e99999999999999999999",
        overflowTie,
    ]

    func testParse_whenHardCases_thenGivesTheirKnownBitPatterns() throws {
        for (text, bits, why) in Self.hardCases {
            let value = try parse(text).doubleValue
            XCTAssertEqual(
                value?.bitPattern, bits,
                "\(text.prefix(60)) (\(why)): got \(value.map { String($0.bitPattern, radix: 16) } ?? "no number"), expected \(String(bits, radix: 16))"
            )
        }
    }

    func testParse_whenHardCasesInArrays_thenSameBitsAsAlone() throws {
        // The number's end is found by the parser, not by the end of the input.
        let text = "[" + Self.hardCases.map(\.text).joined(separator: ", ") + "]"
        guard case .array(let values) = try parse(text) else { return XCTFail("not an array") }
        XCTAssertEqual(values.map { $0.doubleValue?.bitPattern }, Self.hardCases.map(\.bits))
    }

    func testParse_whenValueRoundsBeyondTheLargestDouble_thenNumberOutOfRange() {
        for text in Self.overflowingCases {
            do {
                let value = try parse(text)
                XCTFail("\(text.prefix(40))… accepted as \(value)")
            } catch {
                XCTAssertEqual(error.kind, .numberOutOfRange, String(text.prefix(40)))
                XCTAssertEqual(error.offset, 0, String(text.prefix(40)))
            }
        }
    }
}

// Exact decimal expansions, too long to read inline.

/// 2^-1075 exactly: half the smallest subnormal.
private let halfTheSmallestSubnormal =
    "247032822920623272088284396434110686182529901307162382212792841250337753635104375932649918180817"
    + "996189898282347722858865463328355177969898199387398005390939063150356595155702263922908583924491"
    + "051844359318028499365361525003193704576782492193656236698636584807570015857692699037063119282795"
    + "585513329278343384093519780155312465972635795746227664652728272200563740064854999770965994704540"
    + "208281662262378573934507363390079677619305775067401763246736009689513405355374585166611342237666"
    + "786041621596804619144672918403005300575308490487653917113865916462395249126236538818796362393732"
    + "804238910186723484976682350898633885879256283027559956575244555072551893136908362547791869486679"
    + "94968324049705821028513185451396213837722826145437693412532098591327667236328125e-1075"
/// 3 × 2^-1075 exactly: halfway between the smallest subnormal and the next.
private let threeHalvesOfTheSmallestSubnormal =
    "741098468761869816264853189302332058547589703921487146638378523751013260905313127797949754542453"
    + "988569694847043168576596389985065533909694598162194016172817189451069785467106791768725751773473"
    + "155533077954085498096084575009581113730347476580968710095909754422710047573078097111189357848386"
    + "756539987835030152280559340465937397917907387238682993958184816601691220194564999312897984113620"
    + "624844986787135721803522090170239032857917325202205289740208029068540216066123755499834026713000"
    + "358124864790413857434018755209015901725925471462961751341597749387185747378709616456389087181198"
    + "412716730560170454930047052695901657637768849082679869725733665217655679410725087643375608460039"
    + "84904972149117463085539556354188641513168478436313080237596295773983001708984375e-1075"
/// 2^1024 - 2^970: halfway between the largest double and 2^1024, which rounds to even, i.e. up.
private let overflowTie =
    "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587"
    + "207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711"
    + "531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093" + "042880177904174497792"
/// 2^1024 - 2^970 - 1.
private let justBelowTheOverflowTie =
    "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587"
    + "207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711"
    + "531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093" + "042880177904174497791"
