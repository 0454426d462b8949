/// A connection that streams replies (a call with `more` that subscribes to changes), as the
/// service sees it. The server implements it with its connections; the service hands it
/// encoded replies through its ``lane`` and never touches a socket.
public protocol WatcherSink: AnyObject, Sendable {
    /// The kind of lane the watcher's replies travel on.
    associatedtype Lane: WatcherLane where Lane.Watcher == Self

    /// The lane the watcher's replies are written from. Watchers on the same lane receive
    /// each change together, in one hop to the lane's thread.
    var lane: Lane { get }

    /// Whether the connection is gone, so the host can forget it.
    var isClosed: Bool { get }

    /// Calls `body` on the main actor once the connection is gone (soon, if it is already),
    /// so that the host looks for closed watchers only after one has closed.
    /// - Parameter body: What to do then.
    func whenClosed(_ body: @escaping @MainActor @Sendable () -> Void)

    /// Ends the stream and the connection, e.g. when the service stops.
    func close()

    /// Ends the stream and the connection once the peer stops sending (at once if it has):
    /// for a stream that never writes, such as an inhibitor's, the end of input is the only
    /// sign that a peer that died is gone, since no failed write will tell.
    func endWithInput()
}
