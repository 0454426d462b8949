// swift-tools-version:6.1
// The end-to-end load tool of DESIGN §9: drives a release `appstated` over its socket.
// A nested package of its own (like Benchmarks/), so the main build and CI never pay for it.
// Run it through scripts/benchmark-load, which builds everything in release.
import PackageDescription

let package = Package(
    name: "appstate-load",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "appstate", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "appstate-load",
            dependencies: [.product(name: "AppStateIPC", package: "appstate")]
        ),
    ],
    // Raw threads and sockets: language mode 5 keeps the tool short.
    swiftLanguageModes: [.v5]
)
