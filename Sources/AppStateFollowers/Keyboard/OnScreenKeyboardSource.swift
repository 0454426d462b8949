/// Follows the on-screen keyboards on the session bus, for ``BusFollower``: squeekboard,
/// KWin's virtual keyboard and Onboard (``OnScreenKeyboardKind``), or the one
/// `--osk-source` pins. It follows one at a time: at a connection, of those that own their bus
/// name and declare their boolean property (introspected before use), one that is shown, else
/// the first in that order; then, as
/// `NameOwnerChanged` tells, a keyboard that appears (the session now uses it), or when the
/// followed one goes, another that is there, else none (a keyboard that quit is not on
/// screen). Each change of the followed keyboard's visibility is handed to `deliver`, and each
/// change of the keyboard followed to `following`, for the requests ``OnScreenKeyboard``
/// sends it. Only
/// signals from the followed keyboard's owner count. One that answers wrongly, or not in
/// time, is passed over: it is tried again when it signals a change of its property (a
/// service may take its name before its object is ready), when the followed keyboard goes,
/// and with the ``Backoff`` of reconnections while none is followed or, a few times, while it
/// is the one that appeared last.
final class OnScreenKeyboardSource: BusSource {
    let name = "osk"
    let bus = BusConnection.Kind.session
    let matchRules: [String]

    private let choice: OnScreenKeyboardChoice
    /// Each keyboard signals every change of its property: nothing to read again.
    let refreshInterval: Duration? = nil
    private let deliver: @Sendable (Bool) -> Void
    private let following: @Sendable (OnScreenKeyboardKind?) -> Void
    /// The unique name of each keyboard's connection, while it is on the bus.
    private var owners: [OnScreenKeyboardKind: String] = [:]
    /// Keyboards passed over, with the owner that failed and why.
    private var unusable: [OnScreenKeyboardKind: (owner: String, reason: String)] = [:]
    /// The keyboard followed, and what it said.
    private var current: OnScreenKeyboardState? {
        didSet {
            if current?.kind != oldValue?.kind { following(current?.kind) }
        }
    }
    private var delivered: Bool?
    /// A keyboard that appeared but was passed over: the session may be starting to use it,
    /// so it is tried again even while another is followed, at most ``newcomerTries`` times,
    /// since each try of one that does not answer holds the followed keyboard's signals for
    /// the call's timeout.
    private var newcomer: OnScreenKeyboardKind?
    private var newcomerTriesLeft = 0
    /// How often a newcomer is tried again while another keyboard is followed: the backoff's
    /// delays add up to some seconds by then.
    static let newcomerTries = 6
    private var retry = Backoff()
    private var nextRetry = ContinuousClock.now

    /// Creates the source.
    /// - Parameters:
    ///   - choice: The keyboards it may follow.
    ///   - following: Called on the follower's thread with the keyboard followed each time
    ///     another is, or nil when none is.
    ///   - deliver: Called on the follower's thread with each change of visibility.
    init(
        choice: OnScreenKeyboardChoice, following: @escaping @Sendable (OnScreenKeyboardKind?) -> Void = { _ in },
        deliver: @escaping @Sendable (Bool) -> Void
    ) {
        self.choice = choice
        self.following = following
        self.deliver = deliver
        matchRules = choice.kinds.flatMap { kind in
            var rules = [
                Self.ownerRule(of: kind.busName),
                "type='signal',interface='\(BusSignal.propertiesInterface)',member='PropertiesChanged',path='\(kind.objectPath)'",
            ]
            if let member = kind.changeSignal {
                rules.append("type='signal',interface='\(kind.interface)',member='\(member)',path='\(kind.objectPath)'")
            }
            return rules
        }
    }

