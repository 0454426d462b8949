/// Who is at the other end of a connection, as SO_PEERCRED told when it connected.
public struct Peer: Sendable {
    /// The peer's process id.
    public let pid: Int32
    /// The peer's user id.
    public let uid: UInt32
    /// The peer's primary group id.
    public let gid: UInt32
    /// Whether the access policy lets this peer change state, decided at its first mutation.
    public let access: PeerAccessDecision

    /// Creates a peer description with its access decision.
    /// - Parameters:
    ///   - pid: The peer's process id.
    ///   - uid: The peer's user id.
    ///   - gid: The peer's primary group id.
    ///   - access: Whether it may change state.
    public init(pid: Int32, uid: UInt32, gid: UInt32, access: PeerAccessDecision) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.access = access
    }

    /// Creates a peer description whose access is already decided.
    /// - Parameters:
    ///   - pid: The peer's process id.
    ///   - uid: The peer's user id.
    ///   - gid: The peer's primary group id.
    ///   - mayMutate: Whether it may change state.
    public init(pid: Int32, uid: UInt32, gid: UInt32, mayMutate: Bool) {
        self.init(pid: pid, uid: uid, gid: gid, access: PeerAccessDecision(mayMutate))
    }
}
