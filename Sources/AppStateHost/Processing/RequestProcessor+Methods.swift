import AppStateIPC

extension MethodRegistry {
    /// Every `io.appstate` method, each with its effect and the operation that answers it.
    static let appState: MethodRegistry = {
        var registry = MethodRegistry()
        registry.read(GetTree.self, writeReply: { reply, buffer in reply.writeJSONReusingEncodings(into: &buffer) }) {
            parameters, trees throws(VarlinkError) in GetTree.Reply(root: try trees.root(named: parameters.tree))
        }
        registry.read(GetCurrent.self) { parameters, trees throws(VarlinkError) in try trees.current(parameters) }
        registry.live(GetStats.self) { processor, _ in processor.stats }
        registry.live(GetMetrics.self) { processor, _ in GetMetrics.Reply(text: processor.exposition) }
        registry.stream(Watch.self)
        registry.activity(ReportActivity.self)
        registry.hold(Inhibit.self)
        // Post counts as durable: a session notification may log in or out.
        registry.change(Post.self, durable: true) { host, parameters throws(VarlinkError) in try host.post(parameters) }
        registry.change(Login.self, durable: true) { host, parameters throws(VarlinkError) in try host.logIn(parameters) }
        registry.change(Logout.self, durable: true) { host, parameters throws(VarlinkError) in try host.logOut(parameters) }
        registry.change(Lock.self, durable: true) { host, parameters throws(VarlinkError) in try host.lock(parameters) }
        registry.change(Unlock.self, durable: true) { host, parameters throws(VarlinkError) in try host.unlock(parameters) }
        registry.change(SetPage.self, durable: true) { host, parameters throws(VarlinkError) in try host.setPage(parameters) }
        registry.change(SelectMenuItem.self, durable: true) { host, parameters throws(VarlinkError) in try host.selectMenuItem(parameters) }
        registry.change(Push.self, durable: true) { host, parameters throws(VarlinkError) in try host.push(parameters) }
        registry.change(Pop.self, durable: true) { host, parameters throws(VarlinkError) in try host.pop(parameters) }
        registry.change(Present.self, durable: true) { host, parameters throws(VarlinkError) in try host.present(parameters) }
        registry.change(Dismiss.self, durable: true) { host, parameters throws(VarlinkError) in try host.dismiss(parameters) }
        registry.change(ShowKeyboard.self, durable: false) { host, parameters throws(VarlinkError) in try host.showKeyboard(parameters) }
        registry.change(HideKeyboard.self, durable: false) { host, parameters throws(VarlinkError) in try host.hideKeyboard(parameters) }
        registry.change(Resize.self, durable: false) { host, parameters throws(VarlinkError) in try host.resize(parameters) }
        registry.ask(RequestKeyboard.self) { processor, parameters throws(VarlinkError) in try processor.requestKeyboard(parameters) }
        registry.report(ReportFrontEnd.self) { processor, parameters throws(VarlinkError) in try processor.reportFrontEnd(parameters) }
        registry.change(Blank.self, durable: false) { host, parameters throws(VarlinkError) in try host.blank(parameters) }
        registry.change(Wake.self, durable: false) { host, parameters throws(VarlinkError) in try host.wake(parameters) }
        registry.live(GetKiosk.self) { processor, parameters throws(VarlinkError) in try processor.kiosk(parameters) }
        return registry
    }()
}
