import NIOPosix

/// Whether one connection's peer may change state: settled from its credentials alone where
/// they suffice, otherwise looked up once, at its first mutation, on a thread pool, because
/// the user database may block (NSS: sssd, LDAP) and must stall neither the event loop that
/// serves every client nor the main actor that holds the trees.
@MainActor public final class PeerAccessDecision {
    /// The decision, once taken.
    private(set) var decided: Bool?
    private let lookUp: @Sendable () -> Bool

    /// A decision already taken.
    /// - Parameter decided: Whether the peer may mutate.
    public nonisolated init(_ decided: Bool) {
        self.decided = decided
        lookUp = { decided }
    }

    /// A decision taken from `access` for these credentials, without a lookup when it can be.
    /// - Parameters:
    ///   - access: The access control.
    ///   - pid: The peer's process id.
    ///   - uid: The peer's effective user id.
    ///   - gid: The peer's effective group id.
    public nonisolated init(access: any MutationAccess, pid: Int32, uid: UInt32, gid: UInt32) {
        decided = access.decisionWithoutLookup(uid: uid, gid: gid)
        lookUp = { access.mayMutate(pid: pid, uid: uid, gid: gid) }
    }

    /// Whether the peer may mutate, looking its groups up the first time it is needed.
    public func mayMutate() async -> Bool {
        if let decided { return decided }
        let lookUp = self.lookUp
        // A pool that is shutting down runs nothing: the peer is then judged without its groups.
        let answer = (try? await NIOThreadPool.singleton.runIfActive(lookUp)) ?? false
        decided = answer
        return answer
    }
}
