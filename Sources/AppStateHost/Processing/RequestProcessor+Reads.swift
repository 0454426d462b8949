import AppStateCore
import AppStateIPC
import ServicePorts

extension RequestProcessor {
    /// Answers a call that only reads the published trees on the caller's thread, through
    /// the same registry entry a batch uses.
    /// - Parameters:
    ///   - call: A call as it arrived.
    ///   - buffer: Where the reply frame goes, unless the call is `oneway`.
    /// - Returns: Whether the call was answered; false when it needs the main actor.
    package nonisolated func answerImmediately(_ call: VarlinkCall, into buffer: inout [UInt8]) -> Bool {
        guard !call.more, !call.upgrade, let entry = registry.entry(call.method), case .read(let read) = entry.handler else { return false }
        let start = buffer.endIndex
        var failure: String?
        do throws(VarlinkError) {
            try published.reply(to: PublishedTrees.Question(method: call.method, parameters: call.parameters), into: &buffer) {
                snapshots throws(VarlinkError) in try read(call.parameters, snapshots)
            }
        } catch {
            buffer.removeSubrange(start...)
            VarlinkReply(error: error).encode(into: &buffer)
            failure = error.name
        }
        metrics.countRequest(call.method, error: failure)
        if call.oneway { buffer.removeSubrange(start...) }
        return true
    }

    /// Starts a `Watch` stream: its first reply is the snapshot of the tree or subtree.
    func watch(_ call: VarlinkCall, on connection: ConnectionContext) -> VarlinkReply {
        do {
            let parameters = try Watch.Parameters(parameters: call.parameters)
            let tree = try host.tree(named: parameters.tree)
            let root = tree.root.snapshot()
            let followed =
                try parameters.path.map { path throws(VarlinkError) in
                    guard let node = root.node(at: path) else { throw .noSuchNode(path: path) }
                    return node
                } ?? root
            hub.add(connection.watcher, tree: tree.name, subscription: WatchSubscription(path: parameters.path, full: parameters.full), root: root)
            return VarlinkReply(parameters: Watch.Reply(root: followed).parameters, continues: true)
        } catch {
            return VarlinkReply(error: error)
        }
    }
}
