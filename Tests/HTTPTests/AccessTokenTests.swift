import AppStateHTTP
import TestSupport
import XCTest

final class AccessTokenTests: AppStateTestCase {
    func testToken_whenDrawn_thenIs32HexDigitsAndDiffersEachTime() {
        let tokens = (0..<100).map { _ in AccessToken().text }
        XCTAssertTrue(tokens.allSatisfy { $0.wholeMatch(of: /[0-9a-f]{32}/) != nil }, "\(tokens)")
        XCTAssertEqual(Set(tokens).count, 100)
    }

    func testToken_whenFromKnownBytes_thenSpellsThemInHex() {
        XCTAssertEqual(AccessToken(bytes: [0x00, 0x0f, 0xa5, 0xff]).text, "000fa5ff")
    }

    func testMatches_whenPresentedValuesDiffer_thenOnlyTheExactTokenMatches() {
        let token = AccessToken(bytes: [0xab, 0xcd])
        XCTAssertTrue(token.matches("abcd"))
        for wrong in ["abce", "ABCD", "abc", "abcde", "", "bbcd"] {
            XCTAssertFalse(token.matches(Substring(wrong)), wrong)
        }
    }

    func testInitText_whenTheTextCanTravelInAURLAHeaderAndACookie_thenTakesIt() {
        XCTAssertEqual(AccessToken(text: "0123456789abcdef")?.text, "0123456789abcdef")
        XCTAssertEqual(AccessToken(text: "Kiosk-Token_2026.v1")?.text, "Kiosk-Token_2026.v1")
        for text in ["", "short", "0123456789abcde", "0123456789abcdef ", "0123456789;abcdef", "0123456789abcdéf", "0123456789%abcdef"] {
            XCTAssertNil(AccessToken(text: text), text)
        }
    }
}
