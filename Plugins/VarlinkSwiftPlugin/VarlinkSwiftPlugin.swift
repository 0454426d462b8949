import PackagePlugin

/// Generates the Swift declarations of `io.appstate.varlink` at build time, so that the
/// interface file is the only place the interface's methods and errors are declared.
@main
struct VarlinkSwiftPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let generator = try context.tool(named: "VarlinkSwiftGenerator").url
        return target.sourceFiles.filter { $0.url.lastPathComponent == "io.appstate.varlink" }.map { file in
            let output = context.pluginWorkDirectoryURL.appending(path: "AppStateInterface+Declarations.swift")
            return .buildCommand(
                displayName: "Generating Swift declarations of \(file.url.lastPathComponent)",
                executable: generator,
                // SetPage's index, id and step are one choice, which its hand-written Swift says.
                arguments: [file.url.path(), output.path(), "--prefix", "AppState", "--hand-written", "SetPage"],
                inputFiles: [file.url],
                outputFiles: [output]
            )
        }
    }
}
