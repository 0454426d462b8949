import AppStateCore

/// The one page the browser shows, driven over the DevTools protocol: its URL, its viewport,
/// what its `<html>` carries, and the browser context that holds one customer's session.
///
/// The page lives in a browser context of its own (an incognito-like profile): its cookies,
/// storage, cache, service workers and history belong to that context alone, so ending a
/// customer's session is disposing of the context and opening a fresh one, which leaves no
/// origin behind, however many the customer visited.
actor KioskPage {
    private let connection: DevToolsConnection
    private let log: KioskLog
    private var context = ""
    private var target = ""
    /// The DevTools session of the page's target.
    private(set) var session = ""
    /// The script that writes the screen's properties into every new document.
    private var propertiesScript: String?
    /// The script that blanks every new document while the screen is blanked.
    private var blankScript: String?
    /// The screen last shown; nil for a fresh page.
    private var shown: KioskScreen?
    /// The URL last navigated to: pages navigate by themselves, and are left alone as long as
    /// the screen's URL stays this one.
    private var navigated: String?

    /// Opens the page in a fresh browser context and closes every other page.
    /// - Parameters:
    ///   - connection: The browser's DevTools connection.
    ///   - log: Where failures to load are reported.
    /// - Throws: ``DevToolsError`` when the browser does not answer as a browser does.
    init(connection: DevToolsConnection, log: KioskLog) async throws {
        self.connection = connection
        self.log = log
        try await openContext()
        let targets = try await connection.call("Target.getTargets")
        guard case .array(let infos)? = targets["targetInfos"] else { throw DevToolsError.unexpectedReply(method: "Target.getTargets") }
        for case .object(let info) in infos {
            guard info["type"] == .string("page"), case .string(let other)? = info["targetId"], other != target else { continue }
            _ = connection.send("Target.closeTarget", ["targetId": .string(other)])
        }
    }

    /// Shows a screen: ends the session first when the screen says a customer's session
    /// ended, then sizes the viewport, writes `<html>`'s properties, and navigates when the
    /// screen's URL differs from the last one navigated to. Commands go out together and are
    /// answered in order, in one round trip.
    /// - Parameter screen: The screen to show.
    /// - Returns: Why the page could not be loaded (`net::ERR_CONNECTION_REFUSED`…), when it
    ///   was navigated to and could not be.
    /// - Throws: ``DevToolsError`` when the browser fails.
    @discardableResult
    func show(_ screen: KioskScreen) async throws -> String? {
        if let shown, screen.endsSession(since: shown) {
            try await wipe()
        }
        let earlier = shown
        var replies: [DevToolsReply] = []
        let propertiesChanged = earlier?.documentProperties != screen.documentProperties
        var addedScript: DevToolsReply?
        if propertiesChanged {
            if let propertiesScript {
                replies.append(send("Page.removeScriptToEvaluateOnNewDocument", ["identifier": .string(propertiesScript)]))
            }
            addedScript = send("Page.addScriptToEvaluateOnNewDocument", ["source": .string(KioskScripts.documentProperties(of: screen))])
        }
        let url = screen.url.flatMap { $0 == navigated ? nil : $0 }
        // Before the viewport changes: a page that reads the properties on resize reads them new.
        if url == nil, propertiesChanged {
            replies.append(evaluate(KioskScripts.documentProperties(of: screen)))
        }
        if earlier?.viewport != screen.viewport {
            let viewport = screen.viewport
            replies.append(
                send(
                    "Emulation.setDeviceMetricsOverride",
                    ["width": .number(viewport.width), "height": .number(viewport.height), "deviceScaleFactor": 0, "mobile": false]))
        }
        var navigation: (url: String, reply: DevToolsReply)?
        if let url {
            navigation = (url, send("Page.navigate", ["url": .string(url)]))
            navigated = url
        }
        if screen.blanked != (earlier?.blanked ?? false) {
            replies.append(evaluate(screen.blanked ? KioskScripts.blank : KioskScripts.wake))
            if let blankScript {
                replies.append(send("Page.removeScriptToEvaluateOnNewDocument", ["identifier": .string(blankScript)]))
                self.blankScript = nil
            }
        }
        var addedBlankScript: DevToolsReply?
        if screen.blanked, blankScript == nil {
            addedBlankScript = send("Page.addScriptToEvaluateOnNewDocument", ["source": .string(KioskScripts.blank)])
        }
        if screen.keyboardHeight > 0, (earlier?.keyboardHeight ?? 0) == 0 {
            replies.append(evaluate(KioskScripts.revealFocused))
        }
        shown = screen
        if let addedScript, case .string(let identifier)? = try await addedScript.value["identifier"] {
            propertiesScript = identifier
        }
        if let addedBlankScript, case .string(let identifier)? = try await addedBlankScript.value["identifier"] {
            blankScript = identifier
        }
        for reply in replies { _ = try await reply.value }
        guard let navigation else { return nil }
        return try await failure(of: navigation.reply)
    }

    /// Loads the screen's page again, as after a crash: into a new renderer, since the
    /// crashed one is gone.
    /// - Returns: Why the page could not be loaded, if it could not.
    /// - Throws: ``DevToolsError`` when the browser fails.
    func reload() async throws -> String? {
        guard let url = navigated else { return nil }
        return try await failure(of: send("Page.navigate", ["url": .string(url)]))
    }

    /// Shows the offline page in place of the screen's, which stays the one to load again.
    /// - Parameter url: The tree's offline page; nil for the built-in one.
    /// - Throws: ``DevToolsError`` when the browser fails.
    func showOffline(_ url: String?) async throws {
        _ = try await send("Page.navigate", ["url": .string(url ?? KioskScripts.offlinePage)]).value
    }

    /// Whether the page answers: a script evaluated and its result returned, which a renderer
    /// that hangs or crashed never does. The caller bounds the wait.
    func isAlive() async -> Bool {
        (try? await send("Runtime.evaluate", ["expression": "1", "returnByValue": true]).value["result"]) != nil
    }

    /// What the page shows now, as a PNG of its viewport.
    /// - Throws: ``DevToolsError`` when the browser fails.
    func screenshot() async throws -> Screenshot.Reply {
        let reply = try await send("Page.captureScreenshot", ["format": "png"]).value
        guard case .string(let png)? = reply["data"] else { throw DevToolsError.unexpectedReply(method: "Page.captureScreenshot") }
        let viewport = shown?.viewport ?? Size(width: 0, height: 0)
        return Screenshot.Reply(png: png, width: Int(viewport.width), height: Int(viewport.height))
    }

    /// The cookies of the customer's session, as the browser's network service has them
    /// now: the profile's own store lags behind it.
    /// - Throws: ``DevToolsError`` when the browser fails.
    func cookies() async throws -> [JSONValue] {
        let reply = try await connection.call("Storage.getCookies", ["browserContextId": .string(context)])
        guard case .array(let cookies)? = reply["cookies"] else { throw DevToolsError.unexpectedReply(method: "Storage.getCookies") }
        return cookies
    }

    /// Sets cookies kept from an earlier browser, before the page loads.
    /// - Parameter cookies: Cookies as ``cookies()`` returned them.
    /// - Throws: ``DevToolsError`` when the browser refuses them.
    func restore(cookies: [JSONValue]) async throws {
        guard !cookies.isEmpty else { return }
        try await connection.call(
            "Storage.setCookies", ["cookies": .array(cookies.map(Self.cookieParameter)), "browserContextId": .string(context)])
    }

    /// A cookie as `Storage.getCookies` gives it, as `Storage.setCookies` takes it: without
    /// the members that only describe it, and without an expiry for a session cookie.
    private static func cookieParameter(_ cookie: JSONValue) -> JSONValue {
        guard case .object(var members) = cookie else { return cookie }
        if members["session"] == .bool(true) { members["expires"] = nil }
        for member in ["size", "session"] { members[member] = nil }
        return .object(members)
    }

    /// The error text of a navigation's reply, if it failed.
    private func failure(of navigation: DevToolsReply) async throws -> String? {
        if case .string(let error)? = try await navigation.value["errorText"] { return error }
        return nil
    }

    /// Ends the customer's session: a fresh context and page take the place of the old ones,
    /// which go with everything they held.
    private func wipe() async throws {
        let earlier = context
        try await openContext()
        try await connection.call("Target.disposeBrowserContext", ["browserContextId": .string(earlier)])
        log.info("session ended: cookies, storage, cache and history cleared")
    }

    /// Shows the screen in a new page of a new context, with the session's cookies, in place of
    /// one whose renderer hangs: pages of one site in one context share a renderer, so only a
    /// context of its own is sure to get a renderer other than the hung one. The hung context
    /// is disposed of without waiting for it.
    /// - Parameters:
    ///   - screen: The screen to show there.
    ///   - cookies: The session's cookies, as the supervisor keeps them (none after a session
    ///     ended).
    /// - Returns: Why the page could not be loaded, if it could not.
    /// - Throws: ``DevToolsError`` when the browser fails.
    func reopen(showing screen: KioskScreen, cookies: [JSONValue]) async throws -> String? {
        let hung = context
        try await openContext()
        try await restore(cookies: cookies)
        _ = connection.send("Target.disposeBrowserContext", ["browserContextId": .string(hung)])
        return try await show(screen)
    }

    private func openContext() async throws {
        let created = try await connection.call("Target.createBrowserContext")
        guard case .string(let context)? = created["browserContextId"] else {
            throw DevToolsError.unexpectedReply(method: "Target.createBrowserContext")
        }
        let page = try await connection.call("Target.createTarget", ["url": "about:blank", "browserContextId": .string(context)])
        guard case .string(let target)? = page["targetId"] else { throw DevToolsError.unexpectedReply(method: "Target.createTarget") }
        let attached = try await connection.call("Target.attachToTarget", ["targetId": .string(target), "flatten": true])
        guard case .string(let session)? = attached["sessionId"] else { throw DevToolsError.unexpectedReply(method: "Target.attachToTarget") }
        self.context = context
        self.target = target
        self.session = session
        propertiesScript = nil
        blankScript = nil
        navigated = nil
        // A fresh page has shown nothing: the next screen is shown on it in full.
        shown = nil
        let setup = [
            send("Page.enable"),
            // A binding's calls are reported only while the Runtime domain is enabled.
            send("Runtime.enable"),
            send("Runtime.addBinding", ["name": .string(KioskScripts.focusBinding)]),
            send("Runtime.addBinding", ["name": .string(KioskScripts.wakeBinding)]),
            send("Page.addScriptToEvaluateOnNewDocument", ["source": .string(KioskScripts.focus)]),
            send("Emulation.setFocusEmulationEnabled", ["enabled": true]),
        ]
        for reply in setup { _ = try await reply.value }
    }

    private func send(_ method: String, _ parameters: [String: JSONValue] = [:]) -> DevToolsReply {
        connection.send(method, parameters, session: session)
    }

    private func evaluate(_ expression: String) -> DevToolsReply {
        send("Runtime.evaluate", ["expression": .string(expression)])
    }
}
