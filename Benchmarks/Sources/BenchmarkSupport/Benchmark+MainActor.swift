@preconcurrency import Benchmark

extension Benchmark {
    /// What the harness measures: wall clock and heap allocations. The ARC metrics crash the
    /// Swift 6.3 runtime on Linux without the runtime interposer, which this machine's package
    /// mirror lacks, and `perf` counters are not available in these VMs: scripts/benchmark
    /// counts instructions, retains and releases with callgrind instead.
    public static let harnessMetrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]

    /// Registers a benchmark of the model, which lives on the main actor.
    ///
    /// The benchmark tool runs bodies on a thread of its own; this one hops to the main actor
    /// and starts the measurement there, so the hop is not timed. The fixture is made once,
    /// on the first iteration (a warm-up), outside the measurement.
    /// - Parameters:
    ///   - name: The figure's name; scripts/benchmark finds figures by it.
    ///   - operations: How many times `body` repeats the operation in one iteration, so that
    ///     an iteration is long enough for the clock. It is appended to the benchmark's name
    ///     as ` x<operations>`, which the script divides by.
    ///   - makeFixture: Makes what `body` works on.
    ///   - body: Performs the operation `operations` times.
    public static func onMainActor<Fixture>(
        _ name: String,
        operations: Int,
        makeFixture: @escaping @MainActor () throws -> Fixture,
        body: @escaping @MainActor (Fixture, Int) throws -> Void
    ) {
        let runner = MainActorRunner(makeFixture: makeFixture, body: body)
        Benchmark(
            "\(name) x\(operations)",
            configuration: .init(
                metrics: harnessMetrics,
                timeUnits: .nanoseconds,
                warmupIterations: 3
            )
        ) { benchmark async throws in
            try await runner.run(benchmark, operations: operations)
        }
    }
}

/// Holds a benchmark's fixture on the main actor between iterations.
@MainActor
private final class MainActorRunner<Fixture> {
    private let makeFixture: @MainActor () throws -> Fixture
    private let body: @MainActor (Fixture, Int) throws -> Void
    private var fixture: Fixture?

    nonisolated init(
        makeFixture: @escaping @MainActor () throws -> Fixture,
        body: @escaping @MainActor (Fixture, Int) throws -> Void
    ) {
        self.makeFixture = makeFixture
        self.body = body
    }

    func run(_ benchmark: Benchmark, operations: Int) throws {
        let fixture = try self.fixture ?? makeFixture()
        self.fixture = fixture
        benchmark.startMeasurement()
        try body(fixture, operations)
        benchmark.stopMeasurement()
    }
}
