/// What logind says about one seat, reduced to what a login-state container shows: a pure
/// value that takes logind's properties and signals, already read from the bus but not yet
/// trusted, and answers the ``desired`` session. The rules are those GDM, GNOME Shell and
/// swayidle read logind by:
///
/// - someone is logged in when the seat's `ActiveSession` is set and that session's `Class`
///   is `user`; a `greeter` or `lock-screen` session, or none, means logged out;
/// - the user is the session's `Name`; another active session of another user is a switch;
/// - the session is locked while its `LockedHint` is true, and the `Lock` and `Unlock`
///   signals lock and unlock it at once (lockers such as swaylock never set the hint);
/// - the session is idle while its `IdleHint` is true, since its `IdleSinceHintMonotonic`.
///
/// Sessions are known by the object paths logind gives (`ListSessions`, `SessionNew`, the
/// seat's `ActiveSession`), never built from an id: logind escapes them
/// (`/org/freedesktop/login1/session/_33` for session 3). A value of the wrong type, a
/// signal about a session it does not know or a signal of another shape changes nothing.
package struct LogindSeatState: Hashable, Sendable {
    /// What is known of one session.
    package struct Session: Hashable, Sendable {
        /// The user's name (`Name`), once read.
        package var user: String?
        /// The session's class (`Class`: `user`, `greeter`, `lock-screen`, …), once read.
        package var sessionClass: String?
        /// Whether it is locked, by `LockedHint` or by the last `Lock`/`Unlock` signal.
        package var locked = false
        /// Whether its properties were read since it became known.
        package var isRead = false
        /// Whether it is idle (`IdleHint`).
        package var idle = false
        /// Since when, on `CLOCK_MONOTONIC` in microseconds (`IdleSinceHintMonotonic`); 0
        /// when logind does not say.
        package var idleSince: UInt64 = 0

        /// An unread session.
        package init() {}
    }

    /// What applying something from the bus calls for next.
    package enum Outcome: Hashable, Sendable {
        /// The state took it; ``LogindSeatState/desired`` may have changed.
        case applied
        /// The state does not take it, for the reason given (for the log).
        case ignored(String)
        /// The properties of the session at this path must be read, with
        /// ``LogindSeatState/applySessionProperties(_:of:)``.
        case readSession(String)
        /// The seat's `ActiveSession` must be read again, with ``LogindSeatState/applyActiveSession(_:)``.
        case readSeat
    }

    /// logind's bus name.
    package static let busName = "org.freedesktop.login1"
    /// The Manager's object and interface.
    package static let managerPath = "/org/freedesktop/login1"
    /// The Manager's interface, which sends `SessionNew` and `SessionRemoved`.
    package static let managerInterface = "org.freedesktop.login1.Manager"
    /// A seat's interface.
    package static let seatInterface = "org.freedesktop.login1.Seat"
    /// A session's interface, which sends `Lock` and `Unlock`.
    package static let sessionInterface = "org.freedesktop.login1.Session"
    /// The session properties the state reads.
    static let sessionProperties: Set<String> = ["Name", "Class", "LockedHint", "IdleHint", "IdleSinceHintMonotonic"]
    /// The most sessions remembered: logind's own default limit (`SessionsMax=8192`).
    package static let maximumSessions = 8192

    /// The seat's object path, as `GetSeat` returned it.
    package let seatPath: String
    /// The object path of the seat's active session; nil when it has none.
    package private(set) var activeSession: String?
    /// The sessions logind told of, by object path.
    package private(set) var sessions: [String: Session] = [:]

    /// A seat with no active session and no sessions known.
    /// - Parameter seatPath: The seat's object path.
    package init(seatPath: String) {
        self.seatPath = seatPath
    }

    /// What the login container should show now; nil while the active session's properties
    /// have not been read (nothing should change until they are).
    package var desired: DesiredSession? {
        guard let activeSession else { return .loggedOut }
        guard let session = sessions[activeSession], session.isRead else { return nil }
        guard session.sessionClass == "user", let user = session.user, !user.isEmpty else { return .loggedOut }
        return .loggedIn(user: user, locked: session.locked)
    }

    /// Whether the active session is idle, and since when; nil while it has not been read.
    /// A seat without an active session is not idle: no session says it is.
    package var idle: SessionIdle? {
        guard let activeSession else { return .active }
        guard let session = sessions[activeSession], session.isRead else { return nil }
        return session.idle ? .idle(sinceMonotonicMicroseconds: session.idleSince) : .active
    }

    /// Takes the sessions `ListSessions` returned (`a(susso)`), forgetting any others.
    /// - Parameter reply: The reply's values.
    /// - Returns: ``Outcome/ignored(_:)`` for a reply of another shape.
    @discardableResult
    package mutating func applySessionList(_ reply: [BusValue]) -> Outcome {
        guard reply.count == 1, let entries = reply[0].array else { return .ignored("ListSessions did not return a(susso)") }
        var paths: [String] = []
        for entry in entries.prefix(Self.maximumSessions) {
            guard let members = entry.structure, members.count == 5, let path = members[4].objectPath else {
                return .ignored("ListSessions did not return a(susso)")
            }
            paths.append(path)
        }
        sessions = Dictionary(paths.map { ($0, sessions[$0] ?? Session()) }) { first, _ in first }
        return .applied
    }

    /// Takes the seat's `ActiveSession` (`(so)`); an empty id or the path `/` means none.
    /// - Returns: ``Outcome/readSession(_:)`` when the new active session has not been read.
    @discardableResult
    package mutating func applyActiveSession(_ value: BusValue) -> Outcome {
        guard let members = value.structure, members.count == 2, let id = members[0].string, let path = members[1].objectPath else {
            return .ignored("ActiveSession is not (so)")
        }
        guard !id.isEmpty, path != "/" else {
            activeSession = nil
            return .applied
        }
        activeSession = path
        if sessions[path] == nil {
            guard sessions.count < Self.maximumSessions else { return .ignored("more than \(Self.maximumSessions) sessions") }
            sessions[path] = Session()
        }
        return sessions[path]?.isRead == true ? .applied : .readSession(path)
    }

    /// Takes the properties of a session, as `GetAll` or `PropertiesChanged` gave them;
    /// properties of the wrong type are left as they were.
    /// - Parameters:
    ///   - properties: Property values by name (`Name`, `Class`, `LockedHint`, `IdleHint`,
    ///     `IdleSinceHintMonotonic`; others are ignored).
    ///   - path: The session's object path.
    /// - Returns: ``Outcome/ignored(_:)`` for a session not known.
    @discardableResult
    package mutating func applySessionProperties(_ properties: [String: BusValue], of path: String) -> Outcome {
        guard var session = sessions[path] else { return .ignored("no session \(path) is known") }
        var wrong: [String] = []
        if let value = properties["Name"] {
            if let user = value.string { session.user = user } else { wrong.append("Name") }
        }
        if let value = properties["Class"] {
            if let sessionClass = value.string { session.sessionClass = sessionClass } else { wrong.append("Class") }
        }
        if let value = properties["LockedHint"] {
            if let locked = value.boolean { session.locked = locked } else { wrong.append("LockedHint") }
        }
        if let value = properties["IdleHint"] {
            if let idle = value.boolean { session.idle = idle } else { wrong.append("IdleHint") }
        }
        if let value = properties["IdleSinceHintMonotonic"] {
            if let since = value.unsigned { session.idleSince = since } else { wrong.append("IdleSinceHintMonotonic") }
        }
        session.isRead = true
        sessions[path] = session
        return wrong.isEmpty ? .applied : .ignored("\(wrong.joined(separator: ", ")) of \(path) had the wrong type")
    }

    /// Takes a signal from logind (the caller checked that logind sent it).
    /// - Parameter signal: `SessionNew`, `SessionRemoved`, a session's `Lock` or `Unlock`,
    ///   or `PropertiesChanged` of the seat or a session.
    /// - Returns: What to do next.
    package mutating func apply(_ signal: BusSignal) -> Outcome {
        switch (signal.interface, signal.member) {
        case (Self.managerInterface, "SessionNew"), (Self.managerInterface, "SessionRemoved"):
            guard signal.path == Self.managerPath, signal.arguments.count == 2, signal.arguments[0].string != nil,
                let path = signal.arguments[1].objectPath
            else { return .ignored("\(signal.member) is not (so)") }
            if signal.member == "SessionRemoved" {
                sessions[path] = nil
                if activeSession == path { activeSession = nil }
                return .applied
            }
            guard sessions[path] == nil else { return .applied }
            guard sessions.count < Self.maximumSessions else { return .ignored("more than \(Self.maximumSessions) sessions") }
            sessions[path] = Session()
            return .applied
        case (Self.sessionInterface, "Lock"), (Self.sessionInterface, "Unlock"):
            guard sessions[signal.path] != nil else { return .ignored("\(signal.member) of unknown session \(signal.path)") }
            sessions[signal.path]?.locked = signal.member == "Lock"
            return .applied
        case (BusSignal.propertiesInterface, "PropertiesChanged") where signal.path == seatPath:
            guard let (changed, invalidated) = signal.changedProperties(of: Self.seatInterface) else {
                return .ignored("PropertiesChanged of the seat is not sa{sv}as for \(Self.seatInterface)")
            }
            if let value = changed["ActiveSession"] { return applyActiveSession(value) }
            return invalidated.contains("ActiveSession") ? .readSeat : .applied
        case (BusSignal.propertiesInterface, "PropertiesChanged"):
            guard let session = sessions[signal.path] else { return .ignored("PropertiesChanged of unknown object \(signal.path)") }
            guard let (changed, invalidated) = signal.changedProperties(of: Self.sessionInterface) else {
                return .ignored("PropertiesChanged of \(signal.path) is not sa{sv}as for \(Self.sessionInterface)")
            }
            // A change names only what changed: a session not read yet is read whole.
            if !session.isRead || invalidated.contains(where: { Self.sessionProperties.contains($0) }) {
                return .readSession(signal.path)
            }
            return applySessionProperties(changed, of: signal.path)
        default:
            return .ignored("\(signal.interface).\(signal.member) is not followed")
        }
    }
}
