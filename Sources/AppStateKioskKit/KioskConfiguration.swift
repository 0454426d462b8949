/// What `appstate-kiosk` runs: which daemon and tree it follows, and which browser shows it.
public struct KioskConfiguration: Sendable {
    /// The daemon's socket.
    public var socketPath: String
    /// The tree to show; nil for the daemon's first tree.
    public var tree: String?
    /// The browser: a path, or a name looked up on `PATH`.
    public var browser: String
    /// Arguments passed on to the browser as given, after appstate-kiosk's own.
    public var browserArguments: [String]
    /// The page to show when no current node has a url.
    public var home: String?
    /// How the browser is watched and brought back.
    public var recovery: KioskRecovery
    /// appstate-kiosk's own Varlink socket (its status, a screenshot), which it reports to the
    /// daemon; nil for the default, beside the daemon's socket.
    public var statusSocket: String?
    /// The output switched off while the screen is blanked; nil for every output.
    public var output: String?

    /// The arguments every browser gets before the user's: no first-run or crash dialogs, no
    /// keyring prompt, full screen; `--remote-debugging-pipe` is added by ``BrowserProcess``.
    public static let defaultBrowserArguments = [
        "--kiosk", "--no-first-run", "--no-default-browser-check", "--noerrdialogs", "--disable-session-crashed-bubble",
        "--password-store=basic", "--disable-features=Translate",
    ]

    /// A configuration.
    /// - Parameters:
    ///   - socketPath: The daemon's socket.
    ///   - tree: The tree to show; nil for the first.
    ///   - browser: The browser's path or name.
    ///   - browserArguments: Arguments for the browser.
    ///   - home: The page shown when no current node has a url.
    ///   - recovery: How the browser is watched and brought back.
    public init(
        socketPath: String, tree: String? = nil, browser: String = "chromium", browserArguments: [String] = [], home: String? = nil,
        recovery: KioskRecovery = KioskRecovery()
    ) {
        self.socketPath = socketPath
        self.tree = tree
        self.browser = browser
        self.browserArguments = browserArguments
        self.home = home
        self.recovery = recovery
    }
}
