import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import VarlinkIDL
import XCTest

/// The error catalogue against the interface files that declare the errors: every declared
/// error has exactly one entry and no entry names an undeclared one, each entry's example
/// (built by its factory) carries the declared members with their declared types, its
/// sentence says what its parameters hold, and its statuses are ones the programs use.
/// `docs/errors.md` is the catalogue written out.
final class ErrorCatalogueTests: AppStateTestCase {
    private static let errorsPage = "docs/errors.md"

    /// Each interface whose errors the catalogue holds, with the names its generated enum lists.
    private static func interfaces() throws -> [(definition: InterfaceDefinition, names: [String])] {
        [
            (try InterfaceDefinition(parsing: AppStateInterface.description), AppStateErrorName.allCases.map(\.rawValue)),
            (try InterfaceDefinition(parsing: VarlinkServiceInterface.description), VarlinkServiceErrorName.allCases.map(\.rawValue)),
        ]
    }

    func testCatalogue_whenAnInterfaceDeclaresErrors_thenEachHasOneEntryAndNoOther() throws {
        for (interface, names) in try Self.interfaces() {
            let declared = interface.errors.map { "\(interface.name).\($0.name)" }
            XCTAssertGreaterThan(declared.count, 5, "\(interface.name) declares no errors this test can read")
            XCTAssertEqual(names, declared, "the catalogue's names of \(interface.name) are not the file's")
            for name in declared {
                XCTAssertEqual(ErrorCatalogue.entry(for: name)?.example.name, name, "\(name): no entry, or one whose example is another error")
            }
        }
        XCTAssertEqual(
            ErrorCatalogue.all.map(\.example.name),
            try Self.interfaces().flatMap { interface, _ in interface.errors.map { "\(interface.name).\($0.name)" } },
            "the catalogue's entries are not the declared errors, in the files' order")
        XCTAssertNil(ErrorCatalogue.entry(for: "io.appstate.NoSuchThing"))
        XCTAssertNil(ErrorCatalogue.entry(for: "io.appstate.GetTree"))
    }

    /// The factories' parameters are the interface's: no undeclared member, every required
    /// member, each with its declared type.
    func testExamples_whenBuiltByTheirFactories_thenTheyCarryTheDeclaredMembers() throws {
        for (interface, _) in try Self.interfaces() {
            for error in interface.errors {
                let name = "\(interface.name).\(error.name)"
                guard let example = ErrorCatalogue.entry(for: name)?.example else { continue }
                let members = Dictionary(uniqueKeysWithValues: error.members.map { ($0.name, $0.type) })
                for (key, value) in example.parameters {
                    guard let type = members[key] else {
                        XCTFail("\(name): the factory sets \(key), which the interface does not declare")
                        continue
                    }
                    XCTAssertTrue(Self.value(value, isOf: type), "\(name): \(key) is \(value.jsonText), not of type \(type)")
                }
                for member in error.members where !member.type.hasPrefix("?") && example.parameters[member.name] == nil {
                    XCTFail("\(name): the factory leaves out \(member.name), which is required")
                }
            }
        }
    }

    /// A sentence is built from the error's parameters: each of the example's values is in it.
    func testSentences_whenBuiltFromTheExamples_thenTheySayEveryParameter() {
        for entry in ErrorCatalogue.all {
            let sentence = entry.sentence(for: entry.example)
            XCTAssertFalse(sentence.isEmpty)
            XCTAssertFalse(sentence.contains(entry.example.name), "\(entry.example.name)'s sentence is its name")
            for (key, value) in entry.example.parameters {
                let text = if case .string(let string) = value { string } else { value.jsonText }
                XCTAssertTrue(sentence.contains(text), "\(entry.example.name)'s sentence \"\(sentence)\" does not say its \(key)")
            }
        }
    }

