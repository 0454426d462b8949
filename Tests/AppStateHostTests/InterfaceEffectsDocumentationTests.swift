import Foundation
import TestSupport
import XCTest

@testable import AppStateHost

/// The interface article says of each method whether it changes state, as the host's method
/// registry, where that is declared, decides it.
final class InterfaceEffectsDocumentationTests: AppStateTestCase {
    func testMethodsTable_saysWhetherEachMethodChangesStateAsItsRegistrationDoes() throws {
        let article = TestPaths.repositoryRoot.appendingPathComponent("Sources/AppStateIPC/AppStateIPC.docc/TheAppStateInterface.md")
        let rows = try MarkdownTable.rows(under: "### Methods", in: String(contentsOf: article, encoding: .utf8))
        XCTAssertEqual(rows.count, MethodRegistry.appState.methods.count, "a row for every registered method")
        for row in rows {
            let name = try XCTUnwrap(MarkdownTable.symbolLink(row[0]), "\(row)")
            let effect = try XCTUnwrap(MethodRegistry.appState.entry("io.appstate.\(name)")?.effect, "\(name) is not registered")
            let expected =
                switch effect {
                case .readsPublished, .readsLive, .streams, .reportsActivity: "no"
                case .holds: "yes, while connected"
                case .changesDurably: "yes"
                case .changesTransiently: "yes, transient"
                case .asksSystem: "yes, through the keyboard"
                case .reportsFrontEnd: "yes, the tree's front-ends"
                }
            XCTAssertEqual(row.last, expected, "whether \(name) changes state")
        }
    }
}
