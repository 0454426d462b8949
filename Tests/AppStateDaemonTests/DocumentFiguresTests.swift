import Foundation
import TestSupport
import XCTest

/// Figures the documents quote, recomputed from what produces them, so that they cannot drift
/// silently: the size of the test suite in RELIABILITY.md (counted as XCTest finds tests:
/// every `func test…()` under `Tests/`), and in BENCHMARKS.md the number of missed targets
/// its notes explain against its own table. (The exposure README.md quotes is checked
/// against `systemd-analyze security` in `SystemdUnitFilesTests`.)
final class DocumentFiguresTests: AppStateTestCase {
    private static let root = TestPaths.repositoryRoot

    private func document(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: RELIABILITY.md: the size of the suite

    /// The XCTest methods in the Swift files under `directory` whose name matches `files`:
    /// `func test…()` without parameters, which is what XCTest discovers and runs.
    static func countTests(under directory: URL, files: (String) -> Bool = { _ in true }) throws -> Int {
        let expression = try NSRegularExpression(pattern: #"\bfunc test[A-Za-z0-9_]*\(\)"#)
        var count = 0
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift", files(url.lastPathComponent) else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            count += expression.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
        }
        return count
    }

    /// The number in the first match of `pattern` (its first group), commas allowed.
    static func quotedNumber(_ pattern: String, in text: String) -> Int? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
              let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return Int(text[range].replacingOccurrences(of: ",", with: ""))
    }

    static let suiteSizePattern = #"the whole suite has \*\*([0-9,]+) tests\*\*"#
    static let reliabilitySizePattern = #"\*\*([0-9,]+) tests\*\* in `Reliability\*Tests\.swift`"#

    func testReliability_whenTestsAreCounted_thenQuotesTheSizeOfTheSuite() throws {
        let counted = try Self.countTests(under: Self.root.appendingPathComponent("Tests"))
        let quoted = try XCTUnwrap(Self.quotedNumber(Self.suiteSizePattern, in: try document("RELIABILITY.md")),
                                   "RELIABILITY.md no longer quotes the size of the suite (/\(Self.suiteSizePattern)/)")
        XCTAssertEqual(quoted, counted, "RELIABILITY.md says the suite has \(quoted) tests; Tests/ holds \(counted) `func test…()`: update the figure")
    }

    func testReliability_whenReliabilityTestsAreCounted_thenQuotesTheirNumber() throws {
        let counted = try Self.countTests(under: Self.root.appendingPathComponent("Tests/EndToEndTests")) {
            $0.hasPrefix("Reliability") && $0.hasSuffix("Tests.swift")
        }
        let quoted = try XCTUnwrap(Self.quotedNumber(Self.reliabilitySizePattern, in: try document("RELIABILITY.md")),
                                   "RELIABILITY.md no longer quotes the number of reliability tests (/\(Self.reliabilitySizePattern)/)")
        XCTAssertEqual(quoted, counted, "RELIABILITY.md says \(quoted) reliability tests; the Reliability*Tests.swift files hold \(counted)")
    }

    func testCountTests_whenFilesHoldTestsAndLookalikes_thenCountsOnlyTestMethods() throws {
        let directory = try TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.path)
        // Spelt with `f` so that this file's own count is not changed by the sample.
        let f = "func"
        try """
            \(f) testA() {}
            @MainActor \(f) testB_whenX_thenY() async throws {}
            \(f) testWith(_ argument: Int) {}
            \(f) helperTest() {}
            // \(f) testC() in a comment still counts, as it would for grep
            """.write(to: url.appendingPathComponent("OneTests.swift"), atomically: true, encoding: .utf8)
        try "\(f) testD() {}".write(to: url.appendingPathComponent("notes.md"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try Self.countTests(under: url), 3)
        XCTAssertEqual(try Self.countTests(under: url) { $0.hasPrefix("Other") }, 0)
    }

    // MARK: BENCHMARKS.md: missed targets against the table

