import AppStateCore
import StateContainers

/// A controller that records each lifecycle and containment callback into a shared
/// ``CallbackLog``, as `"<identifier>.<callback>(<argument>)"` in the log's spelling.
///
/// The one recorder of the model's tests: the contract tests, the containers' tests and the
/// source-pattern tests all observe the same callbacks, so they share it, with the hooks and
/// the layout switches that some of them need.
@MainActor class LoggingController: Controller {
    let log: CallbackLog

    /// Runs after the entry of each callback is recorded, with the callback's name
    /// (`"viewWillAppear"`, `"willMove"`, …): lets a test act or inspect from inside one.
    var hook: ((LoggingController, String) -> Void)?

    /// Overrides ``Controller/shouldAutomaticallyForwardAppearanceMethods``.
    var forwardsAppearance = true

    /// When set, every child gets this size from `size(forChildContentContainer:withParentContainerSize:)`.
    var fixedChildSize: Size?

    /// When true, `viewWillLayoutSubviews` makes every installed child's view fill this view's bounds.
    var layoutChildrenToFill = false

    /// For each appearance callback, whether it came while moving to or from a parent:
    /// `viewWillAppear: toParent`, `viewDidDisappear: fromParent`, `viewWillAppear: -`.
    private(set) var movements: [String] = []

    init(_ identifier: String, log: CallbackLog, title: String? = nil) {
        self.log = log
        super.init(identifier: identifier, title: title)
    }

    override var shouldAutomaticallyForwardAppearanceMethods: Bool { forwardsAppearance }

    override func viewDidLoad() {
        super.viewDidLoad()
        record("viewDidLoad")
    }

    override func viewWillAppear(_ animated: Bool) { recordAppearance("viewWillAppear", animated, after: super.viewWillAppear) }
    override func viewDidAppear(_ animated: Bool) { recordAppearance("viewDidAppear", animated, after: super.viewDidAppear) }
    override func viewWillDisappear(_ animated: Bool) { recordAppearance("viewWillDisappear", animated, after: super.viewWillDisappear) }
    override func viewDidDisappear(_ animated: Bool) { recordAppearance("viewDidDisappear", animated, after: super.viewDidDisappear) }

    override func willMove(toParent parent: Controller?) {
        super.willMove(toParent: parent)
        record("willMove", argument: parent?.identifier ?? "nil", label: "toParent")
    }

    override func didMove(toParent parent: Controller?) {
        super.didMove(toParent: parent)
        record("didMove", argument: parent?.identifier ?? "nil", label: "toParent")
    }

    override func viewWillTransition(to size: Size) {
        record("viewWillTransition", argument: size.logText, label: "to")
        super.viewWillTransition(to: size)
    }

    override func size(forChildContentContainer child: Controller, withParentContainerSize parentSize: Size) -> Size {
        fixedChildSize ?? super.size(forChildContentContainer: child, withParentContainerSize: parentSize)
    }

    override func viewWillLayoutSubviews() {
        super.viewWillLayoutSubviews()
        guard layoutChildrenToFill else { return }
        for child in children where child.isViewLoaded && child.view.superview === view {
            child.view.frame = view.bounds
        }
    }

    /// Runs the controller's own handling of an appearance callback, then records the callback
    /// and whether it came while moving to or from a parent.
    private func recordAppearance(_ callback: String, _ animated: Bool, after handle: (Bool) -> Void) {
        handle(animated)
        movements.append("\(callback): \(isMovingToParent ? "toParent" : isMovingFromParent ? "fromParent" : "-")")
        record(callback, argument: "\(animated)")
    }

    private func record(_ callback: String, argument: String? = nil, label: String? = nil) {
        log.record(callback, argument: argument, label: label, of: self)
        hook?(self, callback)
    }
}
