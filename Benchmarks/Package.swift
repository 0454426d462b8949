// swift-tools-version:6.1
import PackageDescription

// The benchmark harness of the performance targets (BENCHMARKS.md), kept
// apart from the root package (as swift-nio does)
// so that the project's build and CI never resolve or compile the benchmark tool.
// Run it all with scripts/benchmark, which writes BENCHMARKS.md.
let benchmark: Target.Dependency = .product(name: "Benchmark", package: "benchmark")
let benchmarkPlugin: Target.PluginUsage = .plugin(name: "BenchmarkPlugin", package: "benchmark")

let package = Package(
    name: "appstate-benchmarks",
    dependencies: [
        // Named, because a path dependency is otherwise known by its directory's name, which
        // differs between a clone, a worktree and CI.
        .package(name: "appstate", path: ".."),
        // The only trait: the default RuntimeInterposer needs a package this machine's mirror
        // does not have.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(name: "BenchmarkSupport", dependencies: [benchmark]),
        .target(
            name: "BusWorkloads",
            dependencies: [
                .product(name: "AppStateCore", package: "appstate"), .product(name: "StateContainers", package: "appstate"),
            ]),
        .executableTarget(name: "BusProfile", dependencies: ["BusWorkloads"]),
        .executableTarget(
            name: "BusBenchmarks",
            dependencies: [benchmark, "BenchmarkSupport", "BusWorkloads"],
            path: "Benchmarks/BusBenchmarks",
            plugins: [benchmarkPlugin]
        ),
        .executableTarget(
            name: "ModelBenchmarks",
            dependencies: [
                benchmark, "BenchmarkSupport",
                .product(name: "AppStateCore", package: "appstate"), .product(name: "StateContainers", package: "appstate"),
            ],
            path: "Benchmarks/ModelBenchmarks",
            plugins: [benchmarkPlugin]
        ),
        .executableTarget(
            name: "IPCBenchmarks",
            dependencies: [benchmark, "BenchmarkSupport", .product(name: "AppStateIPC", package: "appstate")],
            path: "Benchmarks/IPCBenchmarks",
            plugins: [benchmarkPlugin]
        ),
    ],
    swiftLanguageModes: [.v6]
)
