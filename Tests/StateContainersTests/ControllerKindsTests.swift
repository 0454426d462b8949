import AppStateCore
import StateContainers
import XCTest

/// The registry of the kinds a tree file can name, and the rules each kind declares once.
final class ControllerKindsTests: ModelTestCase {
    func testEveryKind_whenBuiltFromItsSmallestNode_thenMakesTheClassItNames() async throws {
        for kind in ControllerKinds.all {
            let children = (0..<kind.children.minimum).map { NodeSpec(kind: Controller.Kind.self, id: "c\($0)") }
            let node = NodeSpec(kind: kind, id: "node", children: children)

            let controller = try TreeBuilder.makeRootController(for: TreeSpec(name: "t", root: node))

            XCTAssertEqual(controller.snapshot().type, kind.typeName)
            XCTAssertEqual(controller.configuredChildren.map(\.identifier), children.map(\.id), kind.typeName)
            XCTAssertTrue(ControllerKinds.kind(named: kind.typeName) == kind)
        }
        XCTAssertNil(ControllerKinds.kind(named: "Pager"))
    }

    func testNodeMadeInCode_whenAKeyIsSet_thenValidatedAndBuiltAsFromAFile() async throws {
        var stack = NodeSpec(kind: StackController.Kind.self, id: "s", children: [NodeSpec(kind: Controller.Kind.self, id: "a")])
        stack[StackController.Kind.spacing] = .number(-1)
        XCTAssertThrowsError(try TreeFile(trees: [TreeSpec(name: "t", root: stack)]).validate()) { error in
            XCTAssertEqual(
                (error as? TreeFileError)?.issues.map(\.description), ["trees[0].root.spacing: spacing must be a number of at least 0 (got -1)"])
        }

        stack[StackController.Kind.spacing] = .number(12)
        let built = try TreeBuilder.makeRootController(for: TreeSpec(name: "t", root: stack))

        XCTAssertEqual((built as? StackController)?.spacing, 12)
        XCTAssertEqual(stack.values, ["spacing": .number(12)])
    }

    func testKeys_whenKindsShareAKeyName_thenTheyShareItsType() async {
        var types: [String: NodeKey.ValueType] = [:]
        for key in ControllerKinds.all.flatMap({ $0.keys }) {
            XCTAssertEqual(types[key.name, default: key.type], key.type, key.name)
            types[key.name] = key.type
        }
        XCTAssertEqual(types["transitionMs"], .integer)
    }

    func testChildRule_whenCountsDoNotFit_thenEachSentenceSaysWhatTheKindNeeds() async {
        let cases: [(rule: ChildRule, count: Int, problem: String?)] = [
            (.none, 1, "a K has no children"),
            (.none, 0, nil),
            (ChildRule(minimum: 0, maximum: 1, roles: "its one"), 2, "a K has at most one child (its one)"),
            (ChildRule(minimum: 1, maximum: 1, roles: nil), 0, "a K needs exactly one child"),
            (ChildRule(minimum: 2, maximum: 2, roles: "a, b"), 3, "a K needs exactly two children (a, b)"),
            (ChildRule(minimum: 2, maximum: 3, roles: nil), 1, "a K needs two or three children"),
            (ChildRule(minimum: 1, maximum: 12, roles: nil), 13, "a K needs one to 12 children"),
            (ChildRule(minimum: 1, maximum: nil, roles: "its pages"), 0, "a K needs at least one child (its pages)"),
            (ChildRule(minimum: 1, maximum: nil, roles: "its pages"), 40, nil),
        ]

        for (rule, count, problem) in cases {
            XCTAssertEqual(rule.problem(count: count, typeName: "K"), problem, "\(rule) with \(count)")
        }
    }

    func testPaginatedController_whenMadeWithoutPages_thenRefusedWithItsKindsRule() async {
        let error = assertThrows(.invalidArgument) { try PaginatedController(identifier: "pages", pages: []) }

        XCTAssertEqual(error?.description, "pages: a PaginatedController needs at least one child (its pages)")
    }

    func testStackSpacing_whenRefused_thenTheSameSentenceInTheInitialiserTheSetterAndTheFile() async throws {
        let error = assertThrows(.invalidArgument) { try StackController(identifier: "s", arrangedChildren: [], spacing: -2) }
        let stack = try StackController(identifier: "s", arrangedChildren: [])
        stack.spacing = -2

        XCTAssertEqual(error?.description, "s: spacing must be a number of at least 0 (got -2)")
        XCTAssertEqual(warnings.map(\.description), ["s: ignored spacing: spacing must be a number of at least 0 (got -2)"])
        XCTAssertEqual(
            TreeFixtures.problems(root: #"{"type": "StackController", "id": "s", "spacing": -2, "children": [{"type": "Controller", "id": "a"}]}"#),
            ["trees[0].root.spacing: spacing must be a number of at least 0 (got -2)"])
    }
}
