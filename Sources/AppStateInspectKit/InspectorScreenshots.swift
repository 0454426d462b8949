import AppStateCtlKit
import AppStateHTTP
import AppStateIPC
import Foundation
import Synchronization

/// Takes the screenshots the page shows beside the tree: a PNG of what the tree's kiosk
/// shows now, through the daemon's `GetKiosk` and the kiosk's `Screenshot`, on a thread of
/// its own, as the client's calls block. One at a time: requests that come while one is
/// taken get its answer, so that many open pages cost the kiosk no more than one.
public final class InspectorScreenshots: Sendable {
    /// How long the daemon and the kiosk may take.
    static let timeout = Duration.seconds(10)

    private let socketPath: String
    private let tree: String?
    /// The answers waited for while a screenshot is taken; nil while none is.
    private let waiting = Mutex<[@Sendable (HTTPResponse) -> Void]?>(nil)

    /// A taker for the tree an inspector follows.
    /// - Parameters:
    ///   - socketPath: The daemon's socket.
    ///   - tree: The tree; the daemon's first when nil.
    public init(socketPath: String, tree: String?) {
        self.socketPath = socketPath
        self.tree = tree
    }

    /// Takes a screenshot, or joins the one being taken.
    /// - Parameter answer: Called once, from the taker's thread, with the PNG (200), the
    ///   sentence `appstatectl screenshot` says for the daemon's `NoKiosk` (404), or why the
    ///   daemon or the kiosk could not answer (503).
    public func take(_ answer: @escaping @Sendable (HTTPResponse) -> Void) {
        let first = waiting.withLock { waiting in
            guard waiting != nil else {
                waiting = [answer]
                return true
            }
            waiting?.append(answer)
            return false
        }
        guard first else { return }
        Thread.detachNewThread { [self] in
            let response = respond()
            let answers = waiting.withLock { waiting in
                defer { waiting = nil }
                return waiting ?? []
            }
            for answer in answers { answer(response) }
        }
    }

    private func respond() -> HTTPResponse {
        do {
            let client = try VarlinkClient(path: socketPath, timeout: Self.timeout)
            let screenshot = try KioskScreenshot.take(from: client, tree: tree, timeout: Self.timeout)
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: screenshot.png)
        } catch let error as VarlinkError where error.name == "io.appstate.NoKiosk" {
            return .text(status: 404, CtlError(error).message)
        } catch {
            return .text(status: 503, CtlError(error).message)
        }
    }
}
