import AppStateCore
import AppStateCtlKit
import AppStateRendering
import TestSupport
import XCTest

final class FormattingTests: AppStateTestCase {
    func testNumbersDropAZeroFraction() {
        XCTAssertEqual(Formatting.number(800), "800")
        XCTAssertEqual(Formatting.number(-10), "-10")
        XCTAssertEqual(Formatting.number(0.25), "0.25")
    }

    func testFramesAreWrittenAsWindowGeometries() {
        XCTAssertEqual(Formatting.frame(Rect(x: 0, y: 0, width: 1280, height: 800)), "1280×800+0+0")
        XCTAssertEqual(Formatting.frame(Rect(x: 640, y: 464, width: 640, height: 336)), "640×336+640+464")
        XCTAssertEqual(Formatting.frame(Rect(x: -10, y: 0.5, width: 10, height: 20)), "10×20-10+0.5")
    }

    func testOnlyNonZeroInsetsAreWritten() {
        XCTAssertNil(Formatting.insets(.zero))
        XCTAssertEqual(Formatting.insets(Insets(top: 0, left: 0, bottom: 336, right: 0)), "inset bottom 336")
        XCTAssertEqual(Formatting.insets(Insets(top: 20, left: 1, bottom: 2, right: 3.5)), "inset top 20 left 1 bottom 2 right 3.5")
    }

    func testUptimeUsesTheTwoLargestUnits() {
        XCTAssertEqual(Formatting.uptime(seconds: 0.4), "0s")
        XCTAssertEqual(Formatting.uptime(seconds: 42.9), "42s")
        XCTAssertEqual(Formatting.uptime(seconds: 303), "5min 3s")
        XCTAssertEqual(Formatting.uptime(seconds: 7623.5), "2h 7min")
        XCTAssertEqual(Formatting.uptime(seconds: 3601), "1h")
        XCTAssertEqual(Formatting.uptime(seconds: 3 * 86_400 + 4 * 3_600 + 5), "3d 4h")
        XCTAssertEqual(Formatting.uptime(seconds: -1), "0s")
        XCTAssertEqual(Formatting.uptime(seconds: .infinity), "0s")
    }

    func testCountsAndSecondsAgreeInNumber() {
        XCTAssertEqual(Formatting.seconds(1), "1 second")
        XCTAssertEqual(Formatting.seconds(0.5), "0.5 seconds")
        XCTAssertEqual(Formatting.count(1, "page"), "1 page")
        XCTAssertEqual(Formatting.count(0, "page"), "0 pages")
    }
}
