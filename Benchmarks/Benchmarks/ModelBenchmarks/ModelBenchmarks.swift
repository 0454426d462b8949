import AppStateCore
import Benchmark
import BenchmarkSupport
import StateContainers

/// The model's figures of BENCHMARKS.md (tracked for regressions, without a target), each on a
/// visible 1280×800 window and with no animation, so that
/// every swap completes before the call returns.
let benchmarks: @Sendable () -> Void = {
    Benchmark.onMainActor("containment swap", operations: 100, makeFixture: SwapFixture.init) { fixture, operations in
        for _ in 0..<operations { try fixture.swap() }
    }
    Benchmark.onMainActor("page change", operations: 100, makeFixture: PageFixture.init) { fixture, operations in
        for _ in 0..<operations { try fixture.turn() }
    }
    Benchmark.onMainActor("keyboard show", operations: 100, makeFixture: KeyboardFixture.init) { fixture, operations in
        for _ in 0..<operations { fixture.show() }
    }
    Benchmark.onMainActor("snapshot default tree", operations: 100, makeFixture: DefaultTree.init) { tree, operations in
        for _ in 0..<operations { blackHole(tree.root.snapshot()) }
    }
    Benchmark.onMainActor("page turn published", operations: 100, makeFixture: PublishFixture.init) { fixture, operations in
        for _ in 0..<operations { blackHole(try fixture.turnAndPublish(reusing: true)) }
    }
    Benchmark.onMainActor("page turn published afresh", operations: 100, makeFixture: PublishFixture.init) { fixture, operations in
        for _ in 0..<operations { blackHole(try fixture.turnAndPublish(reusing: false)) }
    }
}

/// The screen the model benchmarks use.
let screen = Size(width: 1280, height: 800)

/// A content-state container in a visible window that swaps between two rendered children:
/// each swap is the full seven-step timeline of the containment contract (`willMove`,
/// `addChild`, the appearance callbacks of both, `removeFromParent`, `didMove`; see
/// `Sources/StateContainers/StateContainers.docc/ContainmentContract.md`).
@MainActor
final class SwapFixture {
    private let window = Window(size: screen)
    private let container = ContentStateController(identifier: "content")
    private let children = [Controller(identifier: "first"), Controller(identifier: "second")]
    private var shown = 0

    init() throws {
        window.rootController = container
        window.makeVisible()
        try container.transition(to: .render(children[shown]))
    }

    func swap() throws {
        shown = 1 - shown
        try container.transition(to: .render(children[shown]))
    }
}

/// A paginated container in a visible window that goes back and forth between two pages.
@MainActor
final class PageFixture {
    private let window = Window(size: screen)
    private let pages: PaginatedController

    init() throws {
        pages = try PaginatedController(
            identifier: "pages",
            pages: ["overview", "activity", "settings"].map { Controller(identifier: $0) }
        )
        window.rootController = pages
        window.makeVisible()
    }

    func turn() throws {
        try pages.setPage(1 - pages.currentIndex, animated: false)
    }
}

/// The default tree's pages turned back and forth, each turn followed by what the daemon does to
/// publish it: the tree's snapshot, taken reusing the last one or afresh, and what changed since
/// the last one, as the watchers' diff works it out.
@MainActor
final class PublishFixture {
    private let tree: DefaultTree
    private let pages: PaginatedController
    private var last: NodeSnapshot

    init() throws {
        tree = try DefaultTree()
        guard let pages = tree.root.descendant(at: "home/pages") as? PaginatedController else {
            throw FixtureError("the default tree has no paginated container at home/pages")
        }
        self.pages = pages
        last = tree.root.snapshot()
    }

    func turnAndPublish(reusing: Bool) throws -> NodeSnapshot.Changes {
        try pages.setPage(1 - pages.currentIndex, animated: false)
        let next = reusing ? tree.root.snapshot(reusing: last) : tree.root.snapshot()
        defer { last = next }
        return next.changes(since: last)
    }
}

/// A keyboard-aware container in a visible window whose bus announces an on-screen keyboard
/// sliding in, alternately 300 and 340 points high, so that every post changes the insets.
@MainActor
final class KeyboardFixture {
    private let window = Window(size: screen)
    private let container: KeyboardAwareController
    private let keyboards = [300.0, 340.0].map { height in
        KeyboardWillShow(
            frameBegin: Rect(x: 0, y: screen.height, width: screen.width, height: height),
            frameEnd: Rect(x: 0, y: screen.height - height, width: screen.width, height: height)
        )
    }
    private var shown = 0

    init() throws {
        container = try KeyboardAwareController(identifier: "login", content: Controller(identifier: "login-form"))
        window.rootController = container
        window.makeVisible()
        show()
        guard container.keyboardOverlap > 0 else { throw FixtureError("the keyboard did not reach the container") }
    }

    func show() {
        shown = 1 - shown
        window.bus.post(keyboards[shown])
    }
}
