import StateContainers
import TestSupport
import TreeFiles
import XCTest

/// Replays the committed inputs of fuzz target `treefile` — its seeds and the inputs it found
/// (Fuzz/treefile/regressions; the focused tests below say what each broke) — with the checks
/// the target makes, so that the suite fails if a fix is undone.
final class TreeFileFuzzReplayTests: AppStateTestCase {
    @MainActor func testCommittedInputs_whenReplayed_thenEveryProblemNamesItsPlace() async throws {
        let inputs = try FuzzInputs.committed(to: "treefile")
        XCTAssertTrue(inputs.contains { $0.name.hasPrefix("regressions/") }, "no regression inputs")
        for (name, bytes) in inputs {
            replayTreeFile(bytes, name: name)
        }
    }

    func testDecodeYAML_whenControlCharacter_thenLineOfTheCharacter() {
        XCTAssertThrowsError(try TreeFileLoader.decode(yaml: "trees:\n  - name: a\r\n    root: \u{1}")) { error in
            let issues = (error as? TreeFileError)?.issues ?? []
            XCTAssertEqual(issues.map(\.line), [3], "\(issues)")
            XCTAssertEqual(issues.map(\.message), ["not valid YAML: control characters are not allowed"])
        }
    }

    func testDecodeJSON_whenNULByte_thenNotValidJSONAtItsCharacter() {
        // Not the number 1 followed by garbage: the NUL is the problem, named where it is.
        let decoders = [
            { _ = try TreeFileLoader.decode(json: "1\u{0}") }, { _ = try HostedTreeFile.decode(json: Array("1\u{0}".utf8)) },
            { _ = try TreeFile.decode(json: Array("1\u{0}".utf8)) },
        ]
        for decode in decoders {
            XCTAssertThrowsError(try decode()) { error in
                XCTAssertEqual((error as? TreeFileError)?.issues.map(\.message), ["not valid JSON: NUL byte around character 1."])
            }
        }
    }

    func testDecodeJSON_whenControlCharacterInString_thenNotValidJSONAtItsCharacter() {
        // Not a string that is no mapping: the control character is the problem, named where it is.
        XCTAssertThrowsError(try TreeFileLoader.decode(json: "\"\u{2}\"")) { error in
            XCTAssertEqual(
                (error as? TreeFileError)?.issues.map(\.message), ["not valid JSON: unescaped control character in string around character 1"])
        }
    }

    func testDecodeYAML_whenAliasesExpandBeyondTheLimit_thenRefusedAtTheDocument() throws {
        // Ten aliases of ten aliases, eight deep: 10^8 nodes from 900 bytes.
        let yaml = try String(
            decoding: XCTUnwrap(FuzzInputs.regressions(of: "treefile").first { $0.name == "regressions/yaml-billion-laughs" }).bytes, as: UTF8.self)
        XCTAssertThrowsError(try TreeFileLoader.decode(yaml: yaml)) { error in
            let issues = (error as? TreeFileError)?.issues ?? []
            XCTAssertEqual(issues.map(\.line), [1])
            XCTAssertEqual(issues.map(\.message), ["the document holds more than 100000 nodes once its aliases are expanded: not a tree file"])
        }
    }

    /// What target `treefile` does with one input, with assertions instead of traps.
    @MainActor private func replayTreeFile(_ bytes: [UInt8], name: String) {
        assertDecodes(name, placesRequired: false) { () throws(TreeFileError) in HostedTreeFile(try TreeFile.decode(json: bytes)) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        assertDecodes(name, placesRequired: true) { () throws(TreeFileError) in try TreeFileLoader.decode(yaml: text) }
        assertDecodes(name, placesRequired: true) { () throws(TreeFileError) in try TreeFileLoader.decode(json: text) }
    }

    @MainActor private func assertDecodes(_ name: String, placesRequired: Bool, _ decode: () throws(TreeFileError) -> HostedTreeFile) {
        do throws(TreeFileError) {
            let file = try decode()
            try file.validate()
            try TreeBuilder.check(file.model)
        } catch {
            XCTAssertFalse(error.issues.isEmpty, name)
            guard placesRequired else { return }
            for issue in error.issues {
                let inWords = issue.message.contains(#/(line|character|at) \d+|end of file|the file is empty|^missing key|^expected /#)
                XCTAssertTrue(issue.line != nil || !issue.path.isEmpty || inWords, "\(name): no place in \(issue)")
            }
        }
    }
}
