import AppStateCore
import StateContainers

/// The name every bus workload posts.
public let workloadName: NotificationName = "benchmark.tick"

/// One way of delivering a notification to a number of observers that each count it; the
/// benchmarks time ``post(times:)`` and compare the kinds at the same observer count.
@MainActor
public protocol BusWorkload {
    /// Registers `observers` observers that count into `counter`.
    init(observers: Int, counter: Counter)

    /// Posts one notification `times` times.
    func post(times: Int)
}

/// The kinds of workload, by the names the benchmarks and the profile use.
public enum WorkloadKind: String, CaseIterable, Sendable {
    /// ``NotificationBus``.
    case bus
    /// Foundation's `NotificationCenter`: the baseline of the speed-up target.
    case notificationCenter = "center"
    /// The observers called in a loop, no bus: the floor.
    case direct

    /// Builds the workload.
    /// - Parameters:
    ///   - observers: How many observers to register.
    ///   - counter: What they count into.
    @MainActor
    public func make(observers: Int, counter: Counter) -> any BusWorkload {
        switch self {
        case .bus: BusPosting(observers: observers, counter: counter)
        case .notificationCenter: CenterPosting(observers: observers, counter: counter)
        case .direct: DirectCalls(observers: observers, counter: counter)
        }
    }
}

/// The observer every bus and floor workload registers, so that both call the same closures.
/// - Parameter counter: What it counts into.
/// - Returns: A bus observer that counts each notification.
@MainActor
func countingObserver(_ counter: Counter) -> @MainActor (BusNotification) -> Void {
    { _ in counter.value &+= 1 }
}