    /// A gateway's status says the call failed; appstatectl's status is one of the table's,
    /// which says that appstatectl exits with it.
    func testStatuses_whenCatalogued_thenErrorStatusesTheProgramsDeclare() {
        for entry in ErrorCatalogue.all {
            XCTAssertTrue((400..<600).contains(entry.httpStatus), "\(entry.example.name): HTTP \(entry.httpStatus)")
            XCTAssertTrue(ExitStatus.all.contains(entry.exitStatus), "\(entry.example.name): exit status \(entry.exitStatus.code)")
            XCTAssertTrue(
                entry.exitStatus.uses.contains { $0.program == "appstatectl" },
                "\(entry.example.name): ExitStatus does not say that appstatectl exits \(entry.exitStatus.code)")
        }
    }

    func testMessage_whenTheErrorIsCatalogued_thenItIsTheEntrysSentence() {
        for entry in ErrorCatalogue.all {
            XCTAssertEqual(entry.example.message, entry.sentence(for: entry.example))
            XCTAssertEqual(entry.example.description, "\(entry.sentence(for: entry.example)) [\(entry.example.name)]")
        }
        XCTAssertEqual(VarlinkError(name: "io.appstate.NoSuchNode").message, "no node at ?", "a missing parameter is shown as such")
    }

    /// `docs/errors.md` is the catalogue written out. With `APPSTATE_WRITE_DOCUMENTS=1` the
    /// test writes it instead, which is how a new error reaches it.
    func testErrorsPage_whenWrittenFromTheCatalogue_thenItIsTheCommittedOne() throws {
        let url = TestPaths.repositoryRoot.appendingPathComponent(Self.errorsPage)
        let expected = try Self.errorsPageText()
        if ProcessInfo.processInfo.environment["APPSTATE_WRITE_DOCUMENTS"] == "1" {
            try expected.write(to: url, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(
            try String(contentsOf: url, encoding: .utf8), expected,
            "\(Self.errorsPage) is not the catalogue written out: run this test with APPSTATE_WRITE_DOCUMENTS=1 to write it")
    }

    // MARK: - Helpers

    /// The page of errors: each error of each interface, in the file's order, with its
    /// members, when the daemon sends it (the file's comment), its example's sentence and its
    /// statuses.
    static func errorsPageText() throws -> String {
        var lines = [
            "# Errors",
            "",
            "<!-- Written from the error catalogue by ErrorCatalogueTests (APPSTATE_WRITE_DOCUMENTS=1); do not edit. -->",
            "",
            "Every error the daemon may answer a call with: its members and when it is sent, from the",
            "interface files (`Sources/AppStateIPC/io.appstate.varlink`, then `org.varlink.service`), and",
            "what the clients make of it, from the catalogue beside them",
            "(`Sources/AppStateIPC/AppStateErrorCatalogue.swift`): the sentence `appstatectl` and",
            "`VarlinkError.message` print (here for an example of the error), the status `appstatectl`",
            "exits with ([exit-statuses.md](exit-statuses.md)) and the HTTP status `appstate-gateway`",
            "answers a page with ([gateway.md](gateway.md)). A call that fails changes nothing.",
            "",
            "| Error | Parameters | When | Sentence, e.g. | appstatectl | HTTP |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for (interface, _) in try interfaces() {
            for error in interface.errors {
                let name = "\(interface.name).\(error.name)"
                guard let entry = ErrorCatalogue.entry(for: name) else { continue }
                let members = error.members.isEmpty ? "—" : error.members.map { "`\($0.name)`" }.joined(separator: ", ")
                let cells = [
                    "`\(name)`", members, error.doc.joined(separator: " "), entry.sentence(for: entry.example),
                    "\(entry.exitStatus.code)", "\(entry.httpStatus)",
                ]
                lines.append("| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether a JSON value is of a Varlink type: `string`, `int`, `float`, `bool`, an
    /// optional of one, an array or an object.
    static func value(_ value: JSONValue, isOf type: String) -> Bool {
        let type = type.hasPrefix("?") ? String(type.dropFirst()) : type
        switch (type, value) {
        case ("string", .string): return true
        case ("int", .number(let number)): return number.rounded() == number
        case ("float", .number): return true
        case ("bool", .bool): return true
        case ("object", .object): return true
        case (_, .array): return type.hasPrefix("[]")
        default: return false
        }
    }
}
