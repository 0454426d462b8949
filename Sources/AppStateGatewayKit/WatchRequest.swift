/// What a page asks of `GET /watch`: which tree and subtree to follow, and the id of the last
/// event it has, when it reconnects.
public struct WatchRequest: Hashable, Sendable {
    /// The tree; the daemon's first when `nil` (`?tree=`).
    public var tree: String?
    /// The subtree's path; the whole tree when `nil` (`?path=`).
    public var path: String?
    /// The id of the last event the page received (`Last-Event-ID`, or `?lastEventId=` for
    /// a client that reconnects by itself), to catch up from.
    public var lastEventID: String?

    /// Creates a request.
    /// - Parameters:
    ///   - tree: The tree.
    ///   - path: The subtree's path.
    ///   - lastEventID: The id of the last event received.
    public init(tree: String? = nil, path: String? = nil, lastEventID: String? = nil) {
        self.tree = tree
        self.path = path
        self.lastEventID = lastEventID
    }

    /// Which upstream `Watch` serves it: requests for the same tree and subtree share one.
    var key: WatchKey { WatchKey(tree: tree, path: path) }
}
