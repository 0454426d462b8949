import Benchmark
import BenchmarkSupport
import BusWorkloads

/// The bus figures of the performance targets (BENCHMARKS.md): posting to
/// 1, 10 and 100 observers on the bus, on Foundation's
/// `NotificationCenter` (the baseline of the speed-up target) and by calling the same observers
/// directly (the floor), each named `<kind> post <observers>`.
let benchmarks: @Sendable () -> Void = {
    for observers in [1, 10, 100] {
        for kind in WorkloadKind.allCases {
            Benchmark.onMainActor(
                "\(kind.rawValue) post \(observers)",
                operations: 1000,
                makeFixture: { kind.make(observers: observers, counter: Counter()) },
                body: { workload, operations in workload.post(times: operations) }
            )
        }
    }
}
