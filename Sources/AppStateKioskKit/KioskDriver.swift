import AppStateCore
import AppStateIPC
import Glibc
import NIOCore
import ServicePorts
import UnixSignals
import VarlinkServer

/// Runs the kiosk: starts the browser and a ``KioskSupervisor`` for it, feeds the supervisor
/// the tree's changes (followed with `Watch`), a tick every liveness interval and SIGTERM or
/// SIGINT, and returns once the browser is stopped.
public struct KioskDriver: Sendable {
    private let configuration: KioskConfiguration
    private let log = KioskLog()

    /// A driver for a configuration; nothing starts before ``run()``.
    /// - Parameter configuration: What to run.
    public init(configuration: KioskConfiguration) {
        self.configuration = configuration
    }

    /// Runs until SIGTERM or SIGINT, then stops the browser and returns.
    /// - Parameters:
    ///   - eventLoop: The event loop of the main thread, which serves the status socket.
    ///   - runner: The way to the main actor on that loop.
    /// - Throws: ``KioskError`` when the browser cannot be started, or cannot be brought back.
    package func run(eventLoop: any EventLoop, runner: any MainActorRunner) async throws(KioskError) {
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        // A browser that died leaves its command pipe without a reader: writing to it must fail
        // with EPIPE, not end this process.
        signal(SIGPIPE, SIG_IGN)
        let profile = try KioskProfile(arguments: configuration.browserArguments)
        defer { profile.remove() }
        let (inputs, continuation) = AsyncStream<KioskInput>.makeStream()
        let supervisor = KioskSupervisor(
            configuration: configuration,
            arguments: KioskConfiguration.defaultBrowserArguments + profile.arguments + configuration.browserArguments + ["about:blank"],
            log: log, inputs: continuation)
        let statusPath =
            configuration.statusSocket ?? KioskStatusSocket.defaultPath(besides: configuration.socketPath, tree: configuration.tree)
        let listener: VarlinkListener?
        do {
            listener = try await KioskStatusSocket.serve(
                at: statusPath, besides: configuration.socketPath, supervisor: supervisor, eventLoop: eventLoop, runner: runner)
            await supervisor.serving(statusSocket: statusPath)
        } catch {
            log.warn("cannot serve the status socket \(statusPath) (\(error)); running without it")
            listener = nil
        }
        do {
            try await supervise(supervisor, inputs: inputs, continuation: continuation, signals: signals)
        } catch {
            await listener?.drain()
            throw error
        }
        await listener?.drain()
    }

    private func supervise(
        _ supervisor: KioskSupervisor, inputs: AsyncStream<KioskInput>, continuation: AsyncStream<KioskInput>.Continuation,
        signals: UnixSignalsSequence
    ) async throws(KioskError) {
        try await supervisor.start()
        let interval = configuration.recovery.livenessInterval
        let feeds = [
            Task { await follow(into: continuation) },
            Task {
                for await _ in signals {
                    continuation.yield(.stop)
                    return
                }
            },
            Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    continuation.yield(.tick)
                }
            },
        ]
        defer { for feed in feeds { feed.cancel() } }
        try await supervisor.run(inputs)
    }

    /// Follows the tree with `Watch`; when the daemon goes away the page stays as it is and
    /// the daemon is tried again, with a delay that grows to two seconds.
    private func follow(into inputs: AsyncStream<KioskInput>.Continuation) async {
        var delay = Duration.milliseconds(100)
        var reported: String?
        while !Task.isCancelled {
            do {
                let client = try VarlinkClient(path: configuration.socketPath, timeout: nil)
                var tree: Node?
                for try await reply in client.replies(Watch.self, Watch.Parameters(tree: configuration.tree)) {
                    guard let next = try reply.root ?? tree?.applying(reply) else { continue }
                    if tree == nil {
                        log.info("following \(configuration.tree.map { "the tree \($0)" } ?? "the first tree") on \(configuration.socketPath)")
                        reported = nil
                        delay = .milliseconds(100)
                    }
                    tree = next
                    inputs.yield(.tree(next))
                }
                reported = report("appstated ended the Watch stream; following it again", unless: reported)
            } catch {
                reported = report("cannot follow appstated (\(error)); trying again", unless: reported)
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(2))
        }
    }

    /// Logs a failure once until the daemon is followed again.
    private func report(_ message: String, unless earlier: String?) -> String {
        if earlier != message { log.warn(message) }
        return message
    }
}