    func resynchronize(on connection: BusConnection) throws(BusError) -> FollowerCondition {
        owners = [:]
        unusable = [:]
        current = nil
        let dbus = "org.freedesktop.DBus"
        for kind in choice.kinds {
            do throws(BusError) {
                let reply = try connection.call(dbus, "/org/freedesktop/DBus", dbus, "GetNameOwner", [kind.busName])
                owners[kind] = reply.first?.string
            } catch let error where error.code == .callFailed {
                // Not on the bus: NameOwnerChanged says when it arrives.
            }
        }
        return try choose(on: connection)
    }

    func handle(_ signals: [BusSignal], on connection: BusConnection) throws(BusError) -> FollowerCondition? {
        var condition: FollowerCondition?
        for signal in signals {
            if let (kind, newOwner) = ownerChange(in: signal) {
                owners[kind] = newOwner.isEmpty ? nil : newOwner
                if !newOwner.isEmpty {
                    condition = try choose(on: connection, preferring: kind)
                    newcomer = current?.kind == kind ? nil : kind
                    newcomerTriesLeft = Self.newcomerTries
                    retry.reset()
                    nextRetry = ContinuousClock.now + retry.nextDelay()
                } else if current?.kind == kind {
                    // Every keyboard still there gets a fresh look.
                    current = nil
                    unusable = [:]
                    condition = try choose(on: connection, after: kind)
                }
                continue
            }
            if let kind = passedOver(signalling: signal) {
                unusable[kind] = nil
                condition = try choose(on: connection, preferring: kind)
                if current?.kind == newcomer { newcomer = nil }
                continue
            }
            guard var state = current, let owner = owners[state.kind], signal.sender == owner else { continue }
            if state.apply(signal) == .readVisible {
                do throws(BusError) {
                    state.applyVisible(try read(state.kind, on: connection))
                } catch  where connection.isOpen {
                    // The keyboard could not say; what it said last stands.
                }
            }
            current = state
            if deliverIfChanged() { condition = following(state) }
        }
        return condition
    }

    func tryAgain(on connection: BusConnection) throws(BusError) -> FollowerCondition? {
        guard !unusable.isEmpty, ContinuousClock.now >= nextRetry else { return nil }
        nextRetry = ContinuousClock.now + retry.nextDelay()
        if current != nil {
            guard let newcomer, owners[newcomer] != nil, unusable[newcomer] != nil, newcomerTriesLeft > 0 else { return nil }
            newcomerTriesLeft -= 1
            unusable[newcomer] = nil
            let condition = try choose(on: connection, preferring: newcomer)
            if current?.kind == newcomer { self.newcomer = nil }
            return condition
        }
        unusable = [:]
        let condition = try choose(on: connection)
        if condition.isConnected { retry.reset() }
        return condition
    }

    /// The passed-over keyboard whose owner sent a change of its property that could make
    /// it usable: its property with a boolean value, or the property changed without a value.
    private func passedOver(signalling signal: BusSignal) -> OnScreenKeyboardKind? {
        guard let kind = unusable.first(where: { $0.value.owner == signal.sender && owners[$0.key] == signal.sender })?.key,
            signal.path == kind.objectPath
        else { return nil }
        if let member = kind.changeSignal, signal.interface == kind.interface, signal.member == member { return kind }
        guard let (changed, invalidated) = signal.changedProperties(of: kind.interface) else { return nil }
        return changed[kind.property]?.boolean != nil || invalidated.contains(kind.property) ? kind : nil
    }

    /// For `NameOwnerChanged` of one of the keyboards' names: which keyboard, and its new
    /// owner (empty when it left).
    private func ownerChange(in signal: BusSignal) -> (OnScreenKeyboardKind, String)? {
        for kind in choice.kinds {
            if let owner = Self.newOwner(of: kind.busName, in: signal) { return (kind, owner) }
        }
        return nil
    }

