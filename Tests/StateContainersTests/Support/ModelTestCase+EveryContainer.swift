import StateContainers
import XCTest

extension ModelTestCase {
    /// A tree with every built-in container, in a visible window, logged in.
    func showEveryContainer() throws -> LoginStateController {
        let json = #"""
            {"trees": [{"name": "t", "root": {"type": "LoginStateController", "id": "session", "children": [
              {"type": "KeyboardAwareController", "id": "login", "children": [{"type": "Controller", "id": "form"}]},
              {"type": "MenuController", "id": "home", "children": [
                {"type": "PaginatedController", "id": "pages", "children": [
                  {"type": "Controller", "id": "one"}, {"type": "ContentStateController", "id": "feed"},
                  {"type": "KeyboardAwareController", "id": "compose", "children": [
                    {"type": "StackController", "id": "fields", "children": [{"type": "Controller", "id": "to"}, {"type": "Controller", "id": "body"}]}]}]},
                {"type": "NavigationController", "id": "inbox", "children": [{"type": "Controller", "id": "messages"}],
                 "destinations": [{"type": "Controller", "id": "message"}]},
                {"type": "SplitController", "id": "mail", "children": [{"type": "Controller", "id": "list"}, {"type": "Controller", "id": "detail"}]}]}]},
              "presentations": [{"type": "Controller", "id": "notice"}]}]}
            """#
        let spec = try TreeFixtures.decode(json).trees[0]
        let root = try XCTUnwrap(try TreeBuilder.makeRootController(for: spec) as? LoginStateController)
        show(root, size: spec.window)
        try root.logIn(user: "ada")
        return root
    }
}
