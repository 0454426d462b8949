import TestSupport
import VarlinkIDL
import XCTest

/// The reader of interface files that the Swift declarations are generated from.
final class InterfaceDefinitionTests: AppStateTestCase {
    private let sample = """
        # A sample.
        interface org.example.sample

        # A kind.
        type Kind (
          # One of two.
          mode: (on, off),
          # Nested.
          limits: ?[]int
        )

        # Does it.
        # Twice.
        method Do(
          # How many.
          count: int,
          extra: ?[string]Kind
        ) -> ()

        # It failed.
        error Failed (reason: string)
        """

    func testParsing_whenDeclarationsAreCommented_thenEachKeepsItsDocAndOrder() throws {
        let definition = try InterfaceDefinition(parsing: sample)

        XCTAssertEqual(definition.name, "org.example.sample")
        XCTAssertEqual(definition.doc, ["A sample."])
        XCTAssertEqual(
            definition.type(named: "Kind")?.members,
            [
                .init(name: "mode", type: "(on, off)", doc: ["One of two."]),
                .init(name: "limits", type: "?[]int", doc: ["Nested."]),
            ])
        let method = try XCTUnwrap(definition.method(named: "Do"))
        XCTAssertEqual(method.doc, ["Does it.", "Twice."])
        XCTAssertEqual(method.input, [.init(name: "count", type: "int", doc: ["How many."]), .init(name: "extra", type: "?[string]Kind")])
        XCTAssertEqual(method.output, [])
        XCTAssertEqual(definition.errors.map(\.name), ["Failed"])
        XCTAssertEqual(definition.error(named: "Failed")?.members.map(\.type), ["string"])
        XCTAssertTrue(method.input[1].isOptional)
    }

    func testParsing_whenMalformed_thenErrorSaysWhat() {
        let cases = [
            ("method M() -> ()", "no interface declaration"),
            ("interface a.b\nmethod M(x: int) ()", "expected \"->\""),
            ("interface a.b\ntype T (x: int", "unclosed member list"),
            ("interface a.b\ntype T (x: (a, b", "unclosed type"),
            ("interface a.b\nconst X", "unexpected \"const\" at the top level"),
            ("interface a.b\ntype T (x int)", "expected \":\""),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try InterfaceDefinition(parsing: text), text) { error in
                XCTAssertEqual((error as? InterfaceDefinitionError)?.description, message, text)
            }
        }
    }
}
