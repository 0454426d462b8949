/// What a ``BusFollower`` follows on a bus: a service it reads whole when it connects and
/// then keeps up with from signals. Its methods run on the follower's thread only.
protocol BusSource: AnyObject {
    /// The follower's name in `GetStats` and the log, e.g. `logind seat0`.
    var name: String { get }
    /// The bus the service is on.
    var bus: BusConnection.Kind { get }
    /// The match rules of the signals it follows, installed on each new connection before
    /// the state is read, so that no change between the read and the rules is missed.
    var matchRules: [String] { get }

    /// Reads the service's whole state again: on a new connection, and when the service
    /// comes back on the bus.
    /// - Returns: Where the follower stands: following, or waiting for a service that is
    ///   not on the bus (its `NameOwnerChanged` signal says when it arrives).
    /// - Throws: ``BusError`` when the connection fails.
    func resynchronize(on connection: BusConnection) throws(BusError) -> FollowerCondition

    /// Takes the signals that arrived.
    /// - Parameters:
    ///   - signals: The signals, in order.
    ///   - connection: The connection, for the reads they call for.
    /// - Returns: Where the follower stands now, when that changed.
    /// - Throws: ``BusError`` when the connection fails.
    func handle(_ signals: [BusSignal], on connection: BusConnection) throws(BusError) -> FollowerCondition?

    /// Called whenever the follower found nothing more to dispatch, at least every
    /// ``BusFollower/stopLatency``: for a source that tries again what failed.
    /// - Returns: Where the follower stands now, when that changed.
    /// - Throws: ``BusError`` when the connection fails.
    func tryAgain(on connection: BusConnection) throws(BusError) -> FollowerCondition?

    /// How often to ``refresh(on:)`` while following; nil for never.
    var refreshInterval: Duration? { get }

    /// Reads again what the service does not signal, or carries out what was asked of the
    /// source meanwhile.
    /// - Parameter connection: The connection.
    /// - Returns: Where the follower stands now, when that changed.
    /// - Throws: ``BusError`` when the connection fails.
    func refresh(on connection: BusConnection) throws(BusError) -> FollowerCondition?
}

extension BusSource {
    /// Nothing to try again.
    func tryAgain(on connection: BusConnection) throws(BusError) -> FollowerCondition? { nil }

    /// The rule for `NameOwnerChanged` of one bus name: how a follower learns that its
    /// service left the bus or came back (a restart of logind, squeekboard started late).
    /// - Parameter name: The service's bus name.
    static func ownerRule(of name: String) -> String {
        "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
    }

    /// For a `NameOwnerChanged` signal of `name` from the bus itself: the new owner (empty
    /// when the name was released); nil for any other signal.
    static func newOwner(of name: String, in signal: BusSignal) -> String? {
        guard signal.sender == "org.freedesktop.DBus", signal.interface == "org.freedesktop.DBus", signal.member == "NameOwnerChanged",
            signal.arguments.count == 3, signal.arguments[0].string == name
        else { return nil }
        return signal.arguments[2].string
    }
}
