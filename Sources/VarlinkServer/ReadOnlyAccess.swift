import ServicePorts

#if canImport(Glibc)
    import Glibc
#endif

/// No peer mutates anything: for a service whose methods only read (the certification,
/// appstate-kiosk's status socket), which keeps no state that access guards.
package struct ReadOnlyAccess: MutationAccess {
    /// The policy.
    package init() {}

    package func decisionWithoutLookup(uid: uid_t, gid: gid_t) -> Bool? { false }

    package func mayMutate(pid: pid_t, uid: uid_t, gid: gid_t) -> Bool { false }
}
