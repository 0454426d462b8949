import Foundation
import PackagePlugin

/// Generates the Swift of the Wayland protocols a target speaks, at build time: WaylandSwiftGenerator
/// runs wayland-scanner on the XML that Debian's wayland-protocols installs, or on one kept in the
/// target's directory for a protocol Debian does not ship, and turns the C it writes
/// (`private-code`) into Swift. SwiftPM compiles only the Swift
/// a build tool plugin writes, not C, so the interface tables are laid out from Swift; the
/// protocol files stay the source and no generated code is kept in the repository.
@main
struct WaylandScannerPlugin: BuildToolPlugin {
    /// The protocols each target speaks, by their path in the target's directory or else under
    /// wayland-protocols' directory.
    private static let protocols: [String: [String]] = [
        "WaylandProtocols": ["unstable/xdg-output/xdg-output-unstable-v1.xml", "wlr-output-power-management-unstable-v1.xml"]
    ]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let protocols = Self.protocols[target.name] else { return [] }
        let scanner = URL(fileURLWithPath: try Self.pkgConfig("wayland-scanner", variable: "wayland_scanner"))
        let directory = URL(fileURLWithPath: try Self.pkgConfig("wayland-protocols", variable: "pkgdatadir"))
        let generator = try context.tool(named: "WaylandSwiftGenerator").url
        return protocols.map { path in
            let vendored = target.directoryURL.appending(path: path)
            let file = FileManager.default.fileExists(atPath: vendored.path()) ? vendored : directory.appending(path: path)
            let name = file.deletingPathExtension().lastPathComponent
            let swift = context.pluginWorkDirectoryURL.appending(path: "\(name).swift")
            return .buildCommand(
                displayName: "Generating Swift of \(name) from wayland-scanner's private-code for \(target.name)",
                executable: generator, arguments: [scanner.path(), file.path(), swift.path()],
                inputFiles: [file, scanner], outputFiles: [swift])
        }
    }

    /// A variable of an installed package's pkg-config file, e.g. where wayland-scanner is.
    private static func pkgConfig(_ package: String, variable: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--variable=\(variable)", package]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let value = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, !value.isEmpty else {
            throw WaylandPluginError(description: "pkg-config has no \(variable) of \(package): scripts/install-deps installs it")
        }
        return value
    }
}

/// Why the plugin could not plan the generation.
struct WaylandPluginError: Error, CustomStringConvertible {
    let description: String
}
