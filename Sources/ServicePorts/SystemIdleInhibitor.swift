/// The daemon's own idle inhibitor with the system (logind's `Inhibit("idle", …, "block")`),
/// held while any client holds one with `io.appstate.Inhibit`, so that the system's idle
/// action (suspend, lock) waits too. The followers implement it; the host says when.
package protocol SystemIdleInhibitor: Sendable {
    /// Holds the inhibitor, or lets it go.
    /// - Parameter why: The reason to hold it with; nil to let it go. While it is held, a new
    ///   reason does not take it again.
    func hold(_ why: String?)
}
