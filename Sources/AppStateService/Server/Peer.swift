/// Who is at the other end of a connection, as SO_PEERCRED told when it connected.
public struct Peer: Sendable, Hashable {
    /// The peer's process id.
    public let pid: Int32
    /// The peer's user id.
    public let uid: UInt32
    /// The peer's primary group id.
    public let gid: UInt32
    /// Whether the access policy lets this peer change state.
    public let mayMutate: Bool

    /// Creates a peer description.
    /// - Parameters:
    ///   - pid: The peer's process id.
    ///   - uid: The peer's user id.
    ///   - gid: The peer's primary group id.
    ///   - mayMutate: Whether it may change state.
    public init(pid: Int32, uid: UInt32, gid: UInt32, mayMutate: Bool) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.mayMutate = mayMutate
    }
}
