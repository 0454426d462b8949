import Glibc

/// Holds logind's idle inhibitor for the daemon while the host wants one
/// (``LogindIdleInhibitor``): `Inhibit("idle", "appstated", why, "block")` on the system bus
/// returns a file descriptor, and logind keeps the inhibitor until it is closed. Taken and
/// closed on the follower's thread, at most ``refreshInterval`` after the host asks; taken
/// again when logind comes back on the bus, since a new logind knows none of the old ones.
final class LogindInhibitorSource: BusSource {
    let name = "logind idle inhibitor"
    let bus = BusConnection.Kind.system
    let matchRules = [ownerRule(of: LogindSeatState.busName)]
    /// Each turn of the follower's loop: the host's wish is a lock away.
    let refreshInterval: Duration? = .zero

    private let wanted: LogindIdleInhibitor
    /// The descriptor held and the reason it was taken with.
    private var held: (descriptor: Int32, why: String)?
    /// The reason logind last refused, not asked again until the reason changes.
    private var refused: String?

    /// Creates the source.
    /// - Parameter wanted: What the host wants.
    init(wanted: LogindIdleInhibitor) {
        self.wanted = wanted
    }

    deinit {
        if let held { close(held.descriptor) }
    }

    func resynchronize(on connection: BusConnection) throws(BusError) -> FollowerCondition {
        release()
        refused = nil
        return try apply(on: connection)
    }

    func handle(_ signals: [BusSignal], on connection: BusConnection) throws(BusError) -> FollowerCondition? {
        var condition: FollowerCondition?
        for signal in signals {
            guard let owner = Self.newOwner(of: LogindSeatState.busName, in: signal) else { continue }
            // The inhibitors of a logind that left are gone with it.
            release()
            refused = nil
            condition = owner.isEmpty ? .disconnected("\(LogindSeatState.busName) left the system bus; waiting for it") : try apply(on: connection)
        }
        return condition
    }

    func refresh(on connection: BusConnection) throws(BusError) -> FollowerCondition? {
        let why = wanted.why
        guard (why == nil) != (held == nil), why == nil || why != refused else { return nil }
        return try apply(on: connection)
    }

    /// Takes the inhibitor or lets it go, as the host wants.
    private func apply(on connection: BusConnection) throws(BusError) -> FollowerCondition {
        guard let why = wanted.why else {
            release()
            return .following("holding no idle inhibitor")
        }
        if held == nil {
            do throws(BusError) {
                let descriptor = try connection.callReturningDescriptor(
                    LogindSeatState.busName, LogindSeatState.managerPath, LogindSeatState.managerInterface, "Inhibit",
                    ["idle", "appstated", why, "block"])
                held = (descriptor, why)
                refused = nil
            } catch let error where error.code == .callFailed || error.code == .unexpectedReply {
                refused = why
                return .disconnected("logind refused the idle inhibitor: \(error)")
            }
        }
        return .following("holding an idle inhibitor: \(held?.why ?? why)")
    }

    private func release() {
        guard let held else { return }
        close(held.descriptor)
        self.held = nil
    }
}
