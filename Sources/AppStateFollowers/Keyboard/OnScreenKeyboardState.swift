/// Whether one on-screen keyboard is shown, from its boolean property (squeekboard's
/// `sm.puri.OSK0.Visible`, KWin's `org.kde.kwin.VirtualKeyboard.visible`, Onboard's
/// `org.onboard.Onboard.Keyboard.Visible`): a pure value fed with what the session bus said.
package struct OnScreenKeyboardState: Hashable, Sendable {
    /// The keyboard.
    package let kind: OnScreenKeyboardKind
    /// Whether the keyboard is visible; nil until it was read.
    package private(set) var isVisible: Bool?

    /// A keyboard not read yet.
    package init(_ kind: OnScreenKeyboardKind) {
        self.kind = kind
    }

    /// Takes the property as `Get` returned it.
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
        /// The property changed without its value: it must be read, with ``OnScreenKeyboardState/applyVisible(_:)``.
        case readVisible
    }

    /// Takes a signal of the keyboard's object: `PropertiesChanged`, or the interface's own
    /// signal that the property changed.
    /// - Returns: What to do next.
    package mutating func apply(_ signal: BusSignal) -> Outcome {
        guard signal.path == kind.objectPath else {
            return .ignored("\(signal.interface).\(signal.member) on \(signal.path) is not about \(kind.objectPath)")
        }
        if let member = kind.changeSignal, signal.interface == kind.interface, signal.member == member {
            return .readVisible
        }
        guard let (changed, invalidated) = signal.changedProperties(of: kind.interface) else {
            return .ignored("\(signal.interface).\(signal.member) on \(signal.path) is not a change of \(kind.interface)")
        }
        if let value = changed[kind.property] {
            return applyVisible(value) ? .applied : .ignored("\(kind.property) had the wrong type")
        }
        return invalidated.contains(kind.property) ? .readVisible : .applied
    }
}
