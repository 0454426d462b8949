import AppStateCore
import AppStateIPC
import AppStateKioskKit
import TestSupport
import XCTest

/// Which page, viewport and `<html>` properties a tree's state gives, and when a session ends.
final class KioskScreenTests: AppStateTestCase {
    private func node(
        _ path: String, _ type: String = "Controller", url: String? = nil, current: String? = nil, user: String? = nil,
        overlap: Double? = nil, onScreen: Bool = true, presented: Bool? = nil, inset: Double = 0, _ children: [Node] = []
    ) -> Node {
        Node(
            path: path, identifier: String(path.split(separator: "/").last ?? ""), type: type, url: url,
            frame: Rect(x: 0, y: 0, width: 1280, height: 800), contentInset: Insets(top: 0, left: 0, bottom: inset, right: 0),
            onScreen: onScreen, current: current, user: user, keyboardOverlap: overlap, presented: presented, children: children)
    }

    /// session (login state) → home (pages: overview, settings) | login (keyboard-aware → form).
    private func tree(user: String?, page: String = "overview", overlap: Double = 0, urls: [String: String] = [:]) -> Node {
        node(
            "session", "LoginStateController", url: urls["session"], current: user == nil ? "login" : "home", user: user,
            [
                node(
                    "session/login", "KeyboardAwareController", url: urls["login"], current: "form", overlap: overlap, onScreen: user == nil,
                    [node("session/login/form", url: urls["form"], onScreen: user == nil, inset: overlap)]),
                node(
                    "session/home", "PaginatedController", url: urls["home"], current: page, onScreen: user != nil,
                    [
                        node("session/home/overview", url: urls["overview"], onScreen: user != nil && page == "overview"),
                        node("session/home/settings", url: urls["settings"], onScreen: user != nil && page == "settings"),
                    ]),
            ])
    }

    func testURL_isTheDeepestCurrentNodesElseTheNearestAncestorsElseHome() {
        let urls = ["session": "https://k/", "home": "https://k/home", "settings": "https://k/settings"]
        XCTAssertEqual(KioskScreen(tree: tree(user: "ada", page: "settings", urls: urls), home: nil).url, "https://k/settings")
        XCTAssertEqual(KioskScreen(tree: tree(user: "ada", urls: urls), home: nil).url, "https://k/home", "overview has none: its parent's")
        XCTAssertEqual(KioskScreen(tree: tree(user: nil, urls: urls), home: nil).url, "https://k/", "login has none: the root's")
        XCTAssertEqual(KioskScreen(tree: tree(user: nil), home: "file:///srv/home.html").url, "file:///srv/home.html")
        XCTAssertNil(KioskScreen(tree: tree(user: nil), home: nil).url)
    }

    func testURL_whenTheRootPresentsAController_isThePresentedControllers() {
        var root = tree(user: "ada", urls: ["home": "https://k/home"])
        root.children.append(node("session/attract", url: "https://k/attract", presented: true))
        let screen = KioskScreen(tree: root, home: nil)
        XCTAssertEqual(screen.url, "https://k/attract")
        XCTAssertEqual(screen.current, "session/attract")
    }

    func testViewport_isTheWindowLessTheKeyboardOfAnOnScreenKeyboardAwareContainer() {
        let shown = KioskScreen(tree: tree(user: nil, overlap: 300), home: nil)
        XCTAssertEqual(shown.keyboardHeight, 300)
        XCTAssertEqual(shown.viewport, Size(width: 1280, height: 500))
        XCTAssertEqual(KioskScreen(tree: tree(user: nil), home: nil).viewport, Size(width: 1280, height: 800))
        var offScreen = tree(user: "ada")
        offScreen.children[0].keyboardOverlap = 300
        XCTAssertEqual(KioskScreen(tree: offScreen, home: nil).viewport.height, 800, "an off-screen container's overlap covers nothing")
    }

    func testDocumentProperties_areAppstateJSs() {
        let screen = KioskScreen(tree: tree(user: nil, overlap: 300), home: nil)
        let properties = Dictionary(uniqueKeysWithValues: screen.documentProperties.map { ($0.name, $0.value) })
        XCTAssertEqual(properties["data-appstate-current"], "session/login/form")
        XCTAssertEqual(properties["--appstate-keyboard-height"], "300px")
        XCTAssertEqual(properties["--appstate-inset-bottom"], "300px")
        XCTAssertEqual(properties["--appstate-width"], "1280px")
        XCTAssertEqual(properties["--appstate-height"], "800px")
    }

    func testEndsSession_whenTheUserLogsOutOrIsReplaced_butNotWhenTheScreenOnlyChanges() {
        let ada = KioskScreen(tree: tree(user: "ada"), home: nil)
        XCTAssertTrue(KioskScreen(tree: tree(user: nil), home: nil).endsSession(since: ada))
        XCTAssertTrue(KioskScreen(tree: tree(user: "grace"), home: nil).endsSession(since: ada))
        XCTAssertFalse(KioskScreen(tree: tree(user: "ada", page: "settings"), home: nil).endsSession(since: ada))
        XCTAssertFalse(ada.endsSession(since: KioskScreen(tree: tree(user: nil), home: nil)), "logging in ends nothing")
    }

    func testShowableURLs_areHTTPWithAHostAndFile() {
        for url in ["http://k/", "HTTPS://k.example:8443/a?b", "file:///srv/kiosk/index.html"] {
            XCTAssertTrue(KioskURL.isShowable(url), url)
        }
        for url in ["", "k.example", "javascript:alert(1)", "data:text/html,x", "http:", "http:///path", "https:k", "file:", "ftp://k/"] {
            XCTAssertFalse(KioskURL.isShowable(url), url)
        }
    }
}
