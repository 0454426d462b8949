// swift-tools-version:6.1
import PackageDescription

// A program that talks to appstated as another package does: it depends on the AppStateIPC
// product alone, imports AppStateIPC alone, and runs the Swift examples of AppStateIPC's
// documentation, verbatim, against a daemon found at the default socket path.
// Tests/EndToEndTests/ConsumerPackagesTests.swift checks that the examples are the documents'
// own, builds this package and runs it against a real appstated.
let package = Package(
    name: "ClientConsumer",
    dependencies: [
        // Named, because a path dependency is otherwise known by its directory's name, which
        // differs between a clone, a worktree and CI.
        .package(name: "appstate", path: "../../..")
    ],
    targets: [
        .executableTarget(name: "ClientConsumer", dependencies: [.product(name: "AppStateIPC", package: "appstate")])
    ],
    swiftLanguageModes: [.v6]
)