    /// Follows `preferred` if it is there and usable, else the first keyboard that is, else none.
    /// - Parameters:
    ///   - preferred: A keyboard that just appeared.
    ///   - left: A keyboard that just left, for the status.
    private func choose(
        on connection: BusConnection, preferring preferred: OnScreenKeyboardKind? = nil, after left: OnScreenKeyboardKind? = nil
    ) throws(BusError) -> FollowerCondition {
        let candidates = (preferred.map { [$0] } ?? []) + choice.kinds.filter { $0 != preferred }
        // Without a newcomer, a keyboard that is shown wins over the order of the list.
        var hidden: OnScreenKeyboardState?
        for kind in candidates {
            guard let owner = owners[kind], unusable[kind]?.owner != owner else { continue }
            if current?.kind == kind, kind != preferred, let current { return following(current) }
            do throws(BusError) {
                var state = OnScreenKeyboardState(kind)
                guard state.applyVisible(try use(kind, on: connection)) else {
                    throw BusError(.unexpectedReply, "\(kind.interface).\(kind.property) is not a boolean")
                }
                if kind == preferred || state.isVisible == true { return follow(state) }
                if hidden == nil { hidden = state }
            } catch  where connection.isOpen {
                unusable[kind] = (owner, error.description)
            }
        }
        if let hidden { return follow(hidden) }
        current = nil
        hide()
        return .disconnected(waiting(after: left))
    }

    private func follow(_ state: OnScreenKeyboardState) -> FollowerCondition {
        current = state
        deliverIfChanged()
        return following(state)
    }

    /// Introspects a keyboard's object, then reads its property.
    private func use(_ kind: OnScreenKeyboardKind, on connection: BusConnection) throws(BusError) -> BusValue {
        let reply = try connection.call(kind.busName, kind.objectPath, "org.freedesktop.DBus.Introspectable", "Introspect")
        // A variant property may hold the boolean too; the value read says.
        guard let xml = reply.first?.string,
            IntrospectionData.declares(xml, interface: kind.interface, property: kind.property, types: ["b", "v"])
        else {
            throw BusError(.unexpectedReply, "\(kind.busName) has no boolean \(kind.interface).\(kind.property) at \(kind.objectPath)")
        }
        return try read(kind, on: connection)
    }

    private func read(_ kind: OnScreenKeyboardKind, on connection: BusConnection) throws(BusError) -> BusValue {
        try connection.property(kind.busName, kind.objectPath, kind.interface, kind.property)
    }

    /// Why no keyboard is followed, and what the follower waits for.
    private func waiting(after left: OnScreenKeyboardKind?) -> String {
        let kinds = choice.kinds
        var detail: String
        if case .only(let kind) = choice, owners[kind] == nil {
            detail = "\(kind.busName) \(left == nil ? "is not on" : "left") the session bus; waiting for it"
        } else {
            let names = kinds.map(\.displayName)
            let awaited = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1] : names[0]
            detail =
                if let left {
                    "\(left.displayName) (\(left.busName)) left the session bus; waiting for \(awaited)"
                } else if kinds.contains(where: { owners[$0] != nil }) {
                    "no usable on-screen keyboard is on the session bus; waiting for \(awaited)"
                } else {
                    "no on-screen keyboard is on the session bus; waiting for \(awaited)"
                }
        }
        for kind in kinds {
            if let (owner, reason) = unusable[kind], owners[kind] == owner { detail += "; \(kind.displayName) is passed over: \(reason)" }
        }
        return detail
    }

    private func hide() {
        if delivered == true {
            delivered = false
            deliver(false)
        }
    }

    @discardableResult
    private func deliverIfChanged() -> Bool {
        guard let visible = current?.isVisible, visible != delivered else { return false }
        delivered = visible
        deliver(visible)
        return true
    }

    private func following(_ state: OnScreenKeyboardState) -> FollowerCondition {
        .following("\(state.kind.displayName): \(state.isVisible == true ? "keyboard shown" : "keyboard hidden")")
    }

    func refresh(on connection: BusConnection) throws(BusError) -> FollowerCondition? {
        nil
    }
}
