import AppStateCtlKit
import AppStateKioskKit
import AppStateOptions
import ArgumentParser
import Glibc
import VarlinkServer

/// `appstate-kiosk`: one browser showing one tree's screens.
@main
struct AppStateKiosk: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appstate-kiosk",
        abstract: "Show a tree's screens in a browser: its pages, its keyboard, its sessions.",
        discussion: """
            Starts the browser and drives it over the Chrome DevTools Protocol on \
            --remote-debugging-pipe (no port is opened). The browser shows the url of the \
            deepest current node that has one (tree files give nodes a url:), else --home; a \
            page's own navigations are left alone until the screen's url changes. While an \
            on-screen keyboard covers the tree, the page's viewport is the window less the \
            keyboard, and the focused element is scrolled into view. When the page focuses a \
            text field, appstate-kiosk asks appstated to show the keyboard (RequestKeyboard), \
            and to hide it when the focus leaves. When a customer logs out, their cookies, \
            storage, cache and history are cleared before the logged-out screen shows. A page \
            that crashed or gives no sign of life is reloaded, a browser that exited or does \
            not come back is restarted with the session's cookies, and a page that cannot be \
            loaded gives way to an offline page while it is tried again; past --max-restarts \
            within --restart-window, appstate-kiosk exits 69 for systemd to restart it. Its own \
            socket (--status-socket) answers io.appstate.kiosk: its status and a screenshot.

            EXAMPLE
              $ cage -- appstate-kiosk --tree lobby --home https://kiosk.example/
            """
    )

    @OptionGroup var daemon: DaemonSocketOption

    @Option(help: ArgumentHelp("The tree to show; the daemon's first tree when absent.", valueName: "name"))
    var tree: String?

    @Option(help: ArgumentHelp("The browser: a path, or a name on PATH.", valueName: "path"), completion: .file())
    var browser = "chromium"

    @Option(
        name: .customLong("browser-arg"),
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "An argument passed on to the browser as given, e.g. --browser-arg=--headless=new; repeat for each.",
            valueName: "arg"))
    var browserArguments: [String] = []

    @Option(help: ArgumentHelp("The page to show when no current node has a url.", valueName: "url"))
    var home: String?

    @Option(
        name: .customLong("liveness-interval"),
        help: ArgumentHelp("How often the page is asked for a sign of life, in seconds.", valueName: "seconds"))
    var livenessInterval = 2.0

    @Option(
        name: .customLong("hang-timeout"),
        help: ArgumentHelp(
            "How long a page may give no sign of life before it is reloaded, and a reload may take before the browser is restarted, in seconds.",
            valueName: "seconds"))
    var hangTimeout = 10.0

    @Option(
        name: .customLong("max-restarts"),
        help: ArgumentHelp(
            "Restarts of the browser allowed within --restart-window; one more exits non-zero, for systemd to restart.", valueName: "count"))
    var maximumRestarts = 5

    @Option(
        name: .customLong("restart-window"),
        help: ArgumentHelp("The span over which restarts are counted, in seconds.", valueName: "seconds"))
    var restartWindow = 300.0

    @Option(
        name: .customLong("status-socket"),
        help: ArgumentHelp(
            "appstate-kiosk's own socket (io.appstate.kiosk: its status, a screenshot).",
            discussion: "Default: io.appstate.kiosk beside the daemon's socket (io.appstate.kiosk.TREE with --tree).",
            valueName: "path"),
        completion: .file())
    var statusSocket: String?

    @Option(
        help: ArgumentHelp(
            "The output switched off while the screen is blanked, e.g. HDMI-A-1; every output when absent.",
            discussion: "Through the compositor's wlr-output-power-management where it offers it (sway does, cage 0.1.4 does not).",
            valueName: "name"))
    var output: String?

    func validate() throws {
        for (name, value) in [("--liveness-interval", livenessInterval), ("--hang-timeout", hangTimeout), ("--restart-window", restartWindow)]
        where !(value > 0 && value <= 86_400) {
            throw ValidationError("\(name) takes a number of seconds above 0 and at most 86400, and \(value) is not one")
        }
        guard maximumRestarts >= 0 else { throw ValidationError("--max-restarts takes a count of 0 or more") }
        if output?.isEmpty == true { throw ValidationError("--output takes an output's name, e.g. HDMI-A-1") }
        if let home, !KioskURL.isShowable(home) {
            throw ValidationError("--home takes an http, https or file URL, and \(home) is not one")
        }
    }

    func run() throws {
        let log = KioskLog()
        do {
            let recovery = KioskRecovery(
                livenessInterval: .seconds(livenessInterval), hangTimeout: .seconds(hangTimeout), maximumRestarts: maximumRestarts,
                restartWindow: .seconds(restartWindow))
            var configuration = KioskConfiguration(
                socketPath: try daemon.path(), tree: tree, browser: browser, browserArguments: browserArguments, home: home,
                recovery: recovery)
            configuration.statusSocket = statusSocket
            configuration.output = output
            let driver = KioskDriver(configuration: configuration)
            // The main thread is the event loop of the status socket, and its way to the main actor.
            try MainThreadEventLoop.run { eventLoop, runner in
                try await driver.run(eventLoop: eventLoop, runner: runner)
            }
        } catch let error as CtlError {
            log.error(error.message)
            throw ExitCode(error.exitCode)
        } catch let error as KioskError {
            log.error(error.description)
            throw ExitCode(error.exitStatus)
        }
    }

}
