import Foundation

// Writes the Swift of a Wayland protocol from the C that wayland-scanner writes for it
// (`private-code`): run by the package's WaylandScannerPlugin at build time.
//
//   WaylandSwiftGenerator WAYLAND-SCANNER PROTOCOL.xml OUTPUT.swift
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: WaylandSwiftGenerator WAYLAND-SCANNER PROTOCOL.xml OUTPUT.swift\n".utf8))
    exit(64)
}
let (scannerPath, protocolFile, output) = (arguments[0], arguments[1], arguments[2])
do {
    // The scanner's C goes through a pipe rather than a file of the build: SwiftPM takes a C
    // file among a plugin's outputs for a source it would have to compile.
    let scanner = Process()
    scanner.executableURL = URL(fileURLWithPath: scannerPath)
    // Strict: a protocol file that does not follow wayland's DTD fails the build.
    scanner.arguments = ["--strict", "private-code"]
    guard let input = FileHandle(forReadingAtPath: protocolFile) else {
        FileHandle.standardError.write(Data("cannot read \(protocolFile)\n".utf8))
        exit(1)
    }
    scanner.standardInput = input
    let pipe = Pipe()
    scanner.standardOutput = pipe
    try scanner.run()
    let code = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    scanner.waitUntilExit()
    guard scanner.terminationStatus == 0 else {
        FileHandle.standardError.write(Data("\(scannerPath) private-code \(protocolFile) failed\n".utf8))
        exit(1)
    }
    let name = URL(fileURLWithPath: protocolFile).deletingPathExtension().lastPathComponent
    let emitter = SwiftProtocolEmitter(protocolName: name, code: try ScannerCode(parsing: code))
    try Data(try emitter.emit().utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("\(protocolFile): \(error)\n".utf8))
    exit(1)
}
