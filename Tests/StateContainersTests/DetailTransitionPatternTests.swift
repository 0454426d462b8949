import StateContainers
import XCTest

/// The "present a new detail" source pattern: a container that replaces its detail
/// controller with a new one through `transition(from:to:duration:animations:completion:)`,
/// sending the containment calls around it as UIKit's sample code does.
final class DetailTransitionPatternTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .plain }

    /// The sample's container: it shows one detail at a time and cross-fades to the next.
    private final class DetailContainer: Controller {
        private(set) var detail: Controller
        let log: CallbackLog

        init(detail: Controller, log: CallbackLog) {
            self.detail = detail
            self.log = log
            super.init(identifier: "split")
        }

        override func viewDidLoad() {
            super.viewDidLoad()
            try? embed(detail)
        }

        func present(_ newDetail: Controller) throws {
            let oldDetail = detail
            oldDetail.willMove(toParent: nil)
            try addChild(newDetail)
            newDetail.view.frame = view.bounds
            try transition(
                from: oldDetail, to: newDetail, duration: .milliseconds(250),
                animations: {
                    self.log.append("animations")
                },
                completion: { finished in
                    self.log.append("completion(\(finished))")
                    oldDetail.removeFromParent()
                    newDetail.didMove(toParent: self)
                })
            detail = newDetail
        }
    }

    func testPresentingANewDetail_swapsWithAnAnimatedTransitionInTheContractOrder() async throws {
        let first = controller("first")
        let second = controller("second")
        let container = DetailContainer(detail: first, log: log)
        show(container)
        XCTAssertEqual(
            log.take(),
            [
                // The detail is embedded when the window loads the container's view, before it is visible.
                "first.willMove(split)", "first.viewDidLoad", "first.didMove(split)",
                "first.viewWillAppear(false)", "first.viewDidAppear(false)",
            ])

        try container.present(second)

        // Steps 1 to 4 happen at once; both views are in the container while it animates.
        XCTAssertEqual(log.take(), log.swapBeginning(from: "first", to: "second", in: "split", animated: true) + ["animations"])
        XCTAssertEqual(container.view.subviews.count, 2)
        XCTAssertEqual(first.appearance, .disappearing)
        XCTAssertEqual(second.appearance, .appearing)

        clock.advance(by: .milliseconds(249))
        XCTAssertEqual(log.take(), [])

        clock.advance(by: .milliseconds(1))

        // Steps 5 to 7 when the duration has passed on the window's clock.
        XCTAssertEqual(
            log.take(),
            [
                "first.viewDidDisappear(true)", "second.viewDidAppear(true)",
                "completion(true)",
                "first.didMove(nil)", "second.didMove(split)",
            ])
        XCTAssertEqual(container.children.map(\.identifier), ["second"])
        XCTAssertEqual(container.view.subviews.count, 1)
        XCTAssertTrue(container.view.subviews.first === second.view)
        XCTAssertNil(first.view.superview)
    }

    func testPresentingADetailNamedLikeTheShownOne_throwsAndLeavesTheDetail() async throws {
        let first = controller("first")
        let container = DetailContainer(detail: first, log: log)
        show(container)
        _ = log.take()

        // Two details with the same identifier cannot be siblings during the swap.
        assertThrows(.duplicateIdentifier) { try container.present(Controller(identifier: "first")) }
        XCTAssertTrue(container.detail === first)
        XCTAssertEqual(first.appearance, .appeared)
    }
}
