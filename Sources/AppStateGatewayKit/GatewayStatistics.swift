import Synchronization

/// Counts of what the gateway did, for its tests and its users.
public final class GatewayStatistics: Sendable {
    private let cutOff = Atomic<Int>(0)

    /// Creates zeroed counts.
    public init() {}

    /// How many event streams were disconnected because their page did not read them.
    public var streamsCutOff: Int { cutOff.load(ordering: .relaxed) }

    /// Counts a stream disconnected for not reading.
    func streamCutOff() {
        cutOff.add(1, ordering: .relaxed)
    }
}
