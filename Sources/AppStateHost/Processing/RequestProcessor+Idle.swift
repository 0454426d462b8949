import AppStateIPC
import ServicePorts
import StateContainers

extension RequestProcessor {
    /// Gives the idle clock the trees' steps: at start and after every reload.
    func configureIdleSteps() {
        idle.configure(host.trees.map { ($0.name, $0.idleSteps) })
    }

    /// Carries out an idle step as a batch of the processor's own, on the path of clients'
    /// calls: durable before it is published, the same events to watchers. It is no
    /// activity, and a session logind owns refuses it as it refuses clients, but for a lock,
    /// which logind is asked for: its lock screen and the tree's then lock together.
    func runIdleStep(_ action: IdleStep.Action, tree: String) {
        if action == .lock, let seat = sessions.owners[tree], let locker = systemSessionLocker {
            logger.info("idle step lock of tree \(tree): asking logind to lock the session on \(seat)", metadata: ["tree": .string(tree)])
            locker.lockSession(seat: seat)
            return
        }
        let method =
            switch action {
            case .logout: Logout.name
            case .lock: Lock.name
            }
        let call = VarlinkCall(method: method, parameters: ["tree": .string(tree)])
        let batch = Batch(calls: [call], routes: [route(call)], connection: nil, isIdleStep: true) { [logger] replies in
            if let reply = replies.first ?? nil, let name = reply.error {
                logger.error("idle step \(action) of tree \(tree) failed: \(VarlinkError(name: name, parameters: reply.parameters))")
            } else {
                logger.info("idle step \(action) of tree \(tree)", metadata: ["tree": .string(tree), "event": .string("idle.\(action)")])
            }
        }
        batch.mayMutate = true
        run(batch)
    }

    /// Takes an idle inhibitor for the connection, released when it closes: by its client, or
    /// by the kernel when the client dies, since the stream ends when the peer stops sending.
    /// - Returns: The reply: with `continues` once held, else the error.
    func inhibit(_ call: VarlinkCall, on connection: ConnectionContext, mayMutate: Bool) -> VarlinkReply {
        do throws(VarlinkError) {
            if call.upgrade { throw .methodNotImplemented(call.method) }
            guard mayMutate else { throw .permissionDenied }
            let parameters = try Inhibit.Parameters(parameters: call.parameters)
            try parameters.validate()
            let number = try idle.inhibit(tree: parameters.tree, peer: connection.peer, why: parameters.why)
            connection.watcher.endWithInput()
            connection.watcher.whenClosed { [weak self] in self?.idle.release(number) }
            return VarlinkReply(parameters: Inhibit.Reply().parameters, continues: true)
        } catch {
            return VarlinkReply(error: error)
        }
    }
}
