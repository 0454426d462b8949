/// Whether squeekboard's on-screen keyboard is shown, from its `sm.puri.OSK0` object's
/// `Visible` property: a pure value fed with what the session bus said.
package struct OnScreenKeyboardState: Hashable, Sendable {
    /// The keyboard's bus name.
    package static let busName = "sm.puri.OSK0"
    /// The keyboard's object.
    package static let objectPath = "/sm/puri/OSK0"
    /// The keyboard's interface.
    package static let interface = "sm.puri.OSK0"

    /// Whether the keyboard is visible; nil until it was read.
    package private(set) var isVisible: Bool?

    /// A keyboard not read yet.
    package init() {}

    /// Takes the `Visible` property as `Get` returned it.
    /// - Returns: Whether the value was a boolean and so taken.
    @discardableResult
    package mutating func applyVisible(_ value: BusValue) -> Bool {
        guard let visible = value.boolean else { return false }
        isVisible = visible
        return true
    }

    /// What taking a signal calls for next.
    package enum Outcome: Hashable, Sendable {
        /// The state took it.
        case applied
        /// The state does not take it, for the reason given (for the log).
        case ignored(String)
        /// `Visible` changed without its value: it must be read, with ``OnScreenKeyboardState/applyVisible(_:)``.
        case readVisible
    }

    /// Takes a `PropertiesChanged` signal of the keyboard's object.
    /// - Returns: What to do next.
    package mutating func apply(_ signal: BusSignal) -> Outcome {
        guard signal.path == Self.objectPath, let (changed, invalidated) = signal.changedProperties(of: Self.interface) else {
            return .ignored("\(signal.interface).\(signal.member) on \(signal.path) is not a change of \(Self.interface)")
        }
        if let value = changed["Visible"] {
            return applyVisible(value) ? .applied : .ignored("Visible had the wrong type")
        }
        return invalidated.contains("Visible") ? .readVisible : .applied
    }
}
