import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// `appstate-kiosk` end to end: the real daemon on a tree whose nodes carry urls, a mocked
/// squeekboard on a private session bus, Debian's chromium headless driven through its
/// DevTools pipe, and the test's own page server, which records what the browser loads and
/// what its pages report.
final class KioskBrowserTests: AppStateTestCase {
    private var pages: PageServer!
    private var daemon: FollowedDaemon!
    private var keyboard: BusMock!
    private var kiosk: KioskProcess!

    /// session: logged out, the login form (/form); logged in, the pages container (/home,
    /// which remembers a customer in a cookie and localStorage) with overview (no url of its
    /// own), news (/news) and more (no url).
    private func treeFile() -> String {
        """
        version: 1
        trees:
          - name: kiosk
            window: { width: 1280, height: 800 }
            root:
              type: LoginStateController
              id: session
              children:
                - type: KeyboardAwareController
                  id: login
                  children:
                    - { type: Controller, id: form, url: "\(pages.url("/form"))" }
                - type: PaginatedController
                  id: home
                  url: "\(pages.url("/home?remember=ada"))"
                  children:
                    - { type: Controller, id: overview }
                    - { type: Controller, id: news, url: "\(pages.url("/news"))" }
                    - { type: Controller, id: more }
        """
    }

    private func start(daemonArguments: [String] = ["--follow-osk"], kioskArguments: [String] = []) throws {
        _ = try resolveExecutable("chromium")
        pages = try PageServer()
        addTeardownBlock { [pages] in pages?.stop() }
        let directory = try DaemonProcess.makeTemporaryDirectory()
        let file = directory.appendingPathComponent("kiosk.yaml")
        try treeFile().write(to: file, atomically: true, encoding: .utf8)
        var mock: BusMock?
        daemon = try FollowedDaemon(arguments: ["--tree-file", file.path] + daemonArguments, directory: directory) { buses in
            mock = try BusMock(.keyboard, on: buses.session)
            try mock?.addSetVisible()
        }
        keyboard = mock
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        kiosk = try KioskProcess(socket: daemon.daemon.socketPath, in: directory, arguments: kioskArguments)
        addTeardownBlock { [kiosk] in XCTAssertEqual(kiosk?.stop(), 0, kiosk?.messages ?? "") }
    }

    @discardableResult
    private func waitForReport(_ what: String, after skipping: Int = 0, _ condition: ([String: String]) -> Bool) throws -> [String: String] {
        try kiosk.waitForReport(on: pages, what, after: skipping, condition)
    }

