/// A source of system state the daemon follows (logind's seat, the on-screen keyboard), as
/// the `io.appstate.Follower` type carries it in `GetStats`.
public struct Follower: VarlinkObject {
    /// The members of `io.appstate.Follower`.
    public static let memberNames = ["name", "connected", "detail"]

    /// What is followed, e.g. `logind seat0` or `osk`.
    public var name: String
    /// Whether the daemon is connected to the source and follows it.
    public var connected: Bool
    /// What the daemon sees, or why it is disconnected, in words.
    public var detail: String

    /// Creates a follower's description.
    /// - Parameters:
    ///   - name: What is followed.
    ///   - connected: Whether it is followed now.
    ///   - detail: What the daemon sees, or why it is disconnected.
    public init(name: String, connected: Bool, detail: String) {
        self.name = name
        self.connected = connected
        self.detail = detail
    }
}
