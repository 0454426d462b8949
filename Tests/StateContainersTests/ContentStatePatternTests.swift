import AppStateCore
import StateContainers
import XCTest

/// The "content state" source pattern: a screen that does not handle loading and errors
/// itself, but embeds a state container and moves it through loading, failed and rendered
/// as its fetch progresses.
final class ContentStatePatternTests: ModelTestCase {
    /// A screen of the sample: it owns a state container and feeds it the fetch's outcome.
    private final class ActivityScreen: Controller {
        let stateController = ContentStateController(identifier: "state")
        var itemsLoaded: [String] = []

        override func viewDidLoad() {
            super.viewDidLoad()
            // As the sample does: add the state container like any child.
            try? embed(stateController)
        }

        override func viewWillLayoutSubviews() {
            super.viewWillLayoutSubviews()
            stateController.view.frame = view.bounds
        }

        func fetchStarted() throws {
            try stateController.transition(to: .loading)
        }

        func fetchFinished(_ result: Result<[String], FetchError>) throws {
            switch result {
            case .success(let items):
                itemsLoaded = items
                try stateController.transition(to: .render(Controller(identifier: "list", title: "\(items.count) items")))
            case .failure(let error):
                try stateController.transition(to: .failed(error.message))
            }
        }
    }

    private struct FetchError: Error {
        let message: String
    }

    func testContentState_movesThroughLoadingFailedAndRendered() async throws {
        let screen = ActivityScreen(identifier: "activity")
        show(screen)
        let state = screen.stateController

        // Nothing asked for yet: the container shows loading by itself.
        XCTAssertEqual(state.state, .loading)
        XCTAssertEqual(state.shownController?.identifier, "loading")
        XCTAssertEqual(state.shownController?.appearance, .appeared)

        try screen.fetchFinished(.failure(FetchError(message: "The network is unreachable")))
        XCTAssertEqual(state.state, .failed("The network is unreachable"))
        XCTAssertEqual(state.shownController?.identifier, "error")
        XCTAssertEqual(state.shownController?.title, "The network is unreachable")
        XCTAssertEqual(state.children.map(\.identifier), ["error"])

        // Retry.
        try screen.fetchStarted()
        XCTAssertEqual(state.shownController?.identifier, "loading")

        try screen.fetchFinished(.success(["a", "b", "c"]))
        let list = try XCTUnwrap(state.shownController)
        XCTAssertEqual(list.identifier, "list")
        XCTAssertEqual(list.title, "3 items")
        XCTAssertEqual(list.appearance, .appeared)
        XCTAssertEqual(list.view.frame, Rect(x: 0, y: 0, width: 1280, height: 800))
        XCTAssertEqual(state.children.map(\.identifier), ["list"])
        XCTAssertEqual(state.view.subviews.count, 1)

        let snapshot = screen.snapshot()
        XCTAssertEqual(snapshot.node(at: "activity/state")?.contentState, "render")
        XCTAssertEqual(snapshot.node(at: "activity/state")?.current, "list")
        XCTAssertEqual(state.deepestCurrent.path, "activity/state/list")
    }
}
