import ServicePorts

#if canImport(Glibc)
    import Glibc
#endif

/// No peer mutates anything: the certification keeps no state that access guards.
struct ReadOnlyAccess: MutationAccess {
    func decisionWithoutLookup(uid: uid_t, gid: gid_t) -> Bool? { false }

    func mayMutate(pid: pid_t, uid: uid_t, gid: gid_t) -> Bool { false }
}
