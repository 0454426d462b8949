/// Follows one seat of systemd-logind on the system bus, for ``BusFollower``: reads the
/// seat and its sessions whole on each connection and whenever logind comes back, keeps a
/// ``LogindSeatState`` up to date from logind's signals, and hands each new
/// ``DesiredSession`` to `deliver`, and each change of the active session's idleness to
/// `deliverIdle`. logind does not signal every change of `IdleSinceHint`, so the active
/// session is read again every ``refreshInterval``. Only signals from the current owner of
/// `org.freedesktop.login1` count: anyone on the bus may send a signal with logind's paths.
///
/// Seats come and go (a USB seat plugged in or out): a seat logind does not have is waited
/// for, and read when logind's `SeatNew` names it (and, should that signal be missed, again
/// with the ``Backoff`` of reconnections); `SeatRemoved` ends its sessions, so the tree is
/// logged out until the seat comes back.
final class LogindSource: BusSource {
    let name: String
    let bus = BusConnection.Kind.system
    let matchRules: [String]

    private let seat: String
    private let deliver: @Sendable (DesiredSession) -> Void
    private let deliverIdle: @Sendable (SessionIdle) -> Void
    private let locker: LogindSessionLocker?
    private var state: LogindSeatState?
    private var deliveredIdle: SessionIdle?
    let refreshInterval: Duration? = .seconds(5)
    /// The unique name of logind's connection; nil while logind is not on the bus.
    private var owner: String?
    private var delivered: DesiredSession?
    /// Why logind is there but the seat is not; nil while the seat is there.
    private var seatMissing: String?
    private var retry = Backoff()
    private var nextRetry = ContinuousClock.now

    /// Creates the source.
    /// - Parameters:
    ///   - seat: The seat's name, e.g. `seat0`.
    ///   - deliver: Called on the follower's thread with each new desired session.
    ///   - deliverIdle: Called on the follower's thread with each change of idleness.
    ///   - locker: Told which session is active, so that idle steps can have logind lock it.
    init(
        seat: String, deliver: @escaping @Sendable (DesiredSession) -> Void, deliverIdle: @escaping @Sendable (SessionIdle) -> Void,
        locker: LogindSessionLocker? = nil
    ) {
        self.locker = locker
        self.seat = seat
        self.name = "logind \(seat)"
        self.deliver = deliver
        self.deliverIdle = deliverIdle
        let path = "path_namespace='\(LogindSeatState.managerPath)'"
        matchRules = [
            Self.ownerRule(of: LogindSeatState.busName),
            "type='signal',interface='\(LogindSeatState.managerInterface)',\(path)",
            "type='signal',interface='\(LogindSeatState.sessionInterface)',\(path)",
            "type='signal',interface='\(BusSignal.propertiesInterface)',member='PropertiesChanged',\(path)",
        ]
    }

    func resynchronize(on connection: BusConnection) throws(BusError) -> FollowerCondition {
        let dbus = "org.freedesktop.DBus"
        let owner: String
        do throws(BusError) {
            let reply = try connection.call(dbus, "/org/freedesktop/DBus", dbus, "GetNameOwner", [LogindSeatState.busName])
            guard let name = reply.first?.string else { throw BusError(.unexpectedReply, "GetNameOwner did not return a name") }
            owner = name
        } catch let error where error.code == .callFailed {
            // Not on the bus (yet): NameOwnerChanged says when it arrives.
            self.owner = nil
            state = nil
            return .disconnected("\(LogindSeatState.busName) is not on the system bus; waiting for it")
        }
        self.owner = owner
        let manager = LogindSeatState.managerPath
        let seatReply: [BusValue]
        do throws(BusError) {
            seatReply = try connection.call(LogindSeatState.busName, manager, LogindSeatState.managerInterface, "GetSeat", [seat])
        } catch let error where error.code == .callFailed {
            // No such seat (yet): SeatNew says when it arrives.
            return seatIsGone("logind has no \(seat); waiting for it")
        }
        guard let seatPath = seatReply.first?.objectPath else { throw BusError(.unexpectedReply, "GetSeat did not return an object path") }
        var state = LogindSeatState(seatPath: seatPath)
        state.applySessionList(try connection.call(LogindSeatState.busName, manager, LogindSeatState.managerInterface, "ListSessions"))
        let active: BusValue
        do throws(BusError) {
            active = try connection.property(LogindSeatState.busName, seatPath, LogindSeatState.seatInterface, "ActiveSession")
        } catch let error where error.code == .callFailed {
            // The seat went between GetSeat and this read.
            return seatIsGone("logind has no \(seat); waiting for it")
        }
        seatMissing = nil
        retry.reset()
        if case .readSession(let path) = state.applyActiveSession(active) {
            try read(path, into: &state, on: connection)
        }
        self.state = state
        deliverIfChanged(force: true)
        return following(state)
    }

