import AppStateFollowers
import Logging
import ServiceLifecycle

/// Runs the daemon's followers (``FollowerRoster``) from start to graceful shutdown, in the
/// daemon's service group: each on its own thread, stopped and joined before the server
/// drains, so that no follower's change arrives after the last reply.
struct FollowerService: Service {
    private let roster: FollowerRoster
    private let logger: Logger

    /// Creates the service.
    /// - Parameters:
    ///   - roster: The followers to run.
    ///   - logger: Where the service notes that it was cancelled.
    init(roster: FollowerRoster, logger: Logger) {
        self.roster = roster
        self.logger = logger
    }

    func run() async throws {
        roster.start()
        do {
            try await gracefulShutdown()
        } catch {
            // Cancelled rather than shut down gracefully: the followers stop all the same.
            logger.debug("follower service cancelled: \(error)")
        }
        await roster.stop()
    }
}
