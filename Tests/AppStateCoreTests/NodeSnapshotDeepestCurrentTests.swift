import AppStateCore
import TestSupport
import XCTest

/// `deepestCurrentPath`: what `GetCurrent` without a path answers, through current children
/// and presented controllers.
final class NodeSnapshotDeepestCurrentTests: AppStateTestCase {
    /// `root` showing `home`, which shows `pages`; `home` has a second child `other`.
    private func tree(presenting presented: NodeSnapshot? = nil) -> NodeSnapshot {
        let home = NodeSnapshot(
            path: "root/home", identifier: "home", type: "T", current: "pages",
            children: [
                NodeSnapshot(path: "root/home/other", identifier: "other", type: "T"),
                NodeSnapshot(path: "root/home/pages", identifier: "pages", type: "T"),
            ])
        return NodeSnapshot(path: "root", identifier: "root", type: "T", current: "home", children: [home] + (presented.map { [$0] } ?? []))
    }

    func testDeepestCurrentPath_whenNothingIsPresented_thenFollowsTheCurrentChildren() {
        XCTAssertEqual(tree().deepestCurrentPath, "root/home/pages")
    }

    func testDeepestCurrentPath_whenAChildIsPresented_thenGoesThroughItRatherThanTheCurrentChild() {
        let attract = NodeSnapshot(
            path: "root/attract", identifier: "attract", type: "T", current: "one", presented: true,
            children: [NodeSnapshot(path: "root/attract/one", identifier: "one", type: "T")])

        XCTAssertEqual(tree(presenting: attract).deepestCurrentPath, "root/attract/one")
    }

    func testDeepestCurrentPath_whenTheLastChildIsNotMarkedPresented_thenFollowsTheCurrentChild() {
        let unmarked = NodeSnapshot(path: "root/extra", identifier: "extra", type: "T", presented: false)

        XCTAssertEqual(tree(presenting: unmarked).deepestCurrentPath, "root/home/pages")
    }
}
