import AppStateCore
import AppStateIPC

/// `ReportFrontEnd` and `GetKiosk`: what the front-ends that show the trees say of themselves,
/// kept by the ``FrontEndBoard``, told to watchers as events that change no node.
extension RequestProcessor {
    func reportFrontEnd(_ parameters: ReportFrontEnd.Parameters) throws(VarlinkError) -> (ReportFrontEnd.Reply, Event?) {
        let tree = try host.tree(named: parameters.tree)
        let report = frontEnds.report(parameters, tree: tree.name)
        metrics.countRecoveries(tree: tree.name, reloads: report.reloadsAdded, restarts: report.restartsAdded)
        guard report.changed else { return (ReportFrontEnd.Reply(), nil) }
        return (ReportFrontEnd.Reply(), event(for: report.frontEnd, current: tree.deepestCurrentPath))
    }

    func kiosk(_ parameters: GetKiosk.Parameters) throws(VarlinkError) -> GetKiosk.Reply {
        let tree = try host.tree(named: parameters.tree)
        guard let socket = frontEnds.kioskSocket(of: tree.name) else { throw .noKiosk(tree: tree.name) }
        return GetKiosk.Reply(socket: socket)
    }

    /// Tells watchers of a front-end marked down, behind the writes under way as a batch's
    /// transient event would be, so that they hear of the changes in the order they were made.
    func frontEndMarkedDown(_ frontEnd: FrontEnd) {
        guard let tree = try? host.tree(named: frontEnd.tree) else { return }
        logger.warning(
            "front-end \(frontEnd.kind) \(frontEnd.name) of tree \(tree.name) is down: \(frontEnd.reason ?? "")",
            metadata: ["tree": .string(tree.name)])
        let batch = Batch(calls: [], routes: [], connection: nil) { _ in }
        batch.events = [(event(for: frontEnd, current: tree.deepestCurrentPath), false)]
        commit(batch) {}
    }

    /// The event of a front-end's change, named after the method also for one marked down:
    /// on no node, with the front-end as its userInfo.
    private func event(for frontEnd: FrontEnd, current: String) -> Event {
        Event(tree: frontEnd.tree, name: AppStateMethod.reportFrontEnd.shortName, current: current, userInfo: frontEnd.jsonMembers)
    }
}
