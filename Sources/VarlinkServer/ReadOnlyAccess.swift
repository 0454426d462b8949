import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// No peer mutates anything: for a service whose methods only read (a certification service,
/// a status socket), which keeps no state that access guards.
public struct ReadOnlyAccess: MutationAccess {
    /// The policy.
    public init() {}

    public func decisionWithoutLookup(uid: uid_t, gid: gid_t) -> Bool? { false }

    public func mayMutate(pid: pid_t, uid: uid_t, gid: gid_t) -> Bool { false }
}
