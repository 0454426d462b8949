/// Follows squeekboard's `sm.puri.OSK0` object on the session bus, for ``BusFollower``:
/// reads `Visible` on each connection and whenever the keyboard comes back on the bus, then
/// follows its `PropertiesChanged`, handing each change to `deliver`. Only signals from the
/// current owner of `sm.puri.OSK0` count.
final class OnScreenKeyboardSource: BusSource {
    let name = "osk"
    let bus = BusConnection.Kind.session
    let matchRules = [
        ownerRule(of: OnScreenKeyboardState.busName),
        "type='signal',interface='\(BusSignal.propertiesInterface)',member='PropertiesChanged',path='\(OnScreenKeyboardState.objectPath)'",
    ]

    /// squeekboard signals every change of `Visible`: nothing to read again.
    let refreshInterval: Duration? = nil
    private let deliver: @Sendable (Bool) -> Void
    private var state = OnScreenKeyboardState()
    private var owner: String?
    private var delivered: Bool?

    /// Creates the source.
    /// - Parameter deliver: Called on the follower's thread with each change of visibility.
    init(deliver: @escaping @Sendable (Bool) -> Void) {
        self.deliver = deliver
    }

    func resynchronize(on connection: BusConnection) throws(BusError) -> FollowerCondition {
        let dbus = "org.freedesktop.DBus"
        do throws(BusError) {
            let reply = try connection.call(dbus, "/org/freedesktop/DBus", dbus, "GetNameOwner", [OnScreenKeyboardState.busName])
            owner = reply.first?.string
        } catch let error where error.code == .callFailed {
            owner = nil
        }
        guard owner != nil else {
            hide()
            return .disconnected("\(OnScreenKeyboardState.busName) is not on the session bus; waiting for it")
        }
        let visible = try connection.property(
            OnScreenKeyboardState.busName, OnScreenKeyboardState.objectPath,
            OnScreenKeyboardState.interface, "Visible")
        guard state.applyVisible(visible) else {
            throw BusError(.unexpectedReply, "\(OnScreenKeyboardState.interface).Visible is not a boolean")
        }
        deliverIfChanged()
        return following()
    }

    func handle(_ signals: [BusSignal], on connection: BusConnection) throws(BusError) -> FollowerCondition? {
        var condition: FollowerCondition?
        for signal in signals {
            if let newOwner = Self.newOwner(of: OnScreenKeyboardState.busName, in: signal) {
                if newOwner.isEmpty {
                    owner = nil
                    // A keyboard that quit is not on screen.
                    hide()
                    condition = .disconnected("\(OnScreenKeyboardState.busName) left the session bus; waiting for it")
                } else {
                    condition = try resynchronize(on: connection)
                }
                continue
            }
            guard let owner, signal.sender == owner else { continue }
            if state.apply(signal) == .readVisible {
                let visible = try connection.property(
                    OnScreenKeyboardState.busName, OnScreenKeyboardState.objectPath,
                    OnScreenKeyboardState.interface, "Visible")
                state.applyVisible(visible)
            }
            if deliverIfChanged() { condition = following() }
        }
        return condition
    }

    private func hide() {
        state = OnScreenKeyboardState()
        if delivered == true {
            delivered = false
            deliver(false)
        }
    }

    @discardableResult
    private func deliverIfChanged() -> Bool {
        guard let visible = state.isVisible, visible != delivered else { return false }
        delivered = visible
        deliver(visible)
        return true
    }

    private func following() -> FollowerCondition {
        .following(state.isVisible == true ? "keyboard shown" : "keyboard hidden")
    }

    func refresh(on connection: BusConnection) throws(BusError) -> FollowerCondition? {
        nil
    }
}
