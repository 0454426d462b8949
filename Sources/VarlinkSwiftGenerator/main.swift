import Foundation
import VarlinkIDL

// Writes the Swift declarations of a Varlink interface: run by the build plugin on each
// interface file that a target's configuration names, so that the interface file is the one
// place its methods, their members, its types and its errors are declared.
//
//   VarlinkSwiftGenerator INPUT.varlink OUTPUT.swift [--prefix PREFIX] [--hand-written NAME]...
//                         [--type NAME[=SWIFTNAME][:ROLE]]... [--shape TYPE=MEMBERS]...
//                         [--import MODULE]... [--enums nested]
//
// With --prefix, the methods and errors too (the module that speaks the interface); --type
// places each of the interface's types (see TypePlacement); --shape names a hand-written type
// for a list of members (see SharedShape); --enums nested declares the enumerations members
// hold, nested in the struct of their member, rather than by hand.
let arguments = Array(CommandLine.arguments.dropFirst())
let usage =
    "usage: VarlinkSwiftGenerator INPUT OUTPUT [--prefix PREFIX] [--hand-written NAME]... [--type NAME[=SWIFTNAME][:ROLE]]... [--shape TYPE=MEMBERS]... [--import MODULE]... [--enums nested]\n"

/// The values of every `option VALUE` pair, in order; nil when an option lacks its value or
/// an argument is not an option.
func values(in options: ArraySlice<String>) -> [String: [String]]? {
    var found: [String: [String]] = [:]
    var index = options.startIndex
    while index < options.endIndex {
        guard options[index].hasPrefix("--"), index + 1 < options.endIndex else { return nil }
        found[options[index], default: []].append(options[index + 1])
        index += 2
    }
    return found
}

guard arguments.count >= 2, let options = values(in: arguments[2...]),
    Set(options.keys).isSubset(of: ["--prefix", "--hand-written", "--type", "--shape", "--import", "--enums"]),
    (options["--prefix"]?.count ?? 0) <= 1,
    (options["--enums"] ?? ["nested"]) == ["nested"]
else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
let input = arguments[0]
let output = arguments[1]
do {
    let text = try String(contentsOfFile: input, encoding: .utf8)
    let interface = try InterfaceDefinition(parsing: text)
    let placements = try (options["--type"] ?? []).map { spec throws(InterfaceDefinitionError) in try TypePlacement(parsing: spec) }
    let shapes = try (options["--shape"] ?? []).map { spec throws(InterfaceDefinitionError) in try SharedShape(parsing: spec) }
    var emitter = SwiftEmitter(
        interface: interface, prefix: options["--prefix"]?.first, handWritten: Set(options["--hand-written"] ?? []),
        placements: placements, imports: options["--import"] ?? [], sharedShapes: shapes, generatesEnums: options["--enums"] != nil
    )
    let swift = try emitter.emit()
    try Data(swift.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("\(input): \(error)\n".utf8))
    exit(1)
}
