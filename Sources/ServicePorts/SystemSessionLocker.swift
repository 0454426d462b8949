/// Locks a logind session, for the `lock` idle steps of trees whose session logind owns: the
/// daemon asks logind (the session's `Lock`), whose lock screen and signal follow, and the tree
/// locks when the follower hears it, as for any other lock. The followers implement it.
package protocol SystemSessionLocker: Sendable {
    /// Asks logind to lock the active session of a seat; returns without waiting.
    /// - Parameter seat: The seat, e.g. `seat0`.
    func lockSession(seat: String)
}
