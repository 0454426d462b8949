import AppStateIPC
import Foundation
import TestSupport
import VarlinkIDL
import XCTest

/// The table of methods in `TheAppStateInterface.md`, written by hand beside the interface
/// file that is the one declaration of the interface, is read and compared with that file: a
/// method added to the interface fails here until the article lists it, in the file's order
/// and with its parameters. (`ErrorCatalogueTests` holds the errors' article to the catalogue.)
final class InterfaceDocumentationTests: AppStateTestCase {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let article = "Sources/AppStateIPC/AppStateIPC.docc/TheAppStateInterface.md"

    func testMethodsTable_listsEveryMethodOfTheInterfaceInItsOrder() throws {
        let interface = try Self.interface("io.appstate.varlink")
        let rows = try MarkdownTable.rows(under: "### Methods", in: Self.text(Self.article))
        XCTAssertEqual(
            rows.map { MarkdownTable.symbolLink($0[0]) ?? $0[0] }, interface.methods.map(\.name),
            "\(Self.article): the methods table lists other methods than io.appstate.varlink declares")
    }

    /// Each row names the method's parameters (all but `tree`, which every method takes and the
    /// article's prose describes once) and mentions every member of its reply; the host's
    /// tests check the column that says whether it changes state.
    func testMethodsTable_givesEachMethodsParametersAndReply() throws {
        let interface = try Self.interface("io.appstate.varlink")
        for row in try MarkdownTable.rows(under: "### Methods", in: Self.text(Self.article)) {
            guard row.count == 4, let name = MarkdownTable.symbolLink(row[0]), let method = interface.method(named: name) else {
                XCTFail("\(Self.article): a row of the methods table names no method of the interface: \(row)")
                continue
            }
            XCTAssertEqual(MarkdownTable.codeNames(in: row[1]), method.input.map(\.name).filter { $0 != "tree" }, "\(name)'s parameters")
            let reply = Set(MarkdownTable.codeNames(in: row[2]))
            for member in method.output where !reply.contains(member.name) {
                XCTFail("\(Self.article): the methods table does not mention \(name)'s reply member \(member.name)")
            }
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
        let rows = try MarkdownTable.rows(under: "### Methods", in: text)
        XCTAssertEqual(rows.map { MarkdownTable.symbolLink($0[0]) }, ["GetTree", "SetPage"])
        XCTAssertEqual(rows.map { MarkdownTable.codeNames(in: $0[1]) }, [[], ["path", "index", "id", "step"]])
        XCTAssertEqual(MarkdownTable.codeNames(in: "`io.appstate.NoSuchTree`"), ["io.appstate.NoSuchTree"])
        XCTAssertThrowsError(try MarkdownTable.rows(under: "### Errors", in: text))
    }

    // MARK: - Reading

    private static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    private static func interface(_ file: String) throws -> InterfaceDefinition {
        try InterfaceDefinition(parsing: text("Sources/AppStateIPC/\(file)"))
    }
}
