import Synchronization

/// Names each connection of the gateway's feeds to the daemon: a prefix drawn for this run of
/// the gateway and a count, so that no two connections, of one run or of two, share a name,
/// and a page reconnecting after a restart never takes one connection's sequence numbers for
/// another's.
final class EpochNames: Sendable {
    private let prefix: String
    private let count = Atomic<Int>(0)

    init() {
        var generator = SystemRandomNumberGenerator()
        prefix = String(UInt64.random(in: .min ... .max, using: &generator), radix: 36)
    }

    /// A name no connection had before.
    func next() -> String {
        "\(prefix)-\(count.add(1, ordering: .relaxed).newValue)"
    }
}
