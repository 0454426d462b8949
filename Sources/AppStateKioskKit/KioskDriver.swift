import AppStateCore
import AppStateIPC
import Glibc
import UnixSignals

/// Runs the kiosk: starts the browser, follows the daemon's tree and shows each of its screens,
/// asks the daemon for the keyboard when the page focuses an editable element, and stops the
/// browser on SIGTERM or SIGINT.
public struct KioskDriver: Sendable {
    private let configuration: KioskConfiguration
    private let log = KioskLog()

    /// A driver for a configuration; nothing starts before ``run()``.
    /// - Parameter configuration: What to run.
    public init(configuration: KioskConfiguration) {
        self.configuration = configuration
    }

    /// Runs until SIGTERM or SIGINT, then stops the browser and returns.
    /// - Throws: ``KioskError`` when the browser cannot be started or exits.
    public func run() async throws(KioskError) {
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        // A browser that died leaves its command pipe without a reader: writing to it must fail
        // with EPIPE, not end this process.
        signal(SIGPIPE, SIG_IGN)
        let profile = try KioskProfile(arguments: configuration.browserArguments)
        defer { profile.remove() }
        let browser = try BrowserProcess(
            executable: configuration.browser,
            arguments: KioskConfiguration.defaultBrowserArguments + profile.arguments + configuration.browserArguments + ["about:blank"])
        let page: KioskPage
        do {
            page = try await KioskPage(connection: browser.connection, log: log)
        } catch {
            let status = await browser.terminate()
            throw error is DevToolsError && browser.hasExited ? .browserExited(status: status) : .browserUnresponsive("\(error)")
        }
        let outcome: Result<Void, KioskError> = await withTaskGroup(of: Result<Void, KioskError>?.self) { group in
            group.addTask { await follow(page: page) }
            group.addTask {
                await handleEvents(of: browser, page: page)
                return nil
            }
            group.addTask { .failure(.browserExited(status: await browser.exitStatus)) }
            group.addTask {
                for await _ in signals { return .success(()) }
                return nil
            }
            while let next = await group.next() {
                guard let next else { continue }
                group.cancelAll()
                return next
            }
            return .success(())
        }
        await browser.terminate()
        try outcome.get()
    }

    /// Follows the tree with `Watch`, showing each state; when the daemon goes away the page
    /// stays as it is and the daemon is tried again, with a delay that grows to two seconds.
    private func follow(page: KioskPage) async -> Result<Void, KioskError>? {
        var delay = Duration.milliseconds(100)
        var reported: String?
        while !Task.isCancelled {
            do {
                let client = try VarlinkClient(path: configuration.socketPath, timeout: nil)
                var tree: Node?
                for try await reply in client.replies(Watch.self, Watch.Parameters(tree: configuration.tree)) {
                    guard let next = reply.root ?? tree?.applying(Node.Changes(changed: reply.changed ?? [], removed: reply.removed ?? []))
                    else { continue }
                    if tree == nil {
                        log.info("following \(configuration.tree.map { "the tree \($0)" } ?? "the first tree") on \(configuration.socketPath)")
                        reported = nil
                        delay = .milliseconds(100)
                    }
                    tree = next
                    try await page.show(KioskScreen(tree: next, home: configuration.home))
                }
                reported = report("appstated ended the Watch stream; following it again", unless: reported)
            } catch let error as DevToolsError {
                // The browser's end: its exit is reported by the task that waits for it.
                log.warn("the browser stopped answering: \(error)")
                return nil
            } catch {
                reported = report("cannot follow appstated (\(error)); trying again", unless: reported)
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(2))
        }
        return nil
    }

    /// Answers the page's focus reports with RequestKeyboard, and lets the keyboard go when
    /// the page navigates away from the element that asked for it.
    private func handleEvents(of browser: BrowserProcess, page: KioskPage) async {
        var requested = false
        for await event in browser.connection.events {
            guard event.session == (await page.session) else { continue }
            switch event.method {
            case "Runtime.bindingCalled" where event.string("name") == KioskScripts.focusBinding:
                let visible = event.string("payload") == "editable"
                guard visible || requested else { continue }
                requested = visible
                await requestKeyboard(visible: visible)
            case "Page.frameNavigated":
                guard case .object(let frame)? = event.parameters["frame"], frame["parentId"] == nil, requested else { continue }
                requested = false
                await requestKeyboard(visible: false)
            default:
                continue
            }
        }
    }

    private func requestKeyboard(visible: Bool) async {
        do {
            let client = try VarlinkClient(path: configuration.socketPath, timeout: .seconds(5))
            _ = try await client.call(RequestKeyboard.self, RequestKeyboard.Parameters(tree: configuration.tree, visible: visible))
        } catch {
            log.warn("cannot \(visible ? "show" : "hide") the on-screen keyboard: \(error)")
        }
    }

    /// Logs a failure once until the daemon is followed again.
    private func report(_ message: String, unless earlier: String?) -> String {
        if earlier != message { log.warn(message) }
        return message
    }
}
