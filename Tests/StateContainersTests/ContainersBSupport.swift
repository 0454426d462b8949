import AppStateCore
import StateContainers

/// The callbacks of several controllers, in the order they happened, as one list.
@MainActor final class ContainersBCallbackLog {
    private(set) var entries: [String] = []

    func record(_ entry: String) {
        entries.append(entry)
    }

    /// Returns the entries and starts a new list, so that a test checks one step at a time.
    func take() -> [String] {
        defer { entries = [] }
        return entries
    }
}

/// A controller that writes each lifecycle and containment callback to a log, e.g.
/// `home.willMove(session)`, `login.viewWillDisappear(true)`, `home.viewDidLoad`.
@MainActor class ContainersBLoggingController: Controller {
    let log: ContainersBCallbackLog

    init(_ identifier: String, log: ContainersBCallbackLog, title: String? = nil) {
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
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        log.record("\(identifier).viewDidAppear(\(animated))")
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        log.record("\(identifier).viewWillDisappear(\(animated))")
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        log.record("\(identifier).viewDidDisappear(\(animated))")
    }

    override func willMove(toParent parent: Controller?) {
        super.willMove(toParent: parent)
        log.record("\(identifier).willMove(\(parent?.identifier ?? "nil"))")
    }

    override func didMove(toParent parent: Controller?) {
        super.didMove(toParent: parent)
        log.record("\(identifier).didMove(\(parent?.identifier ?? "nil"))")
    }
}

/// A visible window of 1280×800 with a manual clock, hosting `root`.
@MainActor func containersBVisibleWindow(root: Controller, clock: ManualClock = ManualClock(), bus: NotificationBus = NotificationBus()) -> Window {
    let window = Window(size: Size(width: 1280, height: 800), bus: bus, clock: clock)
    window.rootController = root
    window.makeVisible()
    return window
}

/// Collects the containment warnings emitted while `body` runs.
@MainActor func containersBWarnings(during body: () throws -> Void) rethrows -> [ContainmentWarning] {
    let previous = ContainmentWarning.handler
    var warnings: [ContainmentWarning] = []
    ContainmentWarning.handler = { warnings.append($0) }
    defer { ContainmentWarning.handler = previous }
    try body()
    return warnings
}
