/// Whether one connection's peer may change state: settled from its credentials alone where
/// they suffice, otherwise looked up once, at its first mutation. The lookup may block on the
/// user database (NSS: sssd, LDAP), so whoever asks runs ``lookUp()`` off the event loop and
/// the main actor, then ``record(_:)``s the answer.
@MainActor public final class PeerAccessDecision {
    /// The decision, once taken.
    public private(set) var decided: Bool?
    private let lookUpAnswer: @Sendable () -> Bool

    /// A decision already taken.
    /// - Parameter decided: Whether the peer may mutate.
    public nonisolated init(_ decided: Bool) {
        self.decided = decided
        lookUpAnswer = { decided }
    }

    /// A decision taken from `access` for these credentials, without a lookup when it can be.
    /// - Parameters:
    ///   - access: The access control.
    ///   - pid: The peer's process id.
    ///   - uid: The peer's effective user id.
    ///   - gid: The peer's effective group id.
    public nonisolated init(access: any MutationAccess, pid: Int32, uid: UInt32, gid: UInt32) {
        decided = access.decisionWithoutLookup(uid: uid, gid: gid)
        lookUpAnswer = { access.mayMutate(pid: pid, uid: uid, gid: gid) }
    }

    /// Looks the decision up; may block, so call it on a thread that may wait.
    /// - Returns: Whether the peer may mutate.
    public nonisolated func lookUp() -> Bool {
        lookUpAnswer()
    }

    /// Keeps the looked-up decision for the peer's later mutations.
    /// - Parameter answer: What ``lookUp()`` returned, or false when it could not run.
    public func record(_ answer: Bool) {
        decided = answer
    }
}
