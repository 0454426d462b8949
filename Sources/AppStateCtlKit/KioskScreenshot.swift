import AppStateIPC

/// A PNG of what a tree's kiosk shows now: the daemon names the kiosk's socket (`GetKiosk`),
/// and the kiosk takes the picture (`io.appstate.kiosk.Screenshot`). What `appstatectl
/// screenshot` writes and the inspector shows beside the tree.
public struct KioskScreenshot: Sendable {
    /// The PNG's bytes.
    public var png: [UInt8]
    /// Its width in pixels.
    public var width: Int
    /// Its height in pixels.
    public var height: Int

    /// Asks the daemon for the tree's kiosk, and the kiosk for a screenshot.
    /// - Parameters:
    ///   - client: A client of the daemon.
    ///   - tree: The tree; the daemon's first when nil.
    ///   - timeout: How long the kiosk may take.
    /// - Throws: The daemon's `io.appstate.NoKiosk` when no kiosk that is up shows the tree,
    ///   the kiosk's `NoBrowser` while its browser restarts, a ``VarlinkClientError`` when
    ///   either cannot be reached, and ``CtlError`` when the kiosk sends no PNG.
    public static func take(from client: VarlinkClient, tree: String?, timeout: Duration) throws -> KioskScreenshot {
        let kiosk = try client.call(GetKiosk.self, GetKiosk.Parameters(tree: tree))
        let reply = try VarlinkClient(path: kiosk.socket, timeout: timeout).call(method: "io.appstate.kiosk.Screenshot")
        guard case .string(let text)? = reply["png"], let png = Base64.decode(text) else {
            throw CtlError(message: "the kiosk at \(kiosk.socket) sent no PNG", exitCode: ExitStatus.protocolError.code)
        }
        return KioskScreenshot(png: png, width: reply["width"]?.intValue ?? 0, height: reply["height"]?.intValue ?? 0)
    }
}
