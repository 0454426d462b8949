import AppStateIPC
import Foundation
import VarlinkIDL
import XCTest

/// The tables of methods and errors in `TheAppStateInterface.md`, written by hand beside the
/// interface files that are the one declaration of the interfaces, are read and compared with
/// those files: a method or error added to an interface fails here until the article lists it,
/// in the file's order and with its parameters.
final class InterfaceDocumentationTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let article = "Sources/AppStateIPC/AppStateIPC.docc/TheAppStateInterface.md"

    func testMethodsTable_listsEveryMethodOfTheInterfaceInItsOrder() throws {
        let interface = try Self.interface("io.appstate.varlink")
        let rows = try Self.table(under: "### Methods", in: Self.text(Self.article))
        XCTAssertEqual(rows.map { Self.symbolLink($0[0]) ?? $0[0] }, interface.methods.map(\.name),
                       "\(Self.article): the methods table lists other methods than io.appstate.varlink declares")
    }

    /// Each row names the method's parameters (all but `tree`, which every method takes and the
    /// article's prose describes once), mentions every member of its reply, and says whether it
    /// changes state as the method's effect does.
    func testMethodsTable_givesEachMethodsParametersReplyAndEffect() throws {
        let interface = try Self.interface("io.appstate.varlink")
        for row in try Self.table(under: "### Methods", in: Self.text(Self.article)) {
            guard row.count == 4, let name = Self.symbolLink(row[0]), let method = interface.method(named: name) else {
                XCTFail("\(Self.article): a row of the methods table names no method of the interface: \(row)")
                continue
            }
            XCTAssertEqual(Self.codeNames(in: row[1]), method.input.map(\.name).filter { $0 != "tree" }, "\(name)'s parameters")
            let reply = Set(Self.codeNames(in: row[2]))
            for member in method.output where !reply.contains(member.name) {
                XCTFail("\(Self.article): the methods table does not mention \(name)'s reply member \(member.name)")
            }
            let effect = try XCTUnwrap(AppStateMethod(rawValue: "io.appstate.\(name)")).effect
            let expected = switch effect {
            case .readsPublished, .readsLive, .streams: "no"
            case .changesDurably: "yes"
            case .changesTransiently: "yes, transient"
            }
            XCTAssertEqual(row[3], expected, "whether \(name) changes state")
        }
    }

    /// The errors table lists `io.appstate`'s errors, then `org.varlink.service`'s, each in its
    /// file's order and with its parameters.
    func testErrorsTable_listsEveryErrorOfBothInterfacesWithItsParameters() throws {
        let interfaces = [try Self.interface("io.appstate.varlink"), try Self.interface("org.varlink.service.varlink")]
        let declared = interfaces.flatMap { interface in
            interface.errors.map { ("\(interface.name).\($0.name)", $0.members.map(\.name)) }
        }
        let rows = try Self.table(under: "### Errors", in: Self.text(Self.article))
        XCTAssertEqual(rows.map { Self.codeNames(in: $0[0]).first ?? $0[0] }, declared.map(\.0),
                       "\(Self.article): the errors table lists other errors than the interface files declare")
        for (row, (name, members)) in zip(rows, declared) where row.count > 1 {
            XCTAssertEqual(Self.codeNames(in: row[1]), members, "\(name)'s parameters")
        }
    }

    /// The readers, on a made-up article.
    func testReaders_findTheTableUnderItsHeadingAndTheNamesInItsCells() throws {
        let text = """
            ### Before

            | A | B |
            | --- | --- |
            | ``Wrong`` | x |

            ### Methods

            Some prose.

            | Method | Parameters |
            | --- | --- |
            | ``GetTree`` | — |
            | ``SetPage`` | `path`, one of `index`, `id` (a ``Node``), `step` |

            | Other | Table |
            """
        let rows = try Self.table(under: "### Methods", in: text)
        XCTAssertEqual(rows.map { Self.symbolLink($0[0]) }, ["GetTree", "SetPage"])
        XCTAssertEqual(rows.map { Self.codeNames(in: $0[1]) }, [[], ["path", "index", "id", "step"]])
        XCTAssertEqual(Self.codeNames(in: "`io.appstate.NoSuchTree`"), ["io.appstate.NoSuchTree"])
        XCTAssertThrowsError(try Self.table(under: "### Errors", in: text))
    }

    // MARK: - Reading

    private static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    private static func interface(_ file: String) throws -> InterfaceDefinition {
        try InterfaceDefinition(parsing: text("Sources/AppStateIPC/\(file)"))
    }

    /// The body rows of the first table after `heading`, each as its trimmed cells.
    private static func table(under heading: String, in text: String) throws -> [[String]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: heading) else { throw TestError("no \(heading) heading") }
        let table = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        guard table.count >= 2 else { throw TestError("no table under \(heading)") }
        return table.dropFirst(2).map { line in
            line.dropFirst().dropLast(line.hasSuffix("|") ? 1 : 0)
                .split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// `Name` for a cell that is just the symbol link ``Name``.
    private static func symbolLink(_ cell: String) -> String? {
        cell.wholeMatch(of: #/``(\w+)``/#).map { String($0.1) }
    }

    /// The names in code voice (single backticks) in a cell, in order; symbol links
    /// (double backticks) are not names of members.
    private static func codeNames(in cell: String) -> [String] {
        cell.replacing(#/``[^`]*``/#, with: "").matches(of: #/`([\w.]+)`/#).map { String($0.1) }
    }

    private struct TestError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
