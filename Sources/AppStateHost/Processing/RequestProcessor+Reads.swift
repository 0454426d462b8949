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
        guard !call.more, !call.upgrade, let entry = registry.entry(call.method) else { return false }
        if case .activity = entry.handler { return recordActivity(call, into: &buffer) }
        guard case .read(let read) = entry.handler else { return false }
        let start = buffer.endIndex
        var failure: String?
        do throws(VarlinkError) {
            try published.reply(to: PublishedTrees.Question(method: call.method, parameters: call.parameters), into: &buffer) {
                snapshots, frame throws(VarlinkError) in try read.frame(call.parameters, snapshots, &frame)
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

    /// Records a `ReportActivity` on the caller's thread, in the tree's ``ActivityMark``,
    /// unless an idle step has fired since the clock started: undoing that takes the main
    /// actor.
    /// - Returns: Whether the call was answered.
    private nonisolated func recordActivity(_ call: VarlinkCall, into buffer: inout [UInt8]) -> Bool {
        do throws(VarlinkError) {
            let parameters = try ReportActivity.Parameters(parameters: call.parameters)
            guard try idle.board.mark(named: parameters.tree).record(at: idle.now) else { return false }
            if !call.oneway { buffer.append(contentsOf: Self.emptyReply) }
            metrics.countRequest(call.method, error: nil)
        } catch {
            if !call.oneway { VarlinkReply(error: error).encode(into: &buffer) }
            metrics.countRequest(call.method, error: error.name)
        }
        return true
    }

    /// The frame of a reply without parameters.
    private nonisolated static let emptyReply: [UInt8] = {
        var frame: [UInt8] = []
        VarlinkReply().encode(into: &frame)
        return frame
    }()

    /// Starts a `Watch` stream: its first reply is the snapshot of the tree or subtree.
    func watch(_ call: VarlinkCall, on connection: ConnectionContext) -> VarlinkReply {
        do {
            let parameters = try Watch.Parameters(parameters: call.parameters)
            let tree = try host.tree(named: parameters.tree)
            let root = host.snapshot(of: tree)
            let followed =
                try parameters.path.map { path throws(VarlinkError) in
                    guard let node = root.node(at: path) else { throw .noSuchNode(path: path) }
                    return node
                } ?? root
            hub.add(
                connection.watcher, tree: tree.name,
                subscription: WatchSubscription(path: parameters.path, full: parameters.full, subtrees: parameters.subtrees), root: root)
            return VarlinkReply(parameters: Watch.Reply(root: followed).parameters, continues: true)
        } catch {
            return VarlinkReply(error: error)
        }
    }
}
