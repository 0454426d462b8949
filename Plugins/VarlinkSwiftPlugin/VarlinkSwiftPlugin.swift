import PackagePlugin

/// Generates the Swift declarations of the target's interface files at build time
/// (`io.appstate.varlink`, `org.varlink.service.varlink`), so that each interface file is
/// the only place its methods and errors are declared.
@main
struct VarlinkSwiftPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let generator = try context.tool(named: "VarlinkSwiftGenerator").url
        // The Swift names' prefix of each interface, and its methods whose Swift is
        // hand-written: SetPage's index, id and step are one choice, which its Swift says.
        let interfaces = [
            "io.appstate.varlink": ["--prefix", "AppState", "--hand-written", "SetPage"],
            "org.varlink.service.varlink": ["--prefix", "VarlinkService"],
        ]
        return target.sourceFiles.compactMap { file in
            guard let options = interfaces[file.url.lastPathComponent] else { return nil }
            let output = context.pluginWorkDirectoryURL.appending(path: "\(options[1])Interface+Declarations.swift")
            return .buildCommand(
                displayName: "Generating Swift declarations of \(file.url.lastPathComponent)",
                executable: generator,
                arguments: [file.url.path(), output.path()] + options,
                inputFiles: [file.url],
                outputFiles: [output]
            )
        }
    }
}
