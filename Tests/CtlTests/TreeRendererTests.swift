import AppStateCtlKit
import AppStateIPC
import AppStateRendering
import TestSupport
import XCTest

final class TreeRendererTests: AppStateTestCase {
    func testPlainRenderingDrawsBranchesFramesInsetsAndCurrentChildren() {
        XCTAssertEqual(
            TreeRenderer().render(SampleTree.root),
            """
            session LoginStateController 1280×800+0+0, user ada
            ├── login KeyboardAwareController off screen
            │   └── login-form Controller off screen
            └── home MenuController "Home" 1280×800+0+0, menu hidden ◀ current
                ├── pages PaginatedController 1280×800+0+0, index 0 of 2 ◀ current
                │   ├── overview Controller 1280×800+0+0, inset bottom 336 ◀ current
                │   └── activity ContentStateController off screen, loading
                └── dashboard StackController off screen
                    └── map Controller off screen
            """)
    }

    func testPresentedController_isListedLastUnderItsPresenterAndMarked() {
        var root = SampleTree.root
        root.onScreen = false
        root.children[1].onScreen = false
        root.children[1].children = []
        root.children.append(
            Node(
                path: "session/screensaver", identifier: "screensaver", type: "Controller", appearance: .appeared,
                frame: SampleTree.window, onScreen: true, presented: true))

        XCTAssertEqual(
            TreeRenderer().render(root),
            """
            session LoginStateController off screen, user ada
            ├── login KeyboardAwareController off screen
            │   └── login-form Controller off screen
            ├── home MenuController "Home" off screen, menu hidden ◀ current
            └── screensaver Controller 1280×800+0+0 ▲ presented
            """)
    }

    func testANodesURLIsShownOnItsLineAfterItsState() {
        var root = SampleTree.root
        root.children[1].url = "https://kiosk.example/home"
        root.children[1].children[0].children[0].url = "file:///srv/kiosk/overview.html"
        root.children[0].url = "https://kiosk.example/login"

        XCTAssertEqual(
            TreeRenderer().render(root),
            """
            session LoginStateController 1280×800+0+0, user ada
            ├── login KeyboardAwareController off screen, url https://kiosk.example/login
            │   └── login-form Controller off screen
            └── home MenuController "Home" 1280×800+0+0, menu hidden, url https://kiosk.example/home ◀ current
                ├── pages PaginatedController 1280×800+0+0, index 0 of 2 ◀ current
                │   ├── overview Controller 1280×800+0+0, inset bottom 336, url file:///srv/kiosk/overview.html ◀ current
                │   └── activity ContentStateController off screen, loading
                └── dashboard StackController off screen
                    └── map Controller off screen
            """)
    }

    func testTheRootLineShowsTheOfflinePageAndBlankedAfterItsState() {
        var root = SampleTree.root
        root.children = []
        root.offline = "file:///srv/kiosk/offline.html"
        root.blanked = true

        XCTAssertEqual(
            TreeRenderer().render(root), "session LoginStateController 1280×800+0+0, user ada, offline file:///srv/kiosk/offline.html, blanked")
        let colored = TerminalStyle(isColored: true)
        XCTAssertTrue(
            TreeRenderer(style: colored).describe(root, isCurrent: false).contains(colored.yellow("blanked")), "blanked stands out in colour")
    }

    func testASingleNodeHasNoBranches() {
        let node = Node(path: "root", identifier: "root", type: "Controller", frame: SampleTree.window, onScreen: true)
        XCTAssertEqual(TreeRenderer().render(node), "root Controller 1280×800+0+0")
    }

    func testLoggedOutAndMidTransitionStatesAreSpelledOut() {
        let node = Node(
            path: "session", identifier: "session", type: "LoginStateController",
            appearance: .appearing, frame: SampleTree.window, onScreen: true, keyboardOverlap: 120.5
        )
        XCTAssertEqual(
            TreeRenderer().describe(node, isCurrent: false),
            "session LoginStateController 1280×800+0+0, logged out, keyboard overlap 120.5, appearing"
        )
    }

    func testColourHighlightsOnScreenPartsAndDimsOffScreenLinesAsAWhole() {
        let renderer = TreeRenderer(style: TerminalStyle(isColored: true))
        let overview = SampleTree.root.children[1].children[0].children[0]
        XCTAssertEqual(
            renderer.describe(overview, isCurrent: true),
            "\u{1B}[1moverview\u{1B}[0m \u{1B}[36mController\u{1B}[0m 1280×800+0+0, "
                + "\u{1B}[33minset bottom 336\u{1B}[0m \u{1B}[32m◀ current\u{1B}[0m"
        )
        let activity = SampleTree.root.children[1].children[0].children[1]
        XCTAssertEqual(
            renderer.describe(activity, isCurrent: false),
            "\u{1B}[2mactivity ContentStateController off screen, loading\u{1B}[0m"
        )
    }
}
