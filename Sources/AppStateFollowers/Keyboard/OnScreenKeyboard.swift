import AppStateIPC
import Logging
import NIOConcurrencyHelpers
import ServicePorts

/// The on-screen keyboard the daemon follows (`--follow-osk`) and asks to show or hide itself
/// (``SystemKeyboard``, for `RequestKeyboard`): its ``follower``, which the roster runs, and
/// the requests. A request goes to the keyboard the follower follows, with that keyboard's
/// call (``OnScreenKeyboardKind/visibilityRequest(_:)``), on a thread and a session bus
/// connection of its own, as ``LogindSessionLocker``'s lock does: neither the main actor nor
/// the follower's thread waits for the keyboard. Requests go out one after another in the
/// order they came, on one connection while they keep coming; the thread ends when none is
/// left, so an idle daemon holds no thread for them.
package final class OnScreenKeyboard: SystemKeyboard {
    private struct Request {
        let kind: OnScreenKeyboardKind
        let visible: Bool
        let answer: @Sendable (Result<Void, VarlinkError>) -> Void
    }

    private struct Requests {
        var waiting: [Request] = []
        /// Whether a thread sends them.
        var sending = false
    }

    /// Follows the keyboards' visibility on its own thread; the roster starts and stops it.
    let follower: BusFollower
    /// The keyboard the follower follows now. A pthread mutex (NIOLockedValueBox), which
    /// ThreadSanitizer sees, unlike `Synchronization.Mutex`'s futex on Linux.
    private let followed: NIOLockedValueBox<OnScreenKeyboardKind?>
    private let requests = NIOLockedValueBox(Requests())
    private let logger: Logger

    /// Makes the follower, not yet started.
    /// - Parameters:
    ///   - choice: The keyboards it may follow.
    ///   - logger: Where the follower and failed requests log.
    ///   - deliver: Called on the follower's thread with each change of visibility.
    init(choice: OnScreenKeyboardChoice, logger: Logger, deliver: @escaping @Sendable (Bool) -> Void) {
        let followed = NIOLockedValueBox<OnScreenKeyboardKind?>(nil)
        self.followed = followed
        self.logger = logger
        follower = BusFollower(
            OnScreenKeyboardSource(choice: choice, following: { kind in followed.withLockedValue { $0 = kind } }, deliver: deliver),
            logger: logger)
    }

    package func request(visible: Bool, answer: @escaping @Sendable (Result<Void, VarlinkError>) -> Void) {
        let status = follower.status
        guard status.isConnected, let kind = followed.withLockedValue({ $0 }) else {
            let reason = status.isConnected ? "the keyboard follower has not chosen a keyboard yet" : status.detail
            return answer(.failure(.noKeyboardFollowed(reason: reason)))
        }
        let start = requests.withLockedValue { requests in
            requests.waiting.append(Request(kind: kind, visible: visible, answer: answer))
            defer { requests.sending = true }
            return !requests.sending
        }
        guard start else { return }
        let result = DetachedThread.start { self.send() }
        if result != 0 {
            let refused = requests.withLockedValue { requests in
                defer { requests = Requests() }
                return requests.waiting
            }
            for request in refused {
                request.answer(
                    .failure(.keyboardRequestFailed(keyboard: request.kind.displayName, reason: "appstated cannot start a thread to ask it")))
            }
        }
    }

    /// Sends the requests waiting, in order, until none is left; on the requests' thread.
    private func send() {
        var connection: BusConnection?
        while let request = next() {
            let call = request.kind.visibilityRequest(request.visible)
            do throws(BusError) {
                if connection == nil { connection = try BusConnection(.session) }
                _ = try connection?.call(call)
                logger.debug("asked \(request.kind.displayName): \(call.description)")
                request.answer(.success(()))
            } catch {
                // A keyboard's error leaves the connection usable; a broken one is opened again.
                if connection?.isOpen != true { connection = nil }
                logger.warning("\(request.kind.displayName) did not do what was asked (\(call.description)): \(error)")
                request.answer(.failure(.keyboardRequestFailed(keyboard: request.kind.displayName, reason: error.description)))
            }
        }
    }

    /// The next request, or nil when none is left; the thread then ends, and the next request
    /// starts another.
    private func next() -> Request? {
        requests.withLockedValue { requests in
            guard !requests.waiting.isEmpty else {
                requests.sending = false
                return nil
            }
            return requests.waiting.removeFirst()
        }
    }
}
