import AppStateCore
import AppStateIPC
import Glibc
import WaylandOutputs

/// Keeps the screen showing what the tree says: acts on the tree's changes, the browser's
/// messages and the clock, one at a time, and brings the browser back when it fails: a
/// crashed or silent page is reloaded at the screen's URL, a page that does not come back
/// and a browser that exited are restarted on the current screen with the session's cookies,
/// and a page that fails to load gives way to the offline page while it is tried again.
actor KioskSupervisor {
    /// A browser and its page, with the generation that tells its messages from an earlier one's.
    private struct Running {
        let process: BrowserProcess
        let page: KioskPage
        let generation: Int
    }

    /// Where the page stands.
    private enum Phase {
        /// Started, and not yet seen alive.
        case loading
        /// Showing the screen's page.
        case live
        /// Reloaded or restarted at `since`, and not yet seen alive.
        case recovering(since: ContinuousClock.Instant, reason: String)
        /// Showing the offline page; the screen's is tried again after `retry`.
        case offline(retry: Duration, reason: String)

        /// The state a front-end reports, and why.
        var report: (state: String, reason: String?) {
            switch self {
            case .loading: ("loading", nil)
            case .live: ("live", nil)
            case .recovering(_, let reason): ("recovering", reason)
            case .offline(_, let reason): ("offline", reason)
            }
        }
    }

    private let configuration: KioskConfiguration
    private let arguments: [String]
    private let log: KioskLog
    private let inputs: AsyncStream<KioskInput>.Continuation
    private let daemon: DaemonRequests
    private let outputPower: KioskOutputPower
    private var budget: RestartBudget
    private var running: Running?
    private var generation = 0
    private var screen: KioskScreen?
    private var phase = Phase.loading {
        didSet { report() }
    }
    private var reloads = 0
    private var restarts = 0
    /// The status socket reported to the daemon; nil while none is served.
    private var statusSocket: String?
    private var lastAlive = ContinuousClock.now
    private var asking = false
    private var cookies: [JSONValue] = []
    private var keyboardRequested = false

    /// A supervisor; nothing starts before ``start()``.
    /// - Parameters:
    ///   - configuration: The browser, the daemon and the recovery settings.
    ///   - arguments: The browser's arguments, the same for every start.
    ///   - log: Where it reports.
    ///   - inputs: Where it schedules its own inputs (signs of life, retries).
    init(configuration: KioskConfiguration, arguments: [String], log: KioskLog, inputs: AsyncStream<KioskInput>.Continuation) {
        self.configuration = configuration
        self.arguments = arguments
        self.log = log
        self.inputs = inputs
        daemon = DaemonRequests(socketPath: configuration.socketPath, log: log)
        outputPower = KioskOutputPower(output: configuration.output, log: log)
        budget = RestartBudget(limit: configuration.recovery.maximumRestarts, window: configuration.recovery.restartWindow)
    }

    /// Starts the first browser.
    /// - Throws: ``KioskError`` when it cannot be started or does not answer.
    func start() async throws(KioskError) {
        outputPower.start()
        try await launch()
    }

    /// Acts on `inputs` until `.stop`, then stops the browser.
    /// - Throws: ``KioskError`` when the browser cannot be brought back within its restarts.
    func run(_ inputs: AsyncStream<KioskInput>) async throws(KioskError) {
        defer { outputPower.stop() }
        do {
            try await act(on: inputs)
        } catch {
            report(state: "down", reason: error.description)
            await daemon.flush()
            if let running { await running.process.terminate() }
            throw error
        }
        await daemon.flush()
        if let running { await running.process.terminate() }
    }

    private func act(on inputs: AsyncStream<KioskInput>) async throws(KioskError) {
        for await input in inputs {
            switch input {
            case .stop:
                report(state: "down", reason: "stopped")
                return
            case .tree(let tree):
                let next = KioskScreen(tree: tree, home: configuration.home)
                if let screen, next.endsSession(since: screen) { cookies = [] }
                screen = next
                outputPower.show(blanked: next.blanked)
                try await showScreen()
            case .event(let event, let browser) where browser == running?.generation:
                try await handle(event)
            case .exited(let status, let browser) where browser == running?.generation:
                try await restart(because: KioskError.browserExited(status: status).description)
            case .alive(let browser) where browser == running?.generation:
                asking = false
                lastAlive = .now
                switch phase {
                case .recovering:
                    phase = .live
                    log.info("the page is back")
                case .loading:
                    phase = .live
                case .live, .offline:
                    break
                }
            case .failed(let reason, let browser) where browser == running?.generation:
                goOffline(because: reason)
            case .tick:
                try await tick()
            case .retry(let browser) where browser == running?.generation:
                try await retry()
            case .event, .exited, .alive, .failed, .retry:
                continue
            }
        }
    }

    /// Says which status socket to report to the daemon.
    /// - Parameter path: The socket, or nil when none is served.
    func serving(statusSocket path: String?) {
        statusSocket = path
        report()
    }

    /// How the kiosk is doing, for its status socket.
    func status() -> GetStatus.Reply {
        let (state, reason) = phase.report
        let (power, powerReason): (String, String?) =
            switch outputPower.power {
            case .on: ("on", nil)
            case .off: ("off", nil)
            case .unknown: ("unknown", nil)
            case .unsupported(let why): ("unsupported", why)
            }
        return GetStatus.Reply(
            tree: configuration.tree, state: state, reason: reason, url: screen?.url, blanked: screen?.blanked ?? false,
            outputPower: power, outputPowerReason: powerReason, reloads: reloads, restarts: restarts)
    }

    /// What the browser shows now, as a PNG.
    /// - Throws: `io.appstate.kiosk.NoBrowser` while the browser is restarted or does not answer.
    func screenshot() async throws(VarlinkError) -> Screenshot.Reply {
        guard let page = running?.page else { throw KioskInterface.noBrowser(reason: "the browser is being restarted") }
        do {
            return try await withDeadline(configuration.recovery.hangTimeout) { try await page.screenshot() }
        } catch {
            throw KioskInterface.noBrowser(reason: "the browser did not take the screenshot: \(error)")
        }
    }

    private func handle(_ event: DevToolsEvent) async throws(KioskError) {
        guard let running else { return }
        let session = await running.page.session
        switch event.method {
        case "Runtime.bindingCalled" where event.session == session && event.string("name") == KioskScripts.focusBinding:
            let visible = event.string("payload") == "editable"
            guard visible || keyboardRequested else { return }
            keyboardRequested = visible
            requestKeyboard(visible: visible)
        case "Runtime.bindingCalled" where event.session == session && event.string("name") == KioskScripts.wakeBinding:
            daemon.call(Wake.self, Wake.Parameters(tree: configuration.tree), failure: "cannot wake the screen")
        case "Page.frameNavigated" where event.session == session:
            guard case .object(let frame)? = event.parameters["frame"], frame["parentId"] == nil else { return }
            if keyboardRequested {
                keyboardRequested = false
                requestKeyboard(visible: false)
            }
            if case .string(let url)? = frame["url"], url.hasPrefix("chrome-error:") { goOffline(because: "the page ended on an error page") }
        case "Page.loadEventFired" where event.session == session:
            await keepCookies()
        case "Inspector.targetCrashed" where event.session == session:
            try await reload(because: "the page crashed")
        case "Target.detachedFromTarget" where event.string("sessionId") == session:
            try await restart(because: "the page's target went away")
        default:
            return
        }
    }

    /// Asks the page for a sign of life, keeps its cookies, and acts on a page that has been
    /// silent too long: a reload first, a restart when the reload did not bring it back.
    private func tick() async throws(KioskError) {
        guard let running else { return }
        let now = ContinuousClock.now
        let hang = configuration.recovery.hangTimeout
        if now - lastAlive > hang {
            switch phase {
            case .recovering(let since, _) where now - since > hang:
                return try await restart(because: "the page did not come back within \(hang)")
            case .live, .loading:
                return try await reload(because: "the page gave no sign of life for \(hang)", hung: true)
            case .recovering, .offline:
                break
            }
        }
        report()
        if !asking {
            asking = true
            let (page, generation, inputs) = (running.page, running.generation, self.inputs)
            Task {
                if await page.isAlive() { inputs.yield(.alive(browser: generation)) }
            }
        }
        await keepCookies()
    }

    private func keepCookies() async {
        guard let page = running?.page else { return }
        if let kept = try? await withDeadline(configuration.recovery.hangTimeout, { try await page.cookies() }) {
            cookies = kept
        }
    }

    private func showScreen() async throws(KioskError) {
        guard let running, let screen else { return }
        do {
            let failure = try await withDeadline(configuration.recovery.hangTimeout) { try await running.page.show(screen) }
            if let failure {
                log.warn("cannot load \(screen.url ?? "the page"): \(failure)")
                goOffline(because: failure)
            }
        } catch is DeadlinePassed {
            try await reload(because: "the page did not answer within \(configuration.recovery.hangTimeout)")
        } catch {
            try await restart(because: "the browser failed: \(error)")
        }
    }

    /// Brings a crashed or silent page back: a crashed page is loaded again (its renderer is
    /// gone, so a new one takes it); a silent one is shown in a new page with the session's
    /// cookies, since a hung renderer would hold a reload of the same page too.
    private func reload(because reason: String, hung: Bool = false) async throws(KioskError) {
        guard let running else { return }
        log.warn("\(reason): reloading it")
        reloads += 1
        phase = .recovering(since: .now, reason: reason)
        lastAlive = .now
        asking = false
        let (page, screen, cookies, generation, inputs) = (running.page, screen, cookies, running.generation, self.inputs)
        // The load's own answer, and not only the error page it commits, says it failed: a
        // reload of a crashed page does not always report that commit.
        Task {
            let failure: String??
            if hung, let screen { failure = try? await page.reopen(showing: screen, cookies: cookies) } else { failure = try? await page.reload() }
            if case let failure?? = failure { inputs.yield(.failed(failure, browser: generation)) }
        }
    }

    private func goOffline(because reason: String) {
        guard let running else { return }
        if case .offline = phase { return }
        let retry = configuration.recovery.firstRetry
        phase = .offline(retry: retry, reason: reason)
        log.warn("showing the offline page (\(reason)); trying again in \(retry)")
        schedule(retry: retry, browser: running.generation)
        let (page, offline) = (running.page, screen?.offline)
        Task { try? await page.showOffline(offline) }
    }

    private func retry() async throws(KioskError) {
        guard let running, case .offline(let delay, _) = phase else { return }
        do {
            if let failure = try await withDeadline(configuration.recovery.hangTimeout, { try await running.page.reload() }) {
                let next = min(delay * 2, configuration.recovery.lastRetry)
                phase = .offline(retry: next, reason: failure)
                log.warn("still cannot load the page (\(failure)); trying again in \(next)")
                schedule(retry: next, browser: running.generation)
                try await running.page.showOffline(screen?.offline)
            } else {
                phase = .live
                lastAlive = .now
                log.info("the page is back")
            }
        } catch is DeadlinePassed {
            try await reload(because: "the page did not answer within \(configuration.recovery.hangTimeout)", hung: true)
        } catch {
            try await restart(because: "the browser failed: \(error)")
        }
    }

    private func requestKeyboard(visible: Bool) {
        daemon.call(
            RequestKeyboard.self, RequestKeyboard.Parameters(tree: configuration.tree, visible: visible),
            failure: "cannot \(visible ? "show" : "hide") the on-screen keyboard")
    }

    /// Tells the daemon how the kiosk is doing: at every change of phase and every tick, well
    /// within the interval after which the daemon marks a silent front-end down.
    private func report() {
        let (state, reason) = phase.report
        report(state: state, reason: reason)
    }

    private func report(state: String, reason: String?) {
        let interval = configuration.recovery.livenessInterval * 3
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        daemon.call(
            ReportFrontEnd.self,
            ReportFrontEnd.Parameters(
                tree: configuration.tree, kind: "kiosk", name: "appstate-kiosk \(getpid())", state: state, reason: reason, reloads: reloads,
                restarts: restarts, livenessInterval: seconds, socket: statusSocket),
            failure: "cannot tell appstated how the kiosk is doing")
    }

    private func schedule(retry delay: Duration, browser: Int) {
        let inputs = self.inputs
        Task {
            try? await Task.sleep(for: delay)
            inputs.yield(.retry(browser: browser))
        }
    }

    private func restart(because reason: String) async throws(KioskError) {
        guard budget.take(at: .now) else {
            throw .tooManyRestarts(configuration.recovery.maximumRestarts, within: configuration.recovery.restartWindow, last: reason)
        }
        log.warn("\(reason): restarting the browser")
        // A browser that failed owes nothing to a graceful stop, and one whose renderer hangs
        // may never finish one.
        if let running { await running.process.kill() }
        running = nil
        restarts += 1
        phase = .recovering(since: .now, reason: reason)
        try await launch()
    }

    private func launch() async throws(KioskError) {
        generation += 1
        let process = try BrowserProcess(executable: configuration.browser, arguments: arguments)
        let page: KioskPage
        do {
            page = try await withDeadline(.seconds(30)) { [log] in try await KioskPage(connection: process.connection, log: log) }
            try await page.restore(cookies: cookies)
        } catch {
            let status = await process.terminate()
            throw error is DevToolsError && process.hasExited ? .browserExited(status: status) : .browserUnresponsive("\(error)")
        }
        let current = Running(process: process, page: page, generation: generation)
        running = current
        let inputs = self.inputs
        Task {
            for await event in process.connection.events { inputs.yield(.event(event, browser: current.generation)) }
        }
        Task { inputs.yield(.exited(status: await process.exitStatus, browser: current.generation)) }
        lastAlive = .now
        asking = false
        keyboardRequested = false
        try await showScreen()
    }
}
