import AppStateCore
import AppStateCtlKit
import AppStateIPC
import AppStateRendering
import TestSupport
import XCTest

/// A split container as `appstatectl tree` and `tree --svg` show it: both columns side by side
/// while expanded, the primary alone (the secondary listed off screen) while collapsed.
final class SplitRenderingTests: AppStateTestCase {
    private func split(width: Double, collapsed: Bool) -> Node {
        let window = Rect(x: 0, y: 0, width: width, height: 800)
        let primary = collapsed ? window : Rect(x: 0, y: 0, width: width * 0.4, height: 800)
        return Node(
            path: "mail", identifier: "mail", type: "SplitController", appearance: .appeared, frame: window, onScreen: true,
            current: collapsed ? "list" : nil, collapsed: collapsed,
            children: [
                Node(path: "mail/list", identifier: "list", type: "Controller", appearance: .appeared, frame: primary, onScreen: true),
                collapsed
                    ? Node(
                        path: "mail/detail", identifier: "detail", type: "Controller",
                        frame: Rect(x: width * 0.4, y: 0, width: width * 0.6, height: 800))
                    : Node(
                        path: "mail/detail", identifier: "detail", type: "Controller", appearance: .appeared,
                        frame: Rect(x: width * 0.4, y: 0, width: width * 0.6, height: 800), onScreen: true),
            ]
        )
    }

    func testTree_whenExpanded_thenBothColumnsWithTheirFrames() {
        XCTAssertEqual(
            TreeRenderer().render(split(width: 1280, collapsed: false)),
            """
            mail SplitController 1280×800+0+0, expanded
            ├── list Controller 512×800+0+0
            └── detail Controller 768×800+512+0
            """)
    }

    func testTree_whenCollapsed_thenThePrimaryIsCurrentAndTheSecondaryOffScreen() {
        XCTAssertEqual(
            TreeRenderer().render(split(width: 600, collapsed: true)),
            """
            mail SplitController 600×800+0+0, collapsed
            ├── list Controller 600×800+0+0 ◀ current
            └── detail Controller off screen
            """)
    }

    func testSVG_whenExpanded_thenDrawsBothColumnsSideBySide() throws {
        let svg = try ParsedSVG(WireframeRenderer().render(split(width: 1280, collapsed: false)))

        let drawn = svg.elements(with: "data-frame").map { [$0.attributes["data-path"] ?? "", $0.attributes["data-frame"] ?? ""] }
        // The current path (the split alone, as neither column is current) is drawn last.
        XCTAssertEqual(drawn, [["mail/list", "0 0 512 800"], ["mail/detail", "512 0 768 800"], ["mail", "0 0 1280 800"]])
        XCTAssertEqual(svg.elements(with: "data-on-screen").count, 0)
    }

    func testSVG_whenCollapsed_thenDrawsThePrimaryAndListsTheSecondaryOffScreen() throws {
        let svg = try ParsedSVG(WireframeRenderer().render(split(width: 600, collapsed: true)))

        XCTAssertEqual(svg.elements(with: "data-frame").map { $0.attributes["data-path"] ?? "" }, ["mail", "mail/list"])
        XCTAssertEqual(svg.elements(with: "data-on-screen").map { $0.attributes["data-path"] ?? "" }, ["mail/detail"])
        XCTAssertEqual(svg.elements.first?.attributes["data-current-path"], "mail/list")
    }
}
