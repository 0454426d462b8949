import AppStateCtlKit
import AppStateRendering
import TestSupport
import XCTest

final class TerminalStyleTests: AppStateTestCase {
    func testColourOnlyAtATerminalWithoutNoColor() {
        XCTAssertTrue(TerminalStyle.usesColor(isTerminal: true, noColor: nil, term: "xterm-256color"))
        XCTAssertFalse(TerminalStyle.usesColor(isTerminal: false, noColor: nil, term: "xterm-256color"))
        XCTAssertFalse(TerminalStyle.usesColor(isTerminal: true, noColor: "1", term: "xterm-256color"))
        XCTAssertFalse(TerminalStyle.usesColor(isTerminal: false, noColor: "1", term: nil))
        XCTAssertFalse(TerminalStyle.usesColor(isTerminal: true, noColor: nil, term: "dumb"))
    }

    func testAnEmptyNoColorDoesNotTurnColourOff() {
        // https://no-color.org: "when present and not an empty string".
        XCTAssertTrue(TerminalStyle.usesColor(isTerminal: true, noColor: "", term: nil))
    }

    func testPlainStyleWritesNoEscapeCodes() {
        XCTAssertEqual(TerminalStyle.plain.bold("a") + TerminalStyle.plain.dim("b"), "ab")
        XCTAssertEqual(TerminalStyle(isColored: true).green("a"), "\u{1B}[32ma\u{1B}[0m")
    }
}
