import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import VarlinkIDL
import XCTest

final class InterfaceDescriptionTests: AppStateTestCase {
    private let text = AppStateInterface.description
    private var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func testDescription_whenComparedWithTheFileInTheRepository_thenIdentical() throws {
        let file = try String(contentsOf: packageRoot.appendingPathComponent("Sources/AppStateIPC/io.appstate.varlink"), encoding: .utf8)
        XCTAssertEqual(text, file)
    }

    func testDescription_whenParsed_thenDeclaresInterfaceIOAppstate() {
        let firstCode = text.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty }
        XCTAssertEqual(firstCode, "interface io.appstate")
        XCTAssertEqual(try InterfaceDefinition(parsing: text).name, AppStateInterface.name)
        XCTAssertTrue(text.hasPrefix("#"), "the interface itself needs a doc comment")
    }

    func testDescription_whenParsed_thenEveryMethodTakesTheTreeFirst() throws {
        for method in try InterfaceDefinition(parsing: text).methods {
            XCTAssertEqual(method.input.first?.name, "tree", "\(method.name) takes tree first")
            XCTAssertEqual(method.input.first?.type, "?string", "\(method.name) takes tree first")
        }
    }

    func testDescription_whenParsed_thenEveryErrorCarriesMembers() throws {
        let file = try InterfaceDefinition(parsing: text)
        XCTAssertEqual(file.errors.map(\.name), AppStateErrorName.allCases.map(\.shortName))
        for error in file.errors {
            XCTAssertFalse(error.members.isEmpty, "\(error.name) carries fields for a sentence")
        }
    }

    func testDescription_whenParsed_thenDeclaresTheWireTypes() throws {
        XCTAssertEqual(
            Set(try InterfaceDefinition(parsing: text).types.map(\.name)),
            ["Rect", "Insets", "Node", "Event", "Follower", "FrontEnd", "IdleState", "Inhibitor"])
    }

    func testDescription_whenEveryDeclarationIsChecked_thenEachHasADocComment() {
        assertEveryMemberDocumented(text)
    }

    func testServiceDescription_whenEveryDeclarationIsChecked_thenEachHasADocComment() throws {
        assertEveryMemberDocumented(VarlinkServiceInterface.description)
        let service = try InterfaceDefinition(parsing: VarlinkServiceInterface.description)
        XCTAssertEqual(service.name, VarlinkServiceInterface.name)
        XCTAssertEqual(
            service.errors.map(\.name), VarlinkServiceErrorName.allCases.map { String($0.rawValue.dropFirst(VarlinkServiceInterface.name.count + 1)) }
        )
    }

    func testDescription_whenSearchedForTheAnyType_thenAbsent() {
        let code = text.split(separator: "\n").filter { !$0.trimmingPrefix(while: \.isWhitespace).hasPrefix("#") }
        for line in code {
            XCTAssertNil(line.firstMatch(of: /:\s*\??(\[[a-z]*\])?any\b/), String(line))
        }
    }

    func testDescription_whenParsedByPythonVarlink_thenAccepted() throws {
        let python = try pythonWithVarlink()
        for (name, description) in [("io.appstate", text), ("org.varlink.service", VarlinkServiceInterface.description)] {
            let process = Process()
            process.executableURL = python
            process.arguments = ["-c", "import sys, varlink; i = varlink.Interface(sys.stdin.read()); print(i.name, len(i.members))"]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.runAsTestChild()
            try input.fileHandleForWriting.write(contentsOf: Array(description.utf8))
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertEqual(process.terminationStatus, 0, printed)
            XCTAssertTrue(printed.hasPrefix(name + " "), printed)
        }
    }

    /// Every `interface`, `type`, `method` and `error` line, and every member line, must
    /// follow a comment line: the interface is the daemon's manual on the wire.
    private func assertEveryMemberDocumented(_ description: String, file: StaticString = #filePath, line: UInt = #line) {
        let lines = description.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingPrefix(while: \.isWhitespace) }
        var checked = 0
        for (index, current) in lines.enumerated() {
            let declares =
                current.firstMatch(of: #/^(interface|type|method|error) /#) != nil
                || current.firstMatch(of: /^[a-z][A-Za-z0-9_]*\s*:/) != nil
            guard declares else { continue }
            checked += 1
            XCTAssertTrue(index > 0 && lines[index - 1].hasPrefix("#"), "undocumented: \(current)", file: file, line: line)
        }
        XCTAssertGreaterThan(checked, 10, file: file, line: line)
    }

    private func pythonWithVarlink() throws -> URL {
        var candidates: [URL] = []
        if let venv = ProcessInfo.processInfo.environment["APPSTATE_VENV"] {
            candidates.append(URL(fileURLWithPath: venv).appendingPathComponent("bin/python"))
        }
        candidates.append(packageRoot.appendingPathComponent(".venv/bin/python"))
        return try XCTUnwrap(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "no Python venv with the varlink package at \(candidates.map(\.path)): `scripts/install-deps --test` creates it (`make test` runs it)"
        )
    }
}
