#if canImport(Glibc)
    import Glibc
#endif

/// Decides, once per connection, whether its peer may change state, from the credentials the
/// kernel reported for the connection (`SO_PEERCRED`).
///
/// Looking a user's groups up may block on the user database (NSS: sssd, LDAP), so the server
/// asks for the full decision only when the peer first tries to change something, and never on
/// an event loop or the main actor; reads never wait for it.
public protocol MutationAccess: Sendable {
    /// The decision the credentials settle alone, with no lookup, or nil when the peer's
    /// groups must be looked up.
    ///
    /// - Parameters:
    ///   - uid: The peer's effective user id.
    ///   - gid: The peer's effective group id.
    func decisionWithoutLookup(uid: uid_t, gid: gid_t) -> Bool?

    /// Whether the peer that connected may mutate; may block on the user database.
    ///
    /// - Parameters:
    ///   - pid: The peer's process id.
    ///   - uid: The peer's effective user id.
    ///   - gid: The peer's effective group id.
    /// - Returns: `true` when its mutations are allowed.
    func mayMutate(pid: pid_t, uid: uid_t, gid: gid_t) -> Bool
}

extension MutationAccess {
    /// Always look up: the decision needs the peer's groups.
    public func decisionWithoutLookup(uid: uid_t, gid: gid_t) -> Bool? { nil }
}
