// swift-tools-version:6.1
import PackageDescription

// A program that uses the model as another package does: it depends on the StateContainers
// product alone, imports StateContainers alone, and runs the Swift examples of the README and
// of StateContainers' documentation, verbatim. Tests/EndToEndTests/ConsumerPackagesTests.swift
// checks that the examples are the documents' own, builds this package and runs it.
let package = Package(
    name: "ModelConsumer",
    dependencies: [
        // Named, because a path dependency is otherwise known by its directory's name, which
        // differs between a clone, a worktree and CI.
        .package(name: "appstate", path: "../../..")
    ],
    targets: [
        .executableTarget(name: "ModelConsumer", dependencies: [.product(name: "StateContainers", package: "appstate")])
    ],
    swiftLanguageModes: [.v6]
)
