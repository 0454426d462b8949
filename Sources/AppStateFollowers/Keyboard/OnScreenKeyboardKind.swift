/// An on-screen keyboard the daemon can follow on the session bus, with the object and the
/// boolean property that say whether it is shown.
package enum OnScreenKeyboardKind: String, CaseIterable, Hashable, Sendable {
    /// squeekboard (Phosh): `sm.puri.OSK0.Visible`, with `PropertiesChanged`.
    case squeekboard
    /// KWin's virtual keyboard (Plasma): `org.kde.kwin.VirtualKeyboard.visible`, whose
    /// `visibleChanged` signal carries no value.
    case kwin
    /// Onboard: `org.onboard.Onboard.Keyboard.Visible`, with `PropertiesChanged`.
    case onboard

    /// The keyboard's bus name.
    package var busName: String {
        switch self {
        case .squeekboard: "sm.puri.OSK0"
        case .kwin: "org.kde.KWin"
        case .onboard: "org.onboard.Onboard"
        }
    }

    /// The object that has the property.
    package var objectPath: String {
        switch self {
        case .squeekboard: "/sm/puri/OSK0"
        case .kwin: "/VirtualKeyboard"
        case .onboard: "/org/onboard/Onboard/Keyboard"
        }
    }

    /// The property's interface.
    package var interface: String {
        switch self {
        case .squeekboard: "sm.puri.OSK0"
        case .kwin: "org.kde.kwin.VirtualKeyboard"
        case .onboard: "org.onboard.Onboard.Keyboard"
        }
    }

    /// The boolean property that says whether the keyboard is shown.
    package var property: String {
        switch self {
        case .squeekboard, .onboard: "Visible"
        case .kwin: "visible"
        }
    }

    /// The interface's own signal that the property changed, without its value; nil when
    /// `PropertiesChanged` alone says so.
    package var changeSignal: String? {
        self == .kwin ? "visibleChanged" : nil
    }

    /// For status and log: `squeekboard`, `KWin`, `Onboard`.
    package var displayName: String {
        switch self {
        case .squeekboard: "squeekboard"
        case .kwin: "KWin"
        case .onboard: "Onboard"
        }
    }
}
