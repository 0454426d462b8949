/// A source of system state the daemon follows on a thread of its own (a D-Bus service, the
/// compositor), as the roster starts and stops it and `GetStats` lists it.
package protocol SystemFollower: AnyObject, Sendable {
    /// The follower's name in `GetStats` and the log, e.g. `logind seat0` or `output`.
    var name: String { get }
    /// Where the follower stands now.
    var status: FollowerCondition { get }
    /// Starts the follower's thread.
    func start() throws
    /// Stops the thread and waits until it let go of its connection.
    func stop() async
}
