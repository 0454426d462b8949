import Foundation
import VarlinkIDL

// Writes the Swift declarations of a Varlink interface: run by the package's build plugin
// on io.appstate.varlink, so that the interface file is the one place its methods, their
// members and its errors are declared.
//
//   VarlinkSwiftGenerator INPUT.varlink OUTPUT.swift --prefix AppState [--hand-written NAME]...
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 4, let prefixIndex = arguments.firstIndex(of: "--prefix"), prefixIndex + 1 < arguments.endIndex else {
    FileHandle.standardError.write(Data("usage: VarlinkSwiftGenerator INPUT OUTPUT --prefix PREFIX [--hand-written NAME]...\n".utf8))
    exit(64)
}
let input = arguments[arguments.startIndex]
let output = arguments[arguments.startIndex + 1]
let handWritten = Set(arguments.indices.filter { arguments[$0] == "--hand-written" && $0 + 1 < arguments.endIndex }.map { arguments[$0 + 1] })
do {
    let text = try String(contentsOfFile: input, encoding: .utf8)
    let interface = try InterfaceDefinition(parsing: text)
    var emitter = SwiftEmitter(interface: interface, prefix: arguments[prefixIndex + 1], handWritten: handWritten)
    let swift = try emitter.emit()
    try Data(swift.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("\(input): \(error)\n".utf8))
    exit(1)
}
