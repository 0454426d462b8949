// swift-tools-version:6.1
// The end-to-end load tool of the performance targets (BENCHMARKS.md):
// drives a release `appstated` over its socket.
// A nested package of its own (like Benchmarks/), so the main build and CI never pay for it.
// Run it through scripts/benchmark (or scripts/benchmark-load), which builds everything in release.
import PackageDescription

// The project, by path. SwiftPM names a path dependency after its last path component,
// which collides with this package's own name when the checkout itself is called "load";
// scripts/benchmark-load therefore passes a symlink named "appstate" in APPSTATE_ROOT.
let root = Context.environment["APPSTATE_ROOT"] ?? "../.."

let package = Package(
    name: "appstate-load",
    dependencies: [
        .package(path: root)
    ],
    targets: [
        .target(name: "CEpoll"),
        .executableTarget(
            name: "appstate-load",
            dependencies: ["CEpoll", .product(name: "AppStateIPC", package: "appstate")]
        ),
    ],
    // Raw threads and sockets: language mode 5 keeps the tool short.
    swiftLanguageModes: [.v5]
)
