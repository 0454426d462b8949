/// The tree and subtree of one upstream `Watch`, shared by every page that follows them.
struct WatchKey: Hashable, Sendable {
    var tree: String?
    var path: String?
}
