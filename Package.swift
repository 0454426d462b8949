// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "appstate",
    products: [
        .library(name: "AppStateCore", targets: ["AppStateCore"]),
        .library(name: "StateContainers", targets: ["StateContainers"]),
        .library(name: "AppStateIPC", targets: ["AppStateIPC"]),
        // The Varlink library alone, for any interface: its README says how to use it.
        .library(name: "Varlink", targets: ["Varlink", "VarlinkIDL", "VarlinkServer"]),
        .plugin(name: "VarlinkSwiftPlugin", targets: ["VarlinkSwiftPlugin"]),
        .executable(name: "appstated", targets: ["appstated"]),
        .executable(name: "appstatectl", targets: ["appstatectl"]),
        .executable(name: "appstate-inspect", targets: ["appstate-inspect"]),
        .executable(name: "appstate-gateway", targets: ["appstate-gateway"]),
        .executable(name: "appstate-kiosk", targets: ["appstate-kiosk"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // libyaml's event parser, for tree files: the parser Yams wraps, without Foundation.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // libwayland's client library, through which the output follower talks to the compositor.
        .systemLibrary(
            name: "CWaylandClient",
            pkgConfig: "wayland-client",
            providers: [.apt(["libwayland-dev"])]
        ),
        // The Wayland protocols beyond the core that the output follower and the kiosk speak
        // (xdg-output, wlr-output-power-management), their Swift generated at build time from
        // wayland-scanner's C by the plugin.
        .target(
            name: "WaylandProtocols", dependencies: ["CWaylandClient"], exclude: ["wlr-output-power-management-unstable-v1.xml"],
            plugins: ["WaylandScannerPlugin"]),
        .executableTarget(name: "WaylandSwiftGenerator"),
        // A Wayland client of the compositor's outputs: their layout for the output follower,
        // their power for the kiosk.
        .target(name: "WaylandOutputs", dependencies: ["AppStateCore", "CWaylandClient", "ServicePorts", "WaylandProtocols"]),
        .plugin(name: "WaylandScannerPlugin", capability: .buildTool(), dependencies: ["WaylandSwiftGenerator"]),
        // The Varlink library, which knows no interface (its README says how another project
        // serves and calls its own): JSON values and their strict codec, a leaf with no I/O;
        // the protocol's framing, messages and errors, org.varlink.service, and the clients.
        .target(name: "VarlinkJSON"),
        .target(
            name: "Varlink",
            dependencies: ["VarlinkJSON"],
            exclude: ["README.md", "org.varlink.service.varlink-swift.json"],
            resources: [.embedInCode("org.varlink.service.varlink")],
            plugins: ["VarlinkSwiftPlugin"]
        ),
        // The vocabulary the model and the wire share, with no I/O: JSON values and their
        // strict codec, geometry, node snapshots, notification names. The interface's types
        // the model builds too (a node, its rectangle and insets) are generated from
        // io.appstate.varlink by the same plugin as AppStateIPC's methods.
        .target(name: "AppStateCore", dependencies: ["VarlinkJSON"], plugins: ["VarlinkSwiftPlugin"]),
        .target(
            name: "StateContainers",
            dependencies: ["AppStateCore"],
            resources: [.embedInCode("default-tree.json")]
        ),
        .target(
            name: "AppStateIPC",
            dependencies: ["AppStateCore", "Varlink"],
            exclude: ["io.appstate.varlink-swift.json"],
            resources: [.embedInCode("io.appstate.varlink")],
            plugins: ["VarlinkSwiftPlugin"]
        ),
        // A reader of Varlink interface files, for the generator and the tests.
        .target(name: "VarlinkIDL"),
        .executableTarget(name: "VarlinkSwiftGenerator", dependencies: ["VarlinkIDL"]),
        .plugin(name: "VarlinkSwiftPlugin", capability: .buildTool(), dependencies: ["VarlinkSwiftGenerator"]),
        // The ports between the server, the host and the followers: protocols and the values
        // that cross them, so that each side builds and tests without the others.
        .target(name: "ServicePorts", dependencies: ["AppStateCore", "AppStateIPC", "Varlink"]),
        // A Varlink server on swift-nio, for any interface: framing, connections, watchers.
        .target(
            name: "VarlinkServer",
            dependencies: [
                "Varlink",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Tree files in YAML (libyaml's event parser) or JSON, read into the model's specs, and
        // the daemon's policy for each tree beside them: its idle steps, the logind seat and the
        // output it follows.
        .target(name: "TreeFiles", dependencies: ["AppStateCore", "CYAML", "StateContainers"]),
        // The trees on the main actor: calls, commits and rollbacks, persistence, access.
        .target(
            name: "AppStateHost",
            dependencies: [
                "AppStateCore",
                "AppStateIPC",
                "ServicePorts",
                "StateContainers",
                "TreeFiles",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // What the daemon follows: logind and the on-screen keyboards on D-Bus, through sd-bus,
        // and the compositor's outputs, through libwayland.
        .target(
            name: "AppStateFollowers",
            dependencies: [
                "AppStateCore",
                "AppStateIPC",
                "CSystemd",
                "ServicePorts",
                "WaylandOutputs",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The daemon composed: its services, and its life under systemd.
        .target(
            name: "AppStateDaemon",
            dependencies: [
                "AppStateFollowers",
                "AppStateHost",
                "AppStateIPC",
                "CSystemd",
                "ServicePorts",
                "StateContainers",
                "TreeFiles",
                "VarlinkServer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "appstated",
            dependencies: [
                "AppStateDaemon",
                "AppStateFollowers",
                "AppStateIPC",
                "TreeFiles",
                "VarlinkServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // How a tree, a status and a Watch event read in a terminal and as SVG: appstatectl's
        // and the inspector's, with no argument parser.
        .target(name: "AppStateRendering", dependencies: ["AppStateCore", "AppStateIPC", "Varlink"]),
        .target(name: "AppStateCtlKit", dependencies: ["AppStateCore", "AppStateIPC", "AppStateRendering"]),
        // The options the daemon's clients share (`--socket`), for ArgumentParser commands.
        .target(
            name: "AppStateOptions",
            dependencies: ["AppStateCtlKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "appstatectl",
            dependencies: [
                "AppStateCore",
                "AppStateCtlKit",
                "AppStateIPC",
                "AppStateRendering",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The HTTP stack of the daemon's web front-ends (the inspector and the gateway), on
        // NIOHTTP1: whole requests within limits, tokens, event streams, socket activation.
        // Its own target, so that appstatectl links no NIO.
        .target(
            name: "AppStateHTTP",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // What the web front-ends share above AppStateHTTP, which stays free of the daemon's
        // client: the Watch follower with the one reconnect rule, and the services they run
        // in a ServiceGroup.
        .target(
            name: "AppStateWebServices",
            dependencies: [
                "AppStateCore",
                "AppStateCtlKit",
                "AppStateHTTP",
                "AppStateIPC",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The live inspector: follows Watch, serves its page on AppStateHTTP.
        .target(
            name: "AppStateInspectKit",
            dependencies: [
                "AppStateCore",
                "AppStateHTTP",
                "AppStateIPC",
                "AppStateCtlKit",
                "AppStateRendering",
                "AppStateWebServices",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.embedInCode("inspector.html")]
        ),
        .executableTarget(
            name: "appstate-inspect",
            dependencies: [
                "AppStateHTTP",
                "AppStateInspectKit",
                "AppStateCtlKit",
                "AppStateOptions",
                "AppStateWebServices",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The web gateway: the daemon's calls and Watch over HTTP for kiosk pages, with
        // appstate.js and the example kiosk page embedded.
        .target(
            name: "AppStateGatewayKit",
            dependencies: [
                "AppStateCore",
                "AppStateHTTP",
                "AppStateIPC",
                "AppStateWebServices",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // Kiosk is the example kiosk page, which examples/web-kiosk/README.md describes.
            resources: [
                .embedInCode("appstate.js"),
                .embedInCode("Kiosk/index.html"),
                .embedInCode("Kiosk/kiosk.css"),
                .embedInCode("Kiosk/kiosk.js"),
            ]
        ),
        .executableTarget(
            name: "appstate-gateway",
            dependencies: [
                "AppStateCtlKit",
                "AppStateGatewayKit",
                "AppStateHTTP",
                "AppStateIPC",
                "AppStateOptions",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The kiosk: one browser driven over the DevTools protocol on its pipe, showing a tree.
        .target(
            name: "AppStateKioskKit",
            dependencies: [
                "AppStateCore",
                "AppStateIPC",
                "ServicePorts",
                "VarlinkServer",
                "WaylandOutputs",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            exclude: ["io.appstate.kiosk.varlink-swift.json"],
            resources: [.embedInCode("io.appstate.kiosk.varlink")],
            plugins: ["VarlinkSwiftPlugin"]
        ),
        .executableTarget(
            name: "appstate-kiosk",
            dependencies: [
                "AppStateCtlKit",
                "AppStateKioskKit",
                "AppStateOptions",
                "VarlinkServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Varlink's certification (org.varlink.certification) on the Varlink library alone: the
        // service and the client, checked against Varlink's Python and Go implementations.
        .target(
            name: "VarlinkCertification",
            dependencies: ["Varlink"],
            exclude: ["org.varlink.certification.varlink-swift.json"],
            resources: [.embedInCode("org.varlink.certification.varlink")],
            plugins: ["VarlinkSwiftPlugin"]
        ),
        .executableTarget(
            name: "appstate-varlink-certification",
            dependencies: [
                "Varlink",
                "VarlinkCertification",
                "VarlinkServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // A test harness, not a product: kills the daemon under mutations, or replays power
        // cuts. An executable so that scripts/crashtest can run long campaigns of it.
        .executableTarget(
            name: "appstate-crashtest",
            dependencies: [
                "AppStateCore",
                "AppStateIPC",
                "TestSupport",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/CrashTest"
        ),
        // What every test target needs to start other programs safely.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Stand-ins for the other side of the service's ports, for tests of one side alone.
        .target(
            name: "ServiceTestDoubles",
            dependencies: ["AppStateIPC", "ServicePorts", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            path: "Tests/ServiceTestDoubles"
        ),
        .testTarget(name: "AppStateCoreTests", dependencies: ["AppStateCore", "TestSupport"]),
        .testTarget(name: "StateContainersTests", dependencies: ["AppStateCore", "StateContainers", "TestSupport"]),
        .testTarget(name: "AppStateIPCTests", dependencies: ["AppStateCore", "AppStateIPC", "TestSupport", "VarlinkIDL"]),
        .testTarget(
            name: "VarlinkServerTests",
            dependencies: [
                "AppStateCore",
                "AppStateIPC",
                "ServicePorts",
                "ServiceTestDoubles",
                "TestSupport",
                "VarlinkServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "AppStateHostTests",
            dependencies: [
                "AppStateCore",
                "AppStateHost",
                "AppStateIPC",
                "ServicePorts",
                "ServiceTestDoubles",
                "StateContainers",
                "TestSupport",
                "TreeFiles",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "TreeFilesTests", dependencies: ["StateContainers", "TestSupport", "TreeFiles", "VarlinkJSON"]),
        .testTarget(
            name: "AppStateFollowersTests",
            dependencies: [
                "AppStateCore",
                "AppStateFollowers",
                "AppStateIPC",
                "CWaylandClient",
                "ServicePorts",
                "TestSupport",
                "WaylandOutputs",
                "WaylandProtocols",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "AppStateDaemonTests",
            dependencies: [
                "AppStateCore",
                "AppStateDaemon",
                "AppStateHost",
                "AppStateIPC",
                "ServicePorts",
                "StateContainers",
                "TestSupport",
                "TreeFiles",
                "VarlinkServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "CtlTests", dependencies: ["AppStateCore", "AppStateCtlKit", "AppStateIPC", "AppStateRendering", "TestSupport"]
        ),
        .testTarget(
            name: "InspectTests",
            dependencies: [
                "AppStateCore",
                "AppStateHTTP",
                "AppStateIPC",
                "AppStateInspectKit",
                "TestSupport",
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "HTTPTests",
            dependencies: [
                "AppStateHTTP",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "AppStateCore",
                "AppStateGatewayKit",
                "AppStateHTTP",
                "AppStateIPC",
                "TestSupport",
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "WebServicesTests",
            dependencies: ["AppStateCore", "AppStateIPC", "AppStateWebServices", "TestSupport"]
        ),
        .testTarget(name: "KioskTests", dependencies: ["AppStateCore", "AppStateIPC", "AppStateKioskKit", "TestSupport"]),
        .testTarget(
            name: "VarlinkCertificationTests",
            dependencies: ["TestSupport", "Varlink", "VarlinkCertification"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["AppStateCore", "AppStateHost", "AppStateIPC", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
