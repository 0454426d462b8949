import AppStateCore
import StateContainers

/// The callbacks the container tests of this file group observe, in the order they happen.
@MainActor
final class ContainersALog {
    private(set) var entries: [String] = []

    func record(_ entry: String) {
        entries.append(entry)
    }

    /// Returns the entries so far and starts a new log, so a test checks one step at a time.
    func take() -> [String] {
        defer { entries = [] }
        return entries
    }
}

/// A controller that writes every lifecycle and containment callback to a shared log as
/// `identifier.callback(argument)`, e.g. `detail.willMove(toParent: inbox)`.
class ContainersARecorder: Controller {
    let log: ContainersALog
    /// For each appearance callback, whether it came while moving to or from a parent:
    /// `viewWillAppear: toParent`, `viewDidDisappear: fromParent`, `viewWillAppear: -`.
    private(set) var movements: [String] = []

    init(_ identifier: String, title: String? = nil, log: ContainersALog) {
        self.log = log
        super.init(identifier: identifier, title: title)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        log.record("\(identifier).viewDidLoad")
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        log.record("\(identifier).viewWillAppear(\(animated))")
        recordMovement("viewWillAppear")
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        log.record("\(identifier).viewDidAppear(\(animated))")
        recordMovement("viewDidAppear")
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        log.record("\(identifier).viewWillDisappear(\(animated))")
        recordMovement("viewWillDisappear")
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        log.record("\(identifier).viewDidDisappear(\(animated))")
        recordMovement("viewDidDisappear")
    }

    private func recordMovement(_ callback: String) {
        movements.append("\(callback): \(isMovingToParent ? "toParent" : isMovingFromParent ? "fromParent" : "-")")
    }

    override func willMove(toParent parent: Controller?) {
        super.willMove(toParent: parent)
        log.record("\(identifier).willMove(toParent: \(parent?.identifier ?? "nil"))")
    }

    override func didMove(toParent parent: Controller?) {
        super.didMove(toParent: parent)
        log.record("\(identifier).didMove(toParent: \(parent?.identifier ?? "nil"))")
    }

    override func viewWillTransition(to size: Size) {
        super.viewWillTransition(to: size)
        log.record("\(identifier).viewWillTransition(to: \(Int(size.width))x\(Int(size.height)))")
    }
}

/// Whether the views installed in `container`'s view are exactly those of `expected`, in order.
@MainActor
func containersAInstalledViews(of container: Controller, are expected: [Controller]) -> Bool {
    container.view.subviews.count == expected.count && zip(container.view.subviews, expected).allSatisfy { $0 === $1.view }
}
