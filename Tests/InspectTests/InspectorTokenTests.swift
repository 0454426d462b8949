import AppStateInspectKit
import TestSupport
import XCTest

final class InspectorTokenTests: AppStateTestCase {
    func testToken_whenDrawn_thenIs32HexDigitsAndDiffersEachTime() {
        let tokens = (0..<100).map { _ in InspectorToken().text }
        XCTAssertTrue(tokens.allSatisfy { $0.wholeMatch(of: /[0-9a-f]{32}/) != nil }, "\(tokens)")
        XCTAssertEqual(Set(tokens).count, 100)
    }

    func testToken_whenFromKnownBytes_thenSpellsThemInHex() {
        XCTAssertEqual(InspectorToken(bytes: [0x00, 0x0f, 0xa5, 0xff]).text, "000fa5ff")
    }

    func testMatches_whenPresentedValuesDiffer_thenOnlyTheExactTokenMatches() {
        let token = InspectorToken(bytes: [0xab, 0xcd])
        XCTAssertTrue(token.matches("abcd"))
        for wrong in ["abce", "ABCD", "abc", "abcde", "", "bbcd"] {
            XCTAssertFalse(token.matches(Substring(wrong)), wrong)
        }
    }
}
