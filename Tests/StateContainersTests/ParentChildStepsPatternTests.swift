import StateContainers
import XCTest

/// The "add and remove a child" source pattern: the three steps that add a child
/// (`addChild`, `addSubview`, `didMove`) and the three that remove it (`willMove(nil)`,
/// `removeFromSuperview`, `removeFromParent`), with the callbacks each one causes.
final class ParentChildStepsPatternTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .plain }

    /// A `parent` shown in a visible window and a `child` not yet added, the log cleared.
    private func showParentAndChild() -> (parent: LoggingController, child: LoggingController) {
        let parent = controller("parent")
        show(parent)
        _ = log.take()
        return (parent, controller("child"))
    }

    func testAddingAndRemovingAChild_onScreen_sendsTheCallbacksOfEachStep() async throws {
        let (parent, child) = showParentAndChild()

        try parent.addChild(child)
        XCTAssertEqual(log.take(), ["child.willMove(parent)"])
        XCTAssertTrue(child.parent === parent)
        XCTAssertFalse(child.isViewLoaded)

        child.view.frame = parent.view.bounds
        XCTAssertEqual(log.take(), ["child.viewDidLoad"])

        parent.view.addSubview(child.view)
        XCTAssertEqual(log.take(), ["child.viewWillAppear(false)", "child.viewDidAppear(false)"])

        child.didMove(toParent: parent)
        XCTAssertEqual(log.take(), ["child.didMove(parent)"])

        child.willMove(toParent: nil)
        XCTAssertEqual(log.take(), ["child.willMove(nil)"])

        child.view.removeFromSuperview()
        XCTAssertEqual(log.take(), ["child.viewWillDisappear(false)", "child.viewDidDisappear(false)"])

        child.removeFromParent()
        XCTAssertEqual(log.take(), ["child.didMove(nil)"])
        XCTAssertNil(child.parent)
        XCTAssertEqual(parent.children.count, 0)
    }

    func testAddingAChild_offScreen_defersAppearanceUntilTheParentAppears() async throws {
        let parent = controller("parent")
        let child = controller("child")

        try parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        XCTAssertEqual(log.take(), ["child.willMove(parent)", "parent.viewDidLoad", "child.viewDidLoad", "child.didMove(parent)"])

        show(parent)
        XCTAssertEqual(log.take(), log.appearing("parent", "child"))
    }

    func testEmbedAndUnembed_sendTheSameCallbacksAsTheThreeSteps() async throws {
        let (parent, child) = showParentAndChild()

        try parent.embed(child)
        XCTAssertEqual(log.take(), log.embedding("child", in: "parent", loadingView: true))

        child.unembed()
        XCTAssertEqual(log.take(), log.unembedding("child"))
    }
}
