import AppStateFollowers
import Logging
import ServiceLifecycle

/// Runs the daemon's followers (``BusFollower``) from start to graceful shutdown, in the
/// daemon's service group: each on its own thread, stopped and joined before the server
/// drains, so that no follower's change arrives after the last reply.
struct FollowerService: Service {
    private let followers: [BusFollower]
    private let logger: Logger

    /// Creates the service.
    /// - Parameters:
    ///   - followers: The followers to run.
    ///   - logger: Where a follower that cannot start goes.
    init(followers: [BusFollower], logger: Logger) {
        self.followers = followers
        self.logger = logger
    }

    func run() async throws {
        var started: [BusFollower] = []
        for follower in followers {
            do {
                try follower.start()
                started.append(follower)
            } catch {
                logger.error("\(follower.name) is not followed: \(error)")
            }
        }
        do {
            try await gracefulShutdown()
        } catch {
            // Cancelled rather than shut down gracefully: the followers stop all the same.
            logger.debug("follower service cancelled: \(error)")
        }
        for follower in started { await follower.stop() }
    }
}