    private static let numberWords = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// What contradicts itself in a benchmark report: the heading of the notes says why N
    /// targets are missed, and the notes explain each in a `###` section marked "not met";
    /// the table's rows marked **not met** must name exactly N targets (a target is a
    /// figure's name, before its first colon, with its target; the two fan-out rows share one).
    static func benchmarkContradictions(in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var missed: Set<String> = []
        for line in lines where line.hasPrefix("|") && line.contains("**not met**") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let figure = cells[1].split(separator: ":").first.map(String.init) ?? cells[1]
            let target = cells[cells.count - 3]
            missed.insert("\(figure) [\(target)]")
        }
        var problems: [String] = []
        let headingPattern = try? NSRegularExpression(pattern: #"^## .*\bwhy (\w+) targets? (?:is|are) missed"#, options: .anchorsMatchLines)
        let heading = headingPattern?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
            .flatMap { Range($0.range(at: 1), in: text) }.map { String(text[$0]) }
        let stated = heading.flatMap { word in numberWords.firstIndex(of: word.lowercased()) ?? Int(word) }
        switch (heading, stated) {
        case (nil, _) where !missed.isEmpty:
            problems.append("the table misses \(missed.count) target(s) but no heading says why N targets are missed")
        case (let word?, nil):
            problems.append("the heading's number \"\(word)\" is not a number")
        case (_, let stated?) where stated != missed.count:
            problems.append("the heading says why \(numberWords[safe: stated] ?? "\(stated)") target(s) are missed; the table misses \(missed.count): \(missed.sorted().joined(separator: "; "))")
        default:
            break
        }
        let explained = lines.filter { $0.hasPrefix("### ") && $0.contains("not met") }
        if explained.count != missed.count {
            problems.append("\(explained.count) `###` section(s) explain a target not met; the table misses \(missed.count): \(missed.sorted().joined(separator: "; "))")
        }
        return problems
    }

    func testBenchmarks_whenTargetsAreMissed_thenTheNotesSayHowManyAsTheTableShows() throws {
        XCTAssertEqual(Self.benchmarkContradictions(in: try document("BENCHMARKS.md")), [])
    }

    func testBenchmarks_whenCopiedNotes_thenAreTheNotesFile() throws {
        // scripts/benchmark copies Benchmarks/Load/NOTES.md to the end of BENCHMARKS.md.
        let notes = try document("Benchmarks/Load/NOTES.md").trimmingCharacters(in: .newlines)
        let report = try document("BENCHMARKS.md").trimmingCharacters(in: .newlines)
        XCTAssertTrue(report.hasSuffix(notes), "BENCHMARKS.md does not end with Benchmarks/Load/NOTES.md: edit both alike")
    }

    func testBenchmarkContradictions_whenHeadingOrSectionsDisagreeWithTheTable_thenReported() {
        let table = """
            | figure | value | baseline (same run) | baseline value | ratio | target | |
            |---|---|---|---|---|---|---|
            | idle memory: VmRSS | 27.7 MiB | — | — | — | ≤ 16 MiB | **not met** |
            | watch fan-out, 1,000 watchers: keyboard | p99 16 ms | — | — | — | p99 ≤ 10 ms | **not met** |
            | watch fan-out, 1,000 watchers: pages | p99 24 ms | — | — | — | p99 ≤ 10 ms | **not met** |
            | start to READY=1 | 31.1 ms | — | — | — | ≤ 50 ms | met |
            """
        let sections = "### Watch fan-out (p99 target not met)\n### Idle RSS (target not met)\n"
        XCTAssertEqual(Self.benchmarkContradictions(in: table + "\n## Notes, and why two targets are missed\n" + sections), [])
        XCTAssertEqual(Self.benchmarkContradictions(in: table + "\n## Notes, and why three targets are missed\n" + sections).count, 1)
        XCTAssertEqual(Self.benchmarkContradictions(in: table + "\n## Notes, and why two targets are missed\n### Idle RSS (target not met)\n").count, 1)
        XCTAssertEqual(Self.benchmarkContradictions(in: table + "\n## Notes\n" + sections).count, 1)
        let allMet = table.replacingOccurrences(of: "**not met**", with: "met")
        XCTAssertEqual(Self.benchmarkContradictions(in: allMet + "\n## Notes\n"), [])
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
