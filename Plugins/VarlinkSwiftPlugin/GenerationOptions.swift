import Foundation

/// What one target gets from one interface file: one entry of its configuration, whose members
/// are the generator's options.
struct GenerationOptions: Decodable {
    /// The prefix of the Swift names of the interface's methods and errors (`PingMethod`,
    /// `PingErrorName`), for the target that speaks the interface; absent for a target that only
    /// declares some of its types.
    var prefix: String?
    /// Where each type the interface declares goes, as `NAME[=SWIFTNAME][:ROLE]`: its struct
    /// (`declare`, the default), the struct of its members for a type declared by hand
    /// (`members`, `box`), or only its Varlink conformance when another module declares it
    /// (`imported`).
    var types: [String]?
    /// Types written by hand for one list of members, as `TYPE=name:type,...` (`TYPE=` for
    /// none), which every method's parameters or reply of those members use: the shapes a target
    /// decodes by hand, or handles alike.
    var shapes: [String]?
    /// Methods whose Swift is written by hand, which get only their name's case.
    var handWritten: [String]?
    /// The modules the generated Swift imports.
    var imports: [String]?
    /// Whether the enumerations members hold are generated, nested in their member's struct,
    /// rather than declared by hand.
    var nestedEnums: Bool?
    /// Why the target is configured so, for its readers: JSON has no comments.
    var about: String?

    /// The generator's arguments.
    var arguments: [String] {
        var arguments = prefix.map { ["--prefix", $0] } ?? []
        for module in imports ?? [] { arguments += ["--import", module] }
        for method in handWritten ?? [] { arguments += ["--hand-written", method] }
        for shape in shapes ?? [] { arguments += ["--shape", shape] }
        for type in types ?? [] { arguments += ["--type", type] }
        if nestedEnums == true { arguments += ["--enums", "nested"] }
        return arguments
    }

    /// The options of `target` in the configuration file, or nil when it names no such target.
    /// - Throws: `PluginError` when the file is not a configuration.
    static func forTarget(_ target: String, in configuration: URL) throws -> GenerationOptions? {
        do {
            return try JSONDecoder().decode([String: GenerationOptions].self, from: Data(contentsOf: configuration))[target]
        } catch {
            throw PluginError(description: "\(configuration.path()): not a configuration of targets' generator options: \(error)")
        }
    }
}
