/// How appstate-kiosk watches its browser and brings it back.
public struct KioskRecovery: Sendable {
    /// How often the page is asked for a sign of life.
    public var livenessInterval: Duration
    /// How long a page may give no sign of life before it is reloaded, and a reload may take
    /// before the browser is restarted.
    public var hangTimeout: Duration
    /// How many restarts of the browser `restartWindow` may hold; one more ends appstate-kiosk,
    /// for systemd's `Restart=` and the unit's start limits to take over.
    public var maximumRestarts: Int
    /// The span over which restarts are counted.
    public var restartWindow: Duration
    /// The first wait before a page that failed to load is tried again; it doubles each time.
    public var firstRetry: Duration
    /// The longest wait between tries.
    public var lastRetry: Duration

    /// The settings. The defaults ask often enough that a frozen screen is noticed within a
    /// glance, wait long enough that a slow page is not taken for a hung one, and leave a
    /// browser that keeps failing to systemd rather than restarting it forever.
    /// - Parameters:
    ///   - livenessInterval: How often the page is asked for a sign of life.
    ///   - hangTimeout: How long a page may be silent, and a reload take.
    ///   - maximumRestarts: Restarts allowed within `restartWindow`.
    ///   - restartWindow: The span over which restarts are counted.
    ///   - firstRetry: The first wait before loading a failed page again.
    ///   - lastRetry: The longest such wait.
    public init(
        livenessInterval: Duration = .seconds(2), hangTimeout: Duration = .seconds(10), maximumRestarts: Int = 5,
        restartWindow: Duration = .seconds(300), firstRetry: Duration = .seconds(1), lastRetry: Duration = .seconds(30)
    ) {
        self.livenessInterval = livenessInterval
        self.hangTimeout = hangTimeout
        self.maximumRestarts = maximumRestarts
        self.restartWindow = restartWindow
        self.firstRetry = firstRetry
        self.lastRetry = lastRetry
    }
}
