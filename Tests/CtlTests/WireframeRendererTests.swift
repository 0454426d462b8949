import AppStateCore
import AppStateCtlKit
import AppStateIPC
import AppStateRendering
import TestSupport
import XCTest

final class WireframeRendererTests: AppStateTestCase {
    private let window = SampleTree.window

    /// The default tree logged out, with a 320-point keyboard over the login form.
    private var loggedOutWithKeyboard: Node {
        Node(
            path: "session", identifier: "session", type: "LoginStateController", title: "Session",
            appearance: .appeared, frame: window, onScreen: true, current: "login",
            children: [
                Node(
                    path: "session/login", identifier: "login", type: "KeyboardAwareController", title: "Log in",
                    appearance: .appeared, frame: window, onScreen: true, current: "login-form", keyboardOverlap: 320,
                    children: [
                        Node(
                            path: "session/login/login-form", identifier: "login-form", type: "Controller", title: "Log in",
                            appearance: .appeared, frame: window, contentInset: Insets(top: 0, left: 0, bottom: 320, right: 0),
                            onScreen: true
                        )
                    ]
                ),
                Node(
                    path: "session/home", identifier: "home", type: "MenuController", title: "Pages", current: "pages",
                    children: [Node(path: "session/home/pages", identifier: "pages", type: "PaginatedController")]
                ),
            ]
        )
    }

