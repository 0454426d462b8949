import AppStateHTTP
import Synchronization

/// The gateway's upstream `Watch`es, one per tree and subtree that pages follow: made when
/// the first page asks, stopped when the last one leaves, so that an idle gateway holds no
/// connection to the daemon, and bounded in number, so that pages asking for ever new paths
/// cannot make it open connections without end.
final class WatchFeeds: Sendable {
    /// How many different trees and subtrees may be followed at once.
    static let maximumFeeds = 64

    private let socketPath: String
    private let statistics: GatewayStatistics
    private let epochs = EpochNames()
    private let feeds = Mutex<[WatchKey: WatchFeed]>([:])

    init(socketPath: String, statistics: GatewayStatistics) {
        self.socketPath = socketPath
        self.statistics = statistics
    }

    /// Adds a page to the feed of what it follows, starting the feed if need be.
    /// - Parameters:
    ///   - request: What the page asked for.
    ///   - exchange: Where to answer, with the header fields the access policy granted.
    /// - Throws: ``GatewayRefusal/tooManyWatches(limit:)`` when as many feeds run as may.
    func subscribe(_ request: WatchRequest, exchange: HTTPExchange) throws(GatewayRefusal) {
        try feeds.withLock { feeds throws(GatewayRefusal) in
            if let feed = feeds[request.key], feed.subscribe(request, exchange: exchange) != nil { return }
            feeds[request.key] = nil
            guard feeds.count < Self.maximumFeeds else { throw .tooManyWatches(limit: Self.maximumFeeds) }
            let feed = WatchFeed(
                key: request.key, socketPath: socketPath, makeEpoch: epochs.next, statistics: statistics,
                onEnded: { [weak self] feed in self?.remove(feed) },
                onStreamClosed: { [weak self] feed, subscriber in self?.unsubscribe(subscriber, from: feed) })
            feeds[request.key] = feed
            _ = feed.subscribe(request, exchange: exchange)
            feed.start()
        }
    }

    /// How many pages follow the daemon through the gateway.
    var streamCount: Int {
        feeds.withLock { $0.values.reduce(0) { $0 + $1.streamCount } }
    }

    /// How many upstream `Watch`es run.
    var feedCount: Int {
        feeds.withLock { $0.count }
    }

    /// Sends a comment on every stream.
    func keepAlive() {
        for feed in feeds.withLock({ Array($0.values) }) { feed.keepAlive() }
    }

    /// Stops every feed.
    func stopAll() {
        let stopped = feeds.withLock { feeds in
            defer { feeds = [:] }
            return Array(feeds.values)
        }
        for feed in stopped { feed.stop() }
    }

    private func unsubscribe(_ subscriber: Int, from feed: WatchFeed) {
        feeds.withLock { feeds in
            guard feed.unsubscribe(subscriber), feeds[feed.key] === feed else { return }
            feeds[feed.key] = nil
            feed.stop()
        }
    }

    private func remove(_ feed: WatchFeed) {
        feeds.withLock { feeds in
            if feeds[feed.key] === feed { feeds[feed.key] = nil }
        }
        feed.stop()
    }
}
