import AppStateIPC
import ServicePorts
import StateContainers
import TreeFiles

extension RequestProcessor {
    /// Gives the idle clock the trees' steps: at start and after every reload. A presentation
    /// found presented that a step presents was restored: the next activity dismisses it.
    func configureIdleSteps() {
        idle.configure(host.trees.map { ($0.name, $0.idleSteps) })
        for tree in host.trees {
            if let presented = tree.root.presentedViewController?.identifier { idle.adopt(tree: tree.name, presented: presented) }
        }
    }

    /// Dismisses what an idle step presented, if the tree's root still presents it, as an idle
    /// step's own batch. It runs after the batch whose activity asked for it, since nothing may
    /// run between a batch's changes and its commit, and only if the same controller is still
    /// presented then: one a client presented meanwhile stays.
    func dismissIdlePresentation(_ identifier: String, tree: String) {
        guard let hosted = try? host.tree(named: tree), let presented = hosted.root.presentedViewController, presented.identifier == identifier
        else { return }
        runner.execute { [weak self, weak presented] in
            guard let self, let presented, hosted.root.presentedViewController === presented else { return }
            self.runIdleBatch(VarlinkCall(method: Dismiss.name, parameters: ["tree": .string(tree)]), what: "dismissing \(identifier)", tree: tree)
        }
    }

    /// Carries out an idle step as a batch of the processor's own, on the path of clients'
    /// calls: durable before it is published, the same events to watchers. It is no
    /// activity, and a session logind owns refuses it as it refuses clients, but for a lock,
    /// which logind is asked for: its lock screen and the tree's then lock together.
    func runIdleStep(_ action: IdleStep.Action, tree: String) {
        if case .lock = action, let seat = sessions.owners[tree], let locker = systemSessionLocker {
            logger.info("idle step lock of tree \(tree): asking logind to lock the session on \(seat)", metadata: ["tree": .string(tree)])
            locker.lockSession(seat: seat)
            return
        }
        let call =
            switch action {
            case .logout: VarlinkCall(method: Logout.name, parameters: ["tree": .string(tree)])
            case .lock: VarlinkCall(method: Lock.name, parameters: ["tree": .string(tree)])
            case .present(let identifier): VarlinkCall(method: Present.name, parameters: ["tree": .string(tree), "id": .string(identifier)])
            case .blank: VarlinkCall(method: Blank.name, parameters: ["tree": .string(tree)])
            }
        runIdleBatch(call, what: "\(action)", tree: tree)
    }

    /// Runs an idle step's call as a batch of its own, and logs how it went.
    private func runIdleBatch(_ call: VarlinkCall, what: String, tree: String) {
        let batch = Batch(calls: [call], routes: [route(call)], connection: nil, isIdleStep: true) { [logger] replies in
            if let reply = replies.first ?? nil, let name = reply.error {
                logger.error("idle step of tree \(tree), \(what), failed: \(VarlinkError(name: name, parameters: reply.parameters))")
            } else {
                logger.info("idle step of tree \(tree): \(what)", metadata: ["tree": .string(tree)])
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
