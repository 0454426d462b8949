import Foundation
import PackagePlugin

/// Generates the Swift declarations of a package's Varlink interface files at build time, so
/// that each interface file is the only place its methods, errors and types are declared.
///
/// The plugin knows no interface: a configuration beside each interface file says which targets
/// get Swift from it, and how. For `org.example.ping.varlink` it is
/// `org.example.ping.varlink-swift.json`, an object whose keys are target names, each with
/// the generator's options (see ``GenerationOptions``):
///
/// ```json
/// { "PingService": { "prefix": "Ping", "types": ["Answer"] } }
/// ```
///
/// The configuration is read from the package's directories, so a target excludes it from its
/// sources; the interface file is a resource of the target it lies in (`.embedInCode`).
@main
struct VarlinkSwiftPlugin: BuildToolPlugin {
    /// The suffix of a configuration file after its interface file's name.
    static let suffix = "-swift.json"

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let generator = try context.tool(named: "VarlinkSwiftGenerator").url
        return try Self.configurations(in: context.package).compactMap { configuration in
            guard let options = try GenerationOptions.forTarget(target.name, in: configuration) else { return nil }
            let interface = URL(fileURLWithPath: String(configuration.path().dropLast(Self.suffix.count)))
            guard FileManager.default.fileExists(atPath: interface.path()) else {
                throw PluginError(description: "\(configuration.path()): no interface file \(interface.lastPathComponent) beside it")
            }
            let name = interface.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appending(path: "\(name)+\(target.name).swift")
            return .buildCommand(
                displayName: "Generating Swift declarations of \(interface.lastPathComponent) for \(target.name)",
                executable: generator,
                arguments: [interface.path(), output.path()] + options.arguments,
                inputFiles: [interface, configuration],
                outputFiles: [output]
            )
        }
    }

    /// Every configuration file in the directories of the package's source modules, in the
    /// order of their paths, so that the build plan does not depend on the file system's.
    private static func configurations(in package: Package) -> [URL] {
        package.sourceModules.flatMap { module in
            let files = FileManager.default.enumerator(at: module.directoryURL, includingPropertiesForKeys: nil)
            return (files?.allObjects as? [URL] ?? []).filter { $0.lastPathComponent.hasSuffix(".varlink" + suffix) }
        }.sorted { $0.path() < $1.path() }
    }
}

/// Why the plugin could not plan the generation.
struct PluginError: Error, CustomStringConvertible {
    let description: String
}
