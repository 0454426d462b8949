import Foundation
import TestSupport
import XCTest

/// `appstate-gateway`'s kiosk page end to end: the real binaries and a real browser (Debian's
/// chromium, driven through chromedriver by Selenium from the venv), with the steps in
/// `Tests/Browser/kiosk_browser.py`, which starts, restarts and stops its own daemon and gateway.
final class GatewayBrowserTests: AppStateTestCase {
    private static let script = Products.repository.appendingPathComponent("Tests/Browser/kiosk_browser.py").path

    func testKioskPage_whenTheDaemonChangesAndEitherRestartsInChromium_thenThePageFollowsAndRefusalsChangeNothing() throws {
        _ = try resolveExecutable("chromium")
        _ = try resolveExecutable("chromedriver")
        let result = try Command.run(
            Products.python.path,
            [
                Self.script, "check", "--appstated", Products.appstated.path, "--gateway", Products.appstateGateway.path, "--ctl",
                Products.appstatectl.path,
            ],
            environment: ["SE_OFFLINE": "true"]
        )
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.hasSuffix("kiosk browser check: passed\n"), result.stdout + result.stderr)
    }
}
