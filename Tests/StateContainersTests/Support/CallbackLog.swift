import StateContainers

/// The shared, ordered record of every callback the ``LoggingController``s of one test received.
@MainActor final class CallbackLog {
    /// How the entries spell a callback.
    ///
    /// The contract tests, the containers' tests and the source-pattern tests share
    /// ``LoggingController`` but spell their expected logs each in its own way; each suite
    /// names its spelling here.
    enum Spelling {
        /// `child.willMove(parent)`, `child.viewWillAppear(false)`, `child.viewWillTransition(800x600)`.
        case plain
        /// As ``plain``, and every entry ends in ` movingTo=true` / ` movingFrom=true` exactly
        /// while `isMovingToParent` / `isMovingFromParent` is true, so that comparing a whole
        /// log also pins those flags to false everywhere else.
        case movement
        /// With the arguments' labels: `child.willMove(toParent: parent)`,
        /// `child.viewWillTransition(to: 800x600)`.
        case labelled
    }

    let spelling: Spelling
    private(set) var entries: [String] = []

    init(spelling: Spelling) {
        self.spelling = spelling
    }

    func append(_ entry: String) {
        entries.append(entry)
    }

    func removeAll() {
        entries.removeAll()
    }

    /// Returns the entries so far and starts a new log, so that a test checks one step at a time.
    func take() -> [String] {
        defer { entries = [] }
        return entries
    }

    /// Records `callback` of `controller` in this log's spelling.
    /// - Parameters:
    ///   - callback: The callback's name, e.g. `willMove`.
    ///   - argument: Its argument as text; nil for a callback without one (`viewDidLoad`).
    ///   - label: The argument's label, written only in the ``Spelling/labelled`` spelling.
    ///   - controller: The controller that received the callback.
    func record(_ callback: String, argument: String? = nil, label: String? = nil, of controller: Controller) {
        entries.append(
            entry(
                controller.identifier, callback, argument: argument, label: label,
                movingTo: controller.isMovingToParent, movingFrom: controller.isMovingFromParent
            ))
    }

    /// One entry in this log's spelling, as ``record(_:argument:label:of:)`` writes it and as
    /// the expected logs of ``CallbackLog`` spell it.
    func entry(
        _ identifier: String, _ callback: String, argument: String? = nil, label: String? = nil,
        movingTo: Bool = false, movingFrom: Bool = false
    ) -> String {
        var entry = "\(identifier).\(callback)"
        if let argument {
            let labelText = spelling == .labelled ? label.map { "\($0): " } ?? "" : ""
            entry += "(\(labelText)\(argument))"
        }
        if spelling == .movement {
            entry += (movingTo ? " movingTo=true" : "") + (movingFrom ? " movingFrom=true" : "")
        }
        return entry
    }
}