    private func ctl(_ arguments: String...) throws {
        let result = try Command.run(Products.appstatectl.path, ["--socket", daemon.daemon.socketPath] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testKiosk_whenTheCurrentPathChanges_thenTheBrowserLoadsEachScreensURLOnce() throws {
        try start()
        try waitForReport("the login form") { $0["page"] == "form" && $0["event"] == "load" }
        XCTAssertEqual(pages.reports.last?["current"], "session/login/form", "<html> carries the current path")
        try ctl("login", "ada")
        try waitForReport("the home page, overview having no url") { $0["page"] == "home" && $0["event"] == "load" }
        try ctl("page", "more")
        try ctl("page", "news")
        try waitForReport("the news page") { $0["page"] == "news" && $0["event"] == "load" }
        XCTAssertEqual(pages.loads(of: "/home"), 1, "a change that keeps the url does not navigate")
        XCTAssertEqual(pages.loads(of: "/news"), 1)
        // The page navigates by itself: it is left there while the screen stays the same.
        let reported = pages.reports.count
        pages.tell("news", "navigate /elsewhere")
        try waitForReport("the page's own navigation", after: reported) { $0["page"] == "elsewhere" && $0["event"] == "load" }
        try ctl("keyboard", "show", "--height", "100")
        try ctl("keyboard", "hide")
        try ctl("page", "overview")
        try waitForReport("home again") { $0["page"] == "home" && $0["event"] == "load" && $0["cookie"] != "" }
        XCTAssertEqual(pages.loads(of: "/news"), 1)
        XCTAssertEqual(pages.loads(of: "/elsewhere"), 1)
    }

    func testKiosk_whenTheKeyboardCoversTheLoginScreen_thenThePagesViewportIsTheWindowLessTheKeyboard() throws {
        try start()
        try waitForReport("the login form at full height") { $0["page"] == "form" && $0["event"] == "load" && $0["innerHeight"] == "800" }
        let reported = pages.reports.count
        try ctl("keyboard", "show", "--height", "300")
        let shrunk = try waitForReport("room for the keyboard", after: reported) { $0["event"] == "resize" && $0["innerHeight"] == "500" }
        XCTAssertEqual(shrunk["keyboard"], "300px", "<html> carries the keyboard's height")
        try ctl("keyboard", "hide")
        try waitForReport("the whole window again", after: reported) { $0["event"] == "resize" && $0["innerHeight"] == "800" }
    }

    func testKiosk_whenAnInputIsFocusedAndBlurred_thenTheDaemonAsksSqueekboardToShowAndHide() throws {
        try start()
        try waitForReport("the login form") { $0["page"] == "form" && $0["event"] == "load" }
        _ = try daemon.waitForFollower("osk", connected: true)
        pages.tell("form", "focus")
        try waitForReport("the focus") { $0["event"] == "focus" }
        try waitForSetVisibleCalls(["true"])
        pages.tell("form", "blur")
        try waitForReport("the blur") { $0["event"] == "blur" }
        try waitForSetVisibleCalls(["true", "false"])
    }

    func testKiosk_whenTheCustomerLogsOut_thenTheNextCustomerFindsNoCookieNorStorage() throws {
        try start()
        try waitForReport("the login form") { $0["page"] == "form" && $0["event"] == "load" }
        try ctl("login", "ada")
        try waitForReport("the home page, on which ada arrives with nothing") {
            $0["page"] == "home" && $0["event"] == "load" && $0["cookie"] == "" && $0["storage"] == "null"
        }
        try ctl("page", "news")
        // Within ada's session, what the home page remembered stays.
        try waitForReport("the news page, with ada's cookie and storage") {
            $0["page"] == "news" && $0["cookie"] == "customer=ada" && $0["storage"] == "ada"
        }
        try ctl("logout")
        try kiosk.waitForMessage("session ended")
        let reported = pages.reports.count
        try waitForReport("the login form after the logout", after: reported) { $0["page"] == "form" && $0["event"] == "load" }
        try ctl("login", "grace")
        // The pages container shows the page it showed at the logout: news.
        let news = try waitForReport("the news page for grace", after: reported) { $0["page"] == "news" && $0["event"] == "load" }
        XCTAssertEqual(news["cookie"], "", "ada's cookie is gone")
        XCTAssertEqual(news["storage"], "null", "ada's localStorage is gone")
    }

    func testKiosk_whenTheDaemonRestarts_thenTheBrowserKeepsItsPageAndFollowsTheNewDaemon() throws {
        try start()
        try waitForReport("the login form") { $0["page"] == "form" && $0["event"] == "load" }
        try ctl("login", "ada")
        try waitForReport("the home page") { $0["page"] == "home" && $0["event"] == "load" }
        XCTAssertEqual(daemon.daemon.stop(), 0)
        try daemon.daemon.restart()
        try kiosk.waitForMessage("following ", times: 2)
        try ctl("page", "news")
        try waitForReport("the news page, from the new daemon") { $0["page"] == "news" && $0["event"] == "load" }
        XCTAssertEqual(pages.loads(of: "/home"), 1, "the restored screen is the one shown: no reload")
    }

    func testKiosk_whenTheBrowserCannotBeFoundOrExitsAtStart_thenItSaysSoAndExits69() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        let daemon = try DaemonProcess()
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.stop(), 0) }
        let missing = try KioskProcess(socket: daemon.socketPath, in: directory, browser: "/nonexistent/chromium")
        XCTAssertEqual(try missing.waitForExit(), 69)
        XCTAssertTrue(missing.messages.contains("cannot find the browser /nonexistent/chromium"), missing.messages)
        let exiting = try KioskProcess(socket: daemon.socketPath, in: directory, browser: try resolveExecutable("false"))
        XCTAssertEqual(try exiting.waitForExit(), 69)
        XCTAssertTrue(exiting.messages.contains("the browser exited with status 1"), exiting.messages)
    }

    func testKiosk_whenTheScreenIsBlanked_thenTheFirstTouchOnlyWakesItAndTheNextCounts() throws {
        try start()
        try waitForReport("the login form") { $0["page"] == "form" && $0["event"] == "load" }
        try ctl("blank")
        try waitForReport("the page covered") { $0["event"] == "cover" && $0["covers"] == "1" }
        pages.tell("form", "click")
        try daemon.waitForRoot("the screen woken by the touch") { $0?["blanked"] == nil }
        try waitForReport("the cover gone") { $0["event"] == "cover" && $0["covers"] == "0" }
        pages.tell("form", "click")
        let counted = try waitForReport("the next touch counted") { $0["event"] == "count" }
        XCTAssertEqual(counted["count"], "1", "the touch that woke the screen did not reach the page")
    }

    func testKiosk_whenAScreenshotIsAsked_thenItIsAPNGOfTheWindow() throws {
        try start()
        try waitForReport("the login form") { $0["page"] == "form" && $0["event"] == "load" }
        let file = daemon.directory.appendingPathComponent("screen.png")
        let deadline = Date().addingTimeInterval(20)
        var result = try Command.run(Products.appstatectl.path, ["--socket", daemon.daemon.socketPath, "screenshot", "-o", file.path])
        // The kiosk reports its socket once it serves it.
        while result.status != 0, Date() < deadline {
            usleep(100_000)
            result = try Command.run(Products.appstatectl.path, ["--socket", daemon.daemon.socketPath, "screenshot", "-o", file.path])
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        let png = try [UInt8](Data(contentsOf: file))
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        let size = stride(from: 16, to: 24, by: 4).map { png[$0..<$0 + 4].reduce(0) { $0 << 8 | Int($1) } }
        XCTAssertEqual(size, [1280, 800], "the window's size")
    }

    func testKiosk_whenTheInspectorShowsTheTree_thenItsScreenshotRouteAndPageShowAPNGOfTheWindow() throws {
        _ = try resolveExecutable("chromedriver")
        try start()
        try waitForReport("the login form") { $0["page"] == "form" && $0["event"] == "load" }
        let inspector = try InspectorProcess(socket: daemon.daemon.socketPath)
        let url = try XCTUnwrap(inspector.url.wholeMatch(of: /http:\/\/127\.0\.0\.1:([0-9]+)\/\?token=([0-9a-f]+)/), inspector.url)
        let deadline = Date().addingTimeInterval(20)
        var response = try HTTPTestConnection(port: Int(url.output.1)!).request("GET", "/screenshot?token=\(url.output.2)")
        // The kiosk reports its socket once it serves it.
        while response.status != 200, Date() < deadline {
            usleep(100_000)
            response = try HTTPTestConnection(port: Int(url.output.1)!).request("GET", "/screenshot?token=\(url.output.2)")
        }
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(response.header("Content-Type"), "image/png")
        XCTAssertEqual(Array(response.body.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        let size = stride(from: 16, to: 24, by: 4).map { response.body[$0..<$0 + 4].reduce(0) { $0 << 8 | Int($1) } }
        XCTAssertEqual(size, [1280, 800], "the window's size")
        let refused = try HTTPTestConnection(port: Int(url.output.1)!).request("GET", "/screenshot")
        XCTAssertEqual(refused.status, 403, "the token is needed as for every route")
        let script = Products.repository.appendingPathComponent("Tests/Browser/inspector_browser.py").path
        let page = try Command.run(
            Products.python.path, [script, "kiosk", "--url", inspector.url, "--width", "1280", "--height", "800"],
            environment: ["SE_OFFLINE": "true"])
        XCTAssertEqual(page.status, 0, page.stdout + page.stderr)
        XCTAssertTrue(page.stdout.hasSuffix("inspector kiosk check: passed\n"), page.stdout + page.stderr)
    }

    func testKiosk_whenNoKioskShowsTheTree_thenScreenshotSaysSo() throws {
        let daemon = try DaemonProcess()
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.stop(), 0) }
        let result = try Command.run(Products.appstatectl.path, ["--socket", daemon.socketPath, "screenshot", "-o", "/dev/null"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no appstate-kiosk shows the tree"), result.stderr)
        let inspector = try InspectorProcess(socket: daemon.socketPath)
        let url = try XCTUnwrap(inspector.url.wholeMatch(of: /http:\/\/127\.0\.0\.1:([0-9]+)\/\?token=([0-9a-f]+)/), inspector.url)
        let response = try HTTPTestConnection(port: Int(url.output.1)!).request("GET", "/screenshot?token=\(url.output.2)")
        XCTAssertEqual(response.status, 404, response.text)
        XCTAssertTrue(response.text.hasPrefix("no appstate-kiosk shows the tree"), response.text)
    }

    /// Waits until the mocked squeekboard's `SetVisible` was called with exactly these values.
    private func waitForSetVisibleCalls(_ expected: [String], timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var calls: [String] = []
        repeat {
            calls = try keyboard.setVisibleCalls()
            if calls == expected { return }
            usleep(20_000)
        } while Date() < deadline
        throw TestFailure("SetVisible was called with \(calls), not \(expected); appstate-kiosk said:\n\(kiosk.messages)")
    }
}
