import AppStateIPC

extension RequestProcessor {
    /// Makes the trees' state durable if the batch changed it, then publishes the batch's
    /// events, then goes on with `next`. When the state cannot be encoded or written, the
    /// trees go back to a state without the refused changes and the replies of the batch's
    /// durable mutations become `io.appstate.StorageFailure`: a refused change is neither
    /// kept nor published.
    func commit(_ batch: Batch, then next: @escaping @MainActor @Sendable () -> Void) {
        let (mutated, events) = (batch.mutated, batch.events)
        batch.events = []
        batch.mutated = []
        guard !events.isEmpty || !mutated.isEmpty, !publishedAtOnce(events, mutated: mutated) else { return next() }
        let (document, change) = host.restorableChange(since: lastDocument)
        let record: [UInt8]?
        do {
            record = change.isEmpty ? nil : try change.encoded()
        } catch {
            // Nothing was written: undo this batch alone (others may be waiting for their
            // writes, which hold their changes and must stay). Nothing else ran on the main
            // actor since this batch began, so the last recorded state is the one before its
            // changes.
            logStorageFailure("\(error); the change was refused")
            restore(lastDocument)
            refuse(batch, mutated: mutated, events: events, because: error)
            return next()
        }
        lastDocument = document
        // The store, not this actor, knows what is on disk: batches resume from their commits
        // in any order, so a copy kept here could name an older state as durable and let a
        // later mutation be acknowledged without a write.
        guard let store else {
            publish(events)
            return next()
        }
        commitsInFlight += 1
        let (generation, runner) = (self.generation, self.runner)
        // Handed to the store here, on the main actor, so that the store takes the states in
        // the order the batches made them.
        store.commit(record, document: document, generation: generation) { outcome in
            runner.execute {
                self.commitsInFlight -= 1
                switch outcome {
                case .success:
                    self.publish(events)
                case .failure(let error):
                    if generation == self.generation { self.rollBack(after: error) }
                    self.refuse(batch, mutated: mutated, events: events, because: error)
                }
                next()
            }
        }
    }

    /// Publishes a batch's events at once when it needs no write. A batch that only moved
    /// the keyboard or resized the window changed nothing that is saved; when no other batch's
    /// write is under way either, nothing can be ahead of its events, so they go out without
    /// the hops to the store and back. Behind a write they wait their turn, so that watchers
    /// see the changes in the order they were made.
    /// - Returns: Whether the events were published.
    private func publishedAtOnce(_ events: [(event: Event, durable: Bool)], mutated: [Int]) -> Bool {
        guard mutated.isEmpty, !events.contains(where: \.durable), commitsInFlight == 0 else { return false }
        publish(events)
        return true
    }

    /// Turns the replies of the batch's durable mutations into `io.appstate.StorageFailure`
    /// and publishes only its transient changes, whose events say where the rolled-back
    /// trees are.
    private func refuse(_ batch: Batch, mutated: [Int], events: [(event: Event, durable: Bool)], because error: any Error) {
        for index in mutated {
            batch.replies[index] = VarlinkReply(error: .storageFailure(reason: "\(error)"))
        }
        publish(
            events.filter { !$0.durable }.map { entry in
                var event = entry.event
                // A tree that a reload has removed since keeps the path the event already had.
                if let tree = try? host.tree(named: event.tree) { event.current = tree.deepestCurrentPath }
                return (event, false)
            })
    }

    /// Puts the trees back to the last durable state and starts a new generation, so that
    /// states taken from the trees with the refused change are refused too.
    private func rollBack(after error: StateStore.CommitFailure) {
        generation += 1
        logStorageFailure("\(error); the change was refused and the trees are back at the last saved state")
        guard let durable = error.durableState else {
            restore(startState)
            return
        }
        restore(durable)
    }

    private func restore(_ document: StateDocument) {
        do {
            try host.restore(document)
            lastDocument = document
        } catch {
            logStorageFailure("could not roll the trees back: \(error)")
        }
        host.publish()
    }

    private func logStorageFailure(_ message: String) {
        logger.error("storage failure: \(message)", metadata: ["stateDirectory": "\(environment.stateDirectory ?? "")"])
    }

    /// Tells the watchers of each change, then logs it: a saved change (and the end of its
    /// animation) at `info`, for the journal to keep who logged in and what was shown; a
    /// keyboard move or resize at `debug`, since a UI makes those many times a second.
    func publish(_ events: [(event: Event, durable: Bool)]) {
        for (event, _) in events {
            // A tree that a reload has removed since has no watchers left to tell.
            guard let root = try? published.snapshots.root(named: event.tree) else { continue }
            hub.publish(event, root: root)
        }
        // Logged once the changes are on their way to the watchers, so that formatting and
        // writing the log line (a system call to the journal) is not on their way.
        for (event, durable) in events {
            logger.log(
                level: durable ? .info : .debug, "\(event.name)",
                metadata: [
                    "tree": .string(event.tree), "event": .string(event.name), "path": .string(event.path ?? ""), "current": .string(event.current),
                ])
        }
    }
}
