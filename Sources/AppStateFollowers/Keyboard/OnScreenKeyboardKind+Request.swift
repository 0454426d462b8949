extension OnScreenKeyboardKind {
    /// The call that asks the keyboard to slide in or out, on the object whose property the
    /// follower reads: squeekboard's `sm.puri.OSK0.SetVisible(b)`; KWin's
    /// `org.kde.kwin.VirtualKeyboard.active`, set through `org.freedesktop.DBus.Properties.Set`
    /// (its `visible` is read-only: `active` is what a text input sets); Onboard's
    /// `org.onboard.Onboard.Keyboard.Show()` or `Hide()`.
    /// - Parameter visible: True to show the keyboard, false to hide it.
    func visibilityRequest(_ visible: Bool) -> BusMethodCall {
        switch self {
        case .squeekboard:
            BusMethodCall(destination: busName, path: objectPath, interface: interface, member: "SetVisible", arguments: [.boolean(visible)])
        case .kwin:
            BusMethodCall(
                destination: busName, path: objectPath, interface: BusSignal.propertiesInterface, member: "Set",
                arguments: [.string(interface), .string("active"), .variant(.boolean(visible))])
        case .onboard:
            BusMethodCall(destination: busName, path: objectPath, interface: interface, member: visible ? "Show" : "Hide")
        }
    }
}