    func testRender_whenTheSampleTree_thenWritesTheseExactBytes() {
        let svg = WireframeRenderer().render(SampleTree.root)
        XCTAssertEqual(
            svg,
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="1696" height="860" viewBox="0 0 1696 860" font-family="DejaVu Sans, Verdana, sans-serif" font-size="13" data-current-path="session/home/pages/overview">
            <rect width="1696" height="860" fill="#ffffff"/>
            <text x="16" y="26" font-size="15" font-weight="bold">current session/home/pages/overview</text>
            <g transform="translate(16 44)">
            <rect x="0" y="0" width="1280" height="800" fill="#f6f8fa" stroke="#57606a"/>
            <g data-path="session" data-type="LoginStateController" data-frame="0 0 1280 800" data-current="true">
            <rect x="0" y="0" width="1280" height="800" fill="none" stroke="#1f6feb" stroke-width="3"/>
            <text x="6" y="18" fill="#1f6feb" font-weight="bold">session LoginStateController 1280×800+0+0</text>
            </g>
            <g data-path="session/home" data-type="MenuController" data-frame="0 0 1280 800" data-current="true">
            <rect x="0" y="0" width="1280" height="800" fill="none" stroke="#1f6feb" stroke-width="3"/>
            <text x="6" y="36" fill="#1f6feb" font-weight="bold">home MenuController &quot;Home&quot; 1280×800+0+0</text>
            </g>
            <g data-path="session/home/pages" data-type="PaginatedController" data-frame="0 0 1280 800" data-current="true">
            <rect x="0" y="0" width="1280" height="800" fill="none" stroke="#1f6feb" stroke-width="3"/>
            <text x="6" y="54" fill="#1f6feb" font-weight="bold">pages PaginatedController 1280×800+0+0</text>
            </g>
            <g data-path="session/home/pages/overview" data-type="Controller" data-frame="0 0 1280 800" data-current="true">
            <rect data-inset="bottom" x="0" y="464" width="1280" height="336" fill="#f0a030" fill-opacity="0.3"/>
            <rect x="0" y="0" width="1280" height="800" fill="none" stroke="#1f6feb" stroke-width="3"/>
            <text x="6" y="72" fill="#1f6feb" font-weight="bold">overview Controller 1280×800+0+0, inset bottom 336</text>
            </g>
            </g>
            <g transform="translate(1320 44)">
            <text x="0" y="14" font-weight="bold">off screen</text>
            <text x="14" y="32" fill="#57606a" data-path="session/login" data-type="KeyboardAwareController" data-on-screen="false">login KeyboardAwareController</text>
            <text x="28" y="50" fill="#57606a" data-path="session/login/login-form" data-type="Controller" data-on-screen="false">login-form Controller</text>
            <text x="42" y="68" fill="#57606a" data-path="session/home/pages/activity" data-type="ContentStateController" data-on-screen="false">activity ContentStateController</text>
            <text x="28" y="86" fill="#57606a" data-path="session/home/dashboard" data-type="StackController" data-on-screen="false">dashboard StackController</text>
            <text x="42" y="104" fill="#57606a" data-path="session/home/dashboard/map" data-type="Controller" data-on-screen="false">map Controller</text>
            </g>
            </svg>

            """)
        XCTAssertEqual(WireframeRenderer().render(SampleTree.root), svg, "the same tree gives the same bytes")
    }

    func testRender_whenParsed_thenEveryOnScreenNodeIsDrawnOnceAndEveryOtherListedOnce() throws {
        let svg = try ParsedSVG(WireframeRenderer().render(loggedOutWithKeyboard))
        let drawn = svg.elements(with: "data-frame").filter { $0.attributes["data-path"] != nil }
        XCTAssertEqual(drawn.map { $0.attributes["data-path"] }, ["session", "session/login", "session/login/login-form"])
        XCTAssertTrue(drawn.allSatisfy { $0.name == "g" && $0.attributes["data-frame"] == "0 0 1280 800" })
        let listed = svg.elements(with: "data-on-screen")
        XCTAssertEqual(listed.map { $0.attributes["data-path"] }, ["session/home", "session/home/pages"])
        XCTAssertEqual(listed.map(\.text), ["home MenuController \"Pages\"", "pages PaginatedController ◀ current"])
        XCTAssertEqual(svg.elements.first?.attributes["data-current-path"], "session/login/login-form")
    }

    func testRender_whenTheKeyboardIsUp_thenDrawsItsRectangleAtTheBottomOfTheContainer() throws {
        let svg = try ParsedSVG(WireframeRenderer().render(loggedOutWithKeyboard))
        let keyboards = svg.elements(with: "data-keyboard")
        XCTAssertEqual(keyboards.count, 1)
        XCTAssertEqual(keyboards.first?.attributes["data-frame"], "0 480 1280 320")
        XCTAssertEqual(keyboards.first?.attributes["data-overlaps"], "session/login")
        let inset = try XCTUnwrap(svg.elements(with: "data-inset").first)
        XCTAssertEqual(inset.attributes["data-inset"], "bottom")
        XCTAssertEqual(
            [inset.attributes["x"], inset.attributes["y"], inset.attributes["width"], inset.attributes["height"]],
            ["0", "480", "1280", "320"])
    }

    func testRender_whenNoKeyboardOverlaps_thenDrawsNoKeyboard() throws {
        XCTAssertEqual(try ParsedSVG(WireframeRenderer().render(SampleTree.root)).elements(with: "data-keyboard").count, 0)
    }

    func testRender_whenAContentInsetHasEveryEdge_thenShadesFourStripsInsideTheFrame() throws {
        let node = Node(
            path: "root", identifier: "root", type: "Controller", appearance: .appeared,
            frame: Rect(x: 10, y: 20, width: 100, height: 200),
            contentInset: Insets(top: 5, left: 7, bottom: 500, right: 11), onScreen: true)
        let strips = try ParsedSVG(WireframeRenderer().render(node)).elements(with: "data-inset").map {
            [$0.attributes["data-inset"], $0.attributes["x"], $0.attributes["y"], $0.attributes["width"], $0.attributes["height"]]
        }
        // The bottom inset is larger than what the top leaves: it is clamped, and nothing is left between.
        XCTAssertEqual(strips, [["top", "10", "20", "100", "5"], ["bottom", "10", "25", "100", "195"]])
    }

    func testRender_whenOnlyTheCurrentPathIsMarked_thenDataCurrentIsExactlyItsNodes() throws {
        let svg = try ParsedSVG(WireframeRenderer().render(SampleTree.root))
        XCTAssertEqual(
            svg.elements(with: "data-current").map { $0.attributes["data-path"] },
            ["session", "session/home", "session/home/pages", "session/home/pages/overview"])
        XCTAssertTrue(svg.elements(with: "data-current").allSatisfy { $0.attributes["data-current"] == "true" })
    }

    func testRender_whenTitlesAndIdentifiersHoldMarkup_thenTheyAreEscapedAndReadBackAsWritten() throws {
        let title = "<b>Tom & \"Jerry\"</b> 'x' \u{1}"
        let node = Node(
            path: "a<&\">", identifier: "a<&\">", type: "Controller", title: title,
            appearance: .appeared, frame: window, onScreen: true,
            children: [Node(path: "a<&\">/b&", identifier: "b&", type: "Controller", title: title)])
        let text = WireframeRenderer().render(node)
        XCTAssertFalse(text.contains("<b>"))
        let svg = try ParsedSVG(text)
        XCTAssertEqual(svg.elements.first?.attributes["data-current-path"], "a<&\">")
        let drawn = try XCTUnwrap(svg.elements(with: "data-current").first)
        XCTAssertEqual(drawn.attributes["data-path"], "a<&\">")
        let label = try XCTUnwrap(svg.elements.first { $0.name == "text" && $0.text.hasPrefix("a<&") })
        XCTAssertEqual(label.text, "a<&\"> Controller \"<b>Tom & \"Jerry\"</b> 'x' \u{FFFD}\" 1280×800+0+0")
        XCTAssertEqual(svg.elements(with: "data-on-screen").first?.attributes["data-path"], "a<&\">/b&")
    }

    /// The sample tree with `notice` (holding `body`) presented over it; `over` keeps the tree
    /// underneath on screen, else it is off screen.
    private func presenting(over: Bool) -> Node {
        var root = SampleTree.root
        if !over {
            root.onScreen = false
            root.children[1].onScreen = false
            root.children[1].children = []
        }
        root.children.append(
            Node(
                path: "session/notice", identifier: "notice", type: "StackController", appearance: .appeared,
                frame: window, onScreen: true, presented: true,
                children: [
                    Node(path: "session/notice/body", identifier: "body", type: "Controller", appearance: .appeared, frame: window, onScreen: true)
                ]))
        return root
    }

    func testRender_whenAControllerIsPresentedOver_thenItsLayerIsDrawnLastOnABackdrop() throws {
        let svg = try ParsedSVG(WireframeRenderer().render(presenting(over: true)))

        let drawn = svg.elements.compactMap { $0.attributes["data-frame"] != nil ? $0.attributes["data-path"] : $0.attributes["data-backdrop"] }
        XCTAssertEqual(
            drawn,
            [
                "session/home", "session/home/pages", "session/home/pages/overview", "session",
                "session/notice", "session/notice/body", "session/notice",
            ],
            "the tree underneath, then the presented layer's backdrop, then its outlines (the current path last in each)")
        XCTAssertEqual(svg.elements(with: "data-presented").map { $0.attributes["data-path"] }, ["session/notice"])
        XCTAssertEqual(svg.elements.first?.attributes["data-current-path"], "session/notice")
        XCTAssertEqual(svg.elements(with: "data-current").map { $0.attributes["data-path"] }, ["session", "session/notice"])
        let label = try XCTUnwrap(svg.elements.first { $0.name == "text" && $0.text.hasPrefix("notice ") })
        XCTAssertEqual(label.text, "notice StackController ▲ presented 1280×800+0+0")
    }

    func testRender_whenAControllerIsPresentedFullScreen_thenTheWindowIsItsAndTheTreeUnderneathListed() throws {
        let svg = try ParsedSVG(WireframeRenderer().render(presenting(over: false)))

        XCTAssertEqual(svg.elements(with: "data-frame").compactMap { $0.attributes["data-path"] }, ["session/notice/body", "session/notice"])
        XCTAssertEqual(
            svg.elements(with: "data-on-screen").map { $0.attributes["data-path"] },
            ["session", "session/login", "session/login/login-form", "session/home"])
        let windowRect = try XCTUnwrap(svg.elements.first { $0.name == "rect" && $0.attributes["stroke"] == "#57606a" })
        XCTAssertEqual([windowRect.attributes["width"], windowRect.attributes["height"]], ["1280", "800"])
    }

    func testRender_whenTheRootIsOffScreen_thenDrawsAnEmptyWindowAndListsEveryNode() throws {
        let node = Node(
            path: "root", identifier: "root", type: "StackController",
            children: [Node(path: "root/a", identifier: "a", type: "Controller")])
        let svg = try ParsedSVG(WireframeRenderer().render(node))
        XCTAssertEqual(svg.elements(with: "data-frame").count, 0)
        XCTAssertEqual(svg.elements(with: "data-on-screen").map { $0.attributes["data-path"] }, ["root", "root/a"])
    }
}
