import AppStateCore
import AppStateIPC
import NIOPosix
import ServicePorts

extension RequestProcessor {
    /// Runs a batch from its next call until it has to wait for a commit or a system service,
    /// or is done.
    func run(_ batch: Batch) {
        while batch.next < batch.calls.count {
            let (call, route) = (batch.calls[batch.next], batch.routes[batch.next])
            batch.next += 1
            begin(route, in: batch)
            if route.effect == .streams, call.more, let connection = batch.connection {
                // The watcher's snapshot must follow the batch's earlier changes, durable ones
                // included.
                commit(batch) {
                    batch.replies.append(self.watch(call, on: connection))
                    if batch.replies.last?.continues == true { return self.complete(batch) }
                    self.run(batch)
                }
                return
            }
            if route.effect == .holds, call.more, let connection = batch.connection {
                batch.replies.append(inhibit(call, on: connection, mayMutate: batch.mayMutate))
                if batch.replies.last?.continues == true { return complete(batch) }
                continue
            }
            if case .method(let entry) = route, case .asks(let prepare) = entry.handler {
                // A call refused at once is answered in the loop, as any other, without waiting.
                do throws(VarlinkError) {
                    try admit(call, entry: entry, in: batch)
                    return ask(call, sending: try prepare(self, call.parameters), in: batch)
                } catch {
                    batch.replies.append(VarlinkReply(error: error))
                    continue
                }
            }
            answer(call, route: route, in: batch)
        }
        complete(batch)
    }

    /// Publishes and commits what the batch changed, then replies.
    private func complete(_ batch: Batch) {
        if batch.changed { host.publish() }
        commit(batch) { self.finish(batch) }
    }

    /// Counts a call and, before a read, publishes what the batch changed so far, so that a
    /// client reads its own writes.
    private func begin(_ route: Route, in batch: Batch) {
        if batch.changed, route.readsPublished {
            host.publish()
            batch.changed = false
        }
    }

    /// Answers one call of a batch (not a `Watch` stream) and records its event.
    private func answer(_ call: VarlinkCall, route: Route, in batch: Batch) {
        batch.changed = batch.changed || !route.readsPublished
        // Keyboard and window size are transient: they need no write, and a failed write of
        // the batch does not undo them.
        let durable = route.effect == .changesDurably
        do {
            let (reply, event) = try reply(to: call, route: route, in: batch)
            if let event { batch.events.append((event, durable)) }
            if route.effect?.changesTrees == true, Self.isActivity(call, in: batch) { idle.activity(tree: call.parameters["tree"]?.stringValue) }
            // A mutation that changed nothing (Logout while logged out) still reports a
            // state, which another batch may have made and not yet written: its reply waits
            // until that state is durable too.
            if durable { batch.mutated.append(batch.replies.count) }
            batch.replies.append(VarlinkReply(parameters: reply))
        } catch {
            batch.replies.append(VarlinkReply(error: error))
        }
    }

    /// Sends a call's request to a system service, answers the call once the service has, then
    /// runs the rest of the batch. What the batch changed before it is published and committed
    /// first: the answer comes back in a later turn of the main actor, and nothing may run
    /// there between a batch's change and its commit.
    private func ask(_ call: VarlinkCall, sending send: @escaping MethodRegistry.Request<[String: JSONValue]>, in batch: Batch) {
        if batch.changed {
            host.publish()
            batch.changed = false
        }
        commit(batch) {
            send { outcome in
                switch outcome {
                case .success(let parameters):
                    if Self.isActivity(call, in: batch) { self.idle.activity(tree: call.parameters["tree"]?.stringValue) }
                    batch.replies.append(VarlinkReply(parameters: parameters))
                case .failure(let error):
                    batch.replies.append(VarlinkReply(error: error))
                }
                self.run(batch)
            }
        }
    }

    /// One call's reply parameters, and the event when it changed a tree.
    private func reply(to call: VarlinkCall, route: Route, in batch: Batch) throws(VarlinkError) -> MethodRegistry.Answer {
        switch route {
        case .unknown(let error):
            if call.upgrade { throw .methodNotImplemented(call.method) }
            throw error
        case .method(let entry):
            try admit(call, entry: entry, in: batch)
            switch entry.handler {
            case .read(let read):
                return (try read.parameters(call.parameters, published.snapshots), nil)
            case .mainActor(let operation):
                return try operation(self, call.parameters)
            case .stream:
                // Reached only without a connection: a follower cannot stream.
                throw .methodNotImplemented(call.method)
            case .activity:
                try idle.reportActivity(tree: try ReportActivity.Parameters(parameters: call.parameters).tree)
                return ([:], nil)
            case .asks:
                // run(_:) hands these to ask(_:sending:in:), which waits for the answer.
                throw .methodNotImplemented(call.method)
            }
        }
    }

    /// Refuses a call to a registered method that the caller may not make now, in the order
    /// the interface documents: `upgrade`, `more`, permission, then what a follower owns.
    private func admit(_ call: VarlinkCall, entry: MethodRegistry.Entry, in batch: Batch) throws(VarlinkError) {
        if call.upgrade { throw .methodNotImplemented(call.method) }
        if entry.effect == .streams || entry.effect == .holds, !call.more { throw .expectedMore }
        if entry.effect.isMutation, !batch.mayMutate { throw .permissionDenied }
        if batch.fromClient || batch.isIdleStep, let (tree, seat) = sessions.owner(of: call, trees: host.treeNames) {
            throw .sessionOwnedByLogind(tree: tree, seat: seat)
        }
        if batch.fromClient, let (tree, output) = windows.owner(of: call, trees: host.treeNames) {
            throw .windowOwnedByOutput(tree: tree, output: output.name)
        }
    }

    /// Whether a change is someone using the tree: every change a client makes, and a
    /// follower's but a lock or a logout, which logind makes when the session goes idle as
    /// often as when someone asks, and a resize, which the compositor makes when an output is
    /// plugged, unplugged or reconfigured with nobody at the screen; never an idle step's own,
    /// nor a blank, which puts the screen away rather than using it (so the steps after an
    /// idle step's blank, a logout, still come when they would have).
    private static func isActivity(_ call: VarlinkCall, in batch: Batch) -> Bool {
        if batch.isIdleStep || call.method == Blank.name { return false }
        return batch.fromClient || ![Lock.name, Logout.name, Resize.name].contains(call.method)
    }

    /// Hands the replies over, with clients' calls counted by outcome.
    private func finish(_ batch: Batch) {
        let replies = zip(batch.calls, batch.replies).map { call, reply in
            if batch.fromClient { metrics.countRequest(call.method, error: reply.error) }
            return call.oneway ? nil : reply
        }
        batch.reply(replies)
    }

    /// Looks the peer's access up on a thread that may block on the user database; a pool
    /// that is shutting down runs nothing, and the peer is then judged without its groups.
    nonisolated static func lookUp(_ access: PeerAccessDecision) async -> Bool {
        (try? await NIOThreadPool.singleton.runIfActive { access.lookUp() }) ?? false
    }
}
