import AppStateHTTP
import AppStateInspectKit
import Synchronization
import TestSupport
import XCTest

/// The inspector's screenshots without a daemon: the answer that says why there is none, and
/// the page that shows it beside the window. The PNG of a real kiosk and the daemon's
/// `NoKiosk` are checked end to end (KioskBrowserTests, InspectorBrowserTests).
final class InspectorScreenshotsTests: AppStateTestCase {
    func testTake_whenTheDaemonCannotBeReached_thenEveryWaitingRequestGets503SayingWhy() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("no-daemon-\(getpid()).sock").path
        let screenshots = InspectorScreenshots(socketPath: socket, tree: nil)
        let answers = Mutex<[HTTPResponse]>([])
        let done = expectation(description: "both answered")
        done.expectedFulfillmentCount = 2
        for _ in 0..<2 {
            screenshots.take { response in
                answers.withLock { $0.append(response) }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 15)
        for response in answers.withLock({ $0 }) {
            XCTAssertEqual(response.status, 503)
            let text = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .newlines)
            XCTAssertEqual(text, "appstated is not running: \(socket) does not exist")
        }
    }

    func testPage_whenLoaded_thenAsksForTheScreenshotBesideTheWindowAndShowsWhyNone() {
        let page = String(decoding: InspectorPage.bytes, as: UTF8.self)
        XCTAssertTrue(page.contains(#"<img id="screenshot""#), "the picture beside the window")
        XCTAssertTrue(page.contains(#"<p id="screenshot-note">"#), "the line that says why there is none")
        XCTAssertTrue(page.contains("fetch(`/screenshot?token=${token}`)"), "asked with the token")
        XCTAssertTrue(page.contains("setInterval(refreshScreenshot"), "refreshed while the page is open")
    }
}
