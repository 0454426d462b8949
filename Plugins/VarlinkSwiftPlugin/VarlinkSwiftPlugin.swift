import PackagePlugin

/// Generates the Swift declarations of the package's interface files at build time, so that
/// each interface file is the only place its methods, errors and types are declared.
///
/// `io.appstate.varlink` lives with the module that speaks it (AppStateIPC), which gets its
/// methods, errors and the types only the wire uses. The types the model builds too (a node,
/// its rectangle and insets) belong to the vocabulary underneath both (AppStateCore), which
/// gets them from the same file.
@main
struct VarlinkSwiftPlugin: BuildToolPlugin {
    /// One file to generate: from which interface file, with which generator options.
    private struct Generation {
        let interface: String
        let output: String
        let options: [String]
    }

    /// What each target generates. `--type` places each type the interface declares: its
    /// struct (`declare`), the struct of its members for a type declared by hand (`members`,
    /// `box`), or only its Varlink conformance when another module declares it (`imported`).
    /// SetPage's Swift is hand-written: its index, id and step are one choice, which its Swift says.
    private static let generations: [String: [Generation]] = [
        "AppStateCore": [
            Generation(
                interface: "io.appstate.varlink", output: "AppStateTypes+Declarations.swift",
                options: [
                    "--type", "Rect:members", "--type", "Insets", "--type", "Node=NodeSnapshot:box",
                ])
        ],
        "AppStateIPC": [
            Generation(
                interface: "io.appstate.varlink", output: "AppStateInterface+Declarations.swift",
                options: [
                    "--prefix", "AppState", "--hand-written", "SetPage", "--import", "AppStateCore",
                    "--shape", "EmptyParameters=", "--shape", "TreeParameters=tree:?string", "--shape", "PathParameters=tree:?string,path:?string",
                    "--shape", "ChildParameters=tree:?string,path:?string,id:string", "--shape", "PathReply=path:string",
                    "--type", "Rect:imported", "--type", "Insets:imported", "--type", "Node:imported",
                    "--type", "Event", "--type", "Follower", "--type", "IdleState", "--type", "Inhibitor", "--type", "FrontEnd",
                ])
        ],
        "Varlink": [
            Generation(
                interface: "org.varlink.service.varlink", output: "VarlinkServiceInterface+Declarations.swift",
                options: ["--prefix", "VarlinkService", "--import", "VarlinkJSON", "--shape", "EmptyParameters="])
        ],
        // appstate-kiosk's own interface: its status and a screenshot.
        "AppStateKioskKit": [
            Generation(
                interface: "io.appstate.kiosk.varlink", output: "KioskInterface+Declarations.swift",
                options: ["--prefix", "Kiosk", "--import", "AppStateCore", "--import", "AppStateIPC", "--shape", "EmptyParameters="])
        ],
        // Varlink's certification interface, as Varlink's own implementations declare it: its
        // enumerations are generated too, since no Swift of the project stands for them.
        "VarlinkCertification": [
            Generation(
                interface: "org.varlink.certification.varlink", output: "CertificationInterface+Declarations.swift",
                options: [
                    "--prefix", "Certification", "--import", "Varlink", "--shape", "EmptyParameters=",
                    "--type", "Interface", "--type", "MyType", "--enums", "nested",
                ])
        ],
    ]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let generations = Self.generations[target.name] else { return [] }
        let generator = try context.tool(named: "VarlinkSwiftGenerator").url
        let files = context.package.sourceModules.flatMap(\.sourceFiles)
        return try generations.map { generation in
            guard let interface = files.first(where: { $0.url.lastPathComponent == generation.interface })?.url else {
                throw PluginError(description: "no target of the package has \(generation.interface)")
            }
            let output = context.pluginWorkDirectoryURL.appending(path: generation.output)
            return .buildCommand(
                displayName: "Generating Swift declarations of \(generation.interface) for \(target.name)",
                executable: generator,
                arguments: [interface.path(), output.path()] + generation.options,
                inputFiles: [interface],
                outputFiles: [output]
            )
        }
    }
}

/// Why the plugin could not plan the generation.
struct PluginError: Error, CustomStringConvertible {
    let description: String
}
