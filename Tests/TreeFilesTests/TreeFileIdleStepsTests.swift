import StateContainers
import TestSupport
import TreeFiles
import XCTest

/// A tree file's `idle` steps: read in order with their actions, and every bad step refused
/// with its line and column.
final class TreeFileIdleStepsTests: AppStateTestCase {
    private func tree(
        idle: String,
        root: String = "{ type: LoginStateController, id: session, children: [{ type: Controller, id: out }, { type: Controller, id: in }] }",
        extra: String = ""
    ) -> String {
        """
        trees:
          - name: kiosk
            root: \(root)\(extra)
            idle:
        \(idle)
        """
    }

    private func problems(_ yaml: String) -> [String] {
        do {
            _ = try TreeFileLoader.decode(yaml: yaml)
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    func testDecode_whenStepsLockAndLogOut_thenReadInOrderWithTheirActions() throws {
        let file = try TreeFileLoader.decode(
            yaml: tree(
                idle: """
                        - { after: 60, lock: true }
                        - { after: 300.5, logout: true }
                    """))
        XCTAssertEqual(file.trees[0].idle, [IdleStep(after: 60, .lock), IdleStep(after: 300.5, .logout)])
        XCTAssertEqual(file.trees[0].idle.map(\.action), [.lock, .logout])
    }

    func testDecode_whenAfterIsNotAPositiveNumber_thenRefusedAtItsLineAndColumn() {
        XCTAssertEqual(
            problems(
                tree(
                    idle: """
                            - { after: 0, lock: true }
                            - { after: -5, logout: true }
                        """)),
            [
                "line 5, column 9: trees[0].idle[0].after: after must be a positive number of seconds (got 0)",
                "line 6, column 9: trees[0].idle[1].after: after must be a positive number of seconds (got -5)",
            ])
        XCTAssertEqual(problems(tree(idle: "      - { after: soon, lock: true }")), ["line 5, column 11: trees[0].idle[0].after: expected a number"])
    }

    func testDecode_whenStepsAreOutOfOrder_thenTheLaterStepIsRefused() {
        XCTAssertEqual(
            problems(
                tree(
                    idle: """
                            - { after: 300, lock: true }
                            - after: 60
                              logout: true
                        """)),
            ["line 6, column 7: trees[0].idle[1].after: steps must come in rising order of after: 60 comes after 300"])
    }

    func testDecode_whenAStepNamesTwoActionsOrNone_thenRefused() {
        XCTAssertEqual(
            problems(
                tree(
                    idle: """
                            - { after: 60, present: attract, logout: true }
                            - { after: 90 }
                            - { after: 120, lock: false }
                        """)),
            [
                "line 5, column 7: trees[0].idle[0]: a step does one thing: present and logout cannot share a step",
                #"line 5, column 20: trees[0].idle[0].present: unknown presentation "attract": the tree declares no presentations"#,
                "line 6, column 7: trees[0].idle[1]: a step needs an action: present: ID, logout: true, lock: true or blank: true",
                "line 7, column 7: trees[0].idle[2]: a step needs an action: present: ID, logout: true, lock: true or blank: true",
            ])
    }

    func testDecode_whenABlankStepThenALogout_thenBothReadInOrder() throws {
        let file = try TreeFileLoader.decode(
            yaml: tree(
                idle: """
                        - { after: 120, blank: true }
                        - { after: 600, logout: true }
                    """))
        XCTAssertEqual(file.trees[0].idle, [IdleStep(after: 120, .blank), IdleStep(after: 600, .logout)])
        XCTAssertEqual(file.trees[0].idle[0].action?.description, "blank")
        XCTAssertEqual(problems(tree(idle: "      - { after: 60, blank: true }", root: "{ type: Controller, id: main }")), [], "any tree blanks")
    }

    func testDecode_whenABlankStepNamesAnotherActionToo_thenRefused() {
        XCTAssertEqual(
            problems(tree(idle: "      - { after: 60, blank: true, lock: true }")),
            ["line 5, column 9: trees[0].idle[0]: a step does one thing: lock and blank cannot share a step"])
    }

    func testDecode_whenAStepPresentsAnUnknownPresentation_thenRefused() {
        XCTAssertEqual(
            problems(tree(idle: "      - { after: 60, present: attract }")),
            [#"line 5, column 22: trees[0].idle[0].present: unknown presentation "attract": the tree declares no presentations"#])
        let presentations = "\n    presentations: [{ type: Controller, id: screensaver }, { type: Controller, id: promo }]"
        XCTAssertEqual(
            problems(tree(idle: "      - { after: 60, present: attract }", extra: presentations)),
            [#"line 6, column 22: trees[0].idle[0].present: unknown presentation "attract" (expected one of screensaver, promo)"#])
    }

    func testDecode_whenAStepPresentsOneOfTheTreesPresentations_thenReadWithThatAction() throws {
        let file = try TreeFileLoader.decode(
            yaml: tree(
                idle: "      - { after: 60, present: screensaver }\n      - { after: 300, logout: true }",
                extra: "\n    presentations: [{ type: Controller, id: screensaver }]"))
        XCTAssertEqual(file.trees[0].idle.map(\.action), [.present("screensaver"), .logout])
        XCTAssertEqual(file.trees[0].idle[0].action?.description, "present screensaver")
    }

    func testDecode_whenTheTreeCannotCarryTheStepOut_thenRefused() {
        XCTAssertEqual(
            problems(tree(idle: "      - { after: 60, lock: true }", root: "{ type: Controller, id: main }")),
            ["line 5, column 9: trees[0].idle[0]: a lock step needs a LoginStateController in the tree"])
        XCTAssertEqual(
            problems(tree(idle: "      - { after: 60, logout: true }", extra: "\n    logindSeat: seat0")),
            ["line 6, column 9: trees[0].idle[0]: a tree that follows a logind seat leaves logging out to logind (its IdleAction)"])
        XCTAssertEqual(problems(tree(idle: "      - { after: 60, lock: true }", extra: "\n    logindSeat: seat0")), [], "logind is asked to lock")
    }

    func testDecode_whenAStepHasAnUnknownKey_thenRefusedWithTheKeysItTakes() {
        XCTAssertEqual(
            problems(tree(idle: "      - { after: 60, lock: true, suspend: true }")),
            [#"line 5, column 34: trees[0].idle[0].suspend: unknown key "suspend" (expected one of after, present, logout, lock, blank)"#])
    }

    func testEncode_whenSteps_thenDecodedBackAlike() throws {
        var file = try TreeFileLoader.decode(yaml: tree(idle: "      - { after: 60, lock: true }"))
        file.trees[0].idle.append(IdleStep(after: 120, .logout))
        file.trees[0].idle.append(IdleStep(after: 180, .blank))
        let json = try JSONEncoder().encode(file)
        XCTAssertEqual(try HostedTreeFile.decode(json: Array(json)), file)
    }
}