    func handle(_ signals: [BusSignal], on connection: BusConnection) throws(BusError) -> FollowerCondition? {
        var condition: FollowerCondition?
        for signal in signals {
            if let newOwner = Self.newOwner(of: LogindSeatState.busName, in: signal) {
                // logind left, or came back (restarted): what it says now is read whole.
                condition =
                    newOwner.isEmpty
                    ? .disconnected("\(LogindSeatState.busName) left the system bus; waiting for it")
                    : try resynchronize(on: connection)
                if newOwner.isEmpty {
                    owner = nil
                    state = nil
                    seatMissing = nil
                }
                continue
            }
            guard let owner, signal.sender == owner else { continue }
            if let added = seatChange(in: signal) {
                if added, state == nil {
                    condition = try resynchronize(on: connection)
                } else if !added, state != nil {
                    condition = seatIsGone("\(seat) was removed; waiting for it")
                }
                continue
            }
            guard var state else { continue }
            switch state.apply(signal) {
            case .applied, .ignored:
                break
            case .readSession(let path):
                try read(path, into: &state, on: connection)
            case .readSeat:
                let active = try connection.property(LogindSeatState.busName, state.seatPath, LogindSeatState.seatInterface, "ActiveSession")
                if case .readSession(let path) = state.applyActiveSession(active) {
                    try read(path, into: &state, on: connection)
                }
            }
            self.state = state
            if deliverIfChanged(force: false) { condition = following(state) }
        }
        return condition
    }

    /// For logind's `SeatNew` or `SeatRemoved` of the followed seat: whether it was added;
    /// nil for any other signal.
    private func seatChange(in signal: BusSignal) -> Bool? {
        guard signal.interface == LogindSeatState.managerInterface, signal.member == "SeatNew" || signal.member == "SeatRemoved",
            signal.arguments.first?.string == seat
        else { return nil }
        return signal.member == "SeatNew"
    }

    func tryAgain(on connection: BusConnection) throws(BusError) -> FollowerCondition? {
        guard seatMissing != nil, owner != nil, ContinuousClock.now >= nextRetry else { return nil }
        nextRetry = ContinuousClock.now + retry.nextDelay()
        return try resynchronize(on: connection)
    }

    /// The seat is not there: nobody is logged in on it, no session of it is active to lock,
    /// and none says it is idle. A seat already missing keeps the reason it went.
    private func seatIsGone(_ reason: String) -> FollowerCondition {
        state = nil
        let detail = seatMissing ?? reason
        seatMissing = detail
        locker?.record(activeSession: nil, seat: seat)
        if case .idle? = deliveredIdle {
            deliveredIdle = .active
            deliverIdle(.active)
        }
        if delivered != .loggedOut {
            delivered = .loggedOut
            deliver(.loggedOut)
        }
        return .disconnected(detail)
    }

    func refresh(on connection: BusConnection) throws(BusError) -> FollowerCondition? {
        guard var state, let path = state.activeSession else { return nil }
        try read(path, into: &state, on: connection)
        self.state = state
        return deliverIfChanged(force: false) ? following(state) : nil
    }

    /// Reads a session's properties. A session whose properties cannot be read (it ended in
    /// between, or the path never was a session) is no user session: the seat counts as
    /// logged out until logind says more.
    private func read(_ path: String, into state: inout LogindSeatState, on connection: BusConnection) throws(BusError) {
        do throws(BusError) {
            let properties = try connection.allProperties(LogindSeatState.busName, path, LogindSeatState.sessionInterface)
            state.applySessionProperties(properties, of: path)
        } catch let error where error.code == .callFailed || error.code == .unexpectedReply {
            state.applySessionProperties(["Class": .string("")], of: path)
        }
    }

    @discardableResult
    private func deliverIfChanged(force: Bool) -> Bool {
        locker?.record(activeSession: state?.activeSession, seat: seat)
        if let idle = state?.idle, force || idle != deliveredIdle {
            deliveredIdle = idle
            deliverIdle(idle)
        }
        guard let desired = state?.desired, force || desired != delivered else { return false }
        delivered = desired
        deliver(desired)
        return true
    }

    private func following(_ state: LogindSeatState) -> FollowerCondition {
        .following("following \(seat): \(state.desired?.description ?? "reading the active session")")
    }
}
