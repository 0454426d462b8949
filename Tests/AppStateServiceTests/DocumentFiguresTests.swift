import AppStateService
import Foundation
import XCTest

/// What the long documents say, checked against what they describe, so that they cannot drift
/// silently: in RELIABILITY.md the tests, files, scripts and `make` targets it names and the
/// default limits it quotes; in BENCHMARKS.md the number of missed targets its notes explain
/// against its own table. (The exposure README.md and RELIABILITY.md quote is checked against
/// `systemd-analyze security` in `SystemdUnitFilesTests`.)
final class DocumentFiguresTests: XCTestCase {
    private static let root = TestPaths.repositoryRoot

    private func document(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: RELIABILITY.md: what it names exists

    /// Where a named path may live; a code span starting with one of these is a path.
    static let pathPrefixes = ["Tests/", "Fuzz/", "scripts/", "systemd/", "Benchmarks/", "docs/", ".ci/"]

    /// What `text` names in code spans and `root` lacks: a test class (`…Tests`), a test
    /// method (`…Tests.test…`, a trailing `…` meaning any name it starts), a path (its first
    /// word), a `make` target.
    static func missingNames(in text: String, root: URL) throws -> [String] {
        var classes: Set<String> = []
        var methods: [String: Set<String>] = [:]
        let classPattern = try NSRegularExpression(pattern: #"\b(?:class|extension) ([A-Za-z0-9_]+Tests)\b"#)
        let methodPattern = try NSRegularExpression(pattern: #"\bfunc (test[A-Za-z0-9_]*)\("#)
        let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent("Tests"), includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let source = try String(contentsOf: url, encoding: .utf8)
            let declared = matches(classPattern, in: source)
            classes.formUnion(declared)
            for name in declared { methods[name, default: []].formUnion(matches(methodPattern, in: source)) }
        }
        let makefile = (try? String(contentsOf: root.appendingPathComponent("Makefile"), encoding: .utf8)) ?? ""
        let targets = Set(matches(try NSRegularExpression(pattern: #"(?m)^([A-Za-z0-9_-]+):"#), in: makefile))

        let methodReference = try NSRegularExpression(pattern: #"^([A-Za-z0-9_]+Tests)\.(test[A-Za-z0-9_]*)(…)?$"#)
        var missing: [String] = []
        for span in matches(try NSRegularExpression(pattern: "`([^`\n]+)`"), in: text) {
            let range = NSRange(span.startIndex..., in: span)
            if let match = methodReference.firstMatch(in: span, range: range),
               let className = Range(match.range(at: 1), in: span).map({ String(span[$0]) }),
               let method = Range(match.range(at: 2), in: span).map({ String(span[$0]) }) {
                let prefix = match.range(at: 3).location != NSNotFound
                let found = methods[className, default: []].contains { prefix ? $0.hasPrefix(method) : $0 == method }
                if !found { missing.append(span) }
            } else if span.range(of: #"^[A-Za-z0-9_]+Tests$"#, options: .regularExpression) != nil {
                if !classes.contains(span) { missing.append(span) }
            } else if span.hasPrefix("make ") {
                let target = String(span.dropFirst(5).split(separator: " ").first ?? "")
                if !targets.contains(target) { missing.append(span) }
            } else if pathPrefixes.contains(where: { span.hasPrefix($0) }) {
                let path = String(span.split(separator: " ").first ?? "")
                if !FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) { missing.append(span) }
            }
        }
        return missing
    }

    private static func matches(_ expression: NSRegularExpression, in text: String) -> [String] {
        expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    func testReliability_whenItNamesTestsFilesAndTargets_thenEachExists() throws {
        XCTAssertEqual(try Self.missingNames(in: try document("RELIABILITY.md"), root: Self.root), [],
                       "RELIABILITY.md names what does not exist: rename or remove it there")
    }

    func testMissingNames_whenNamesExistOrNot_thenReportsOnlyTheMissing() throws {
        let directory = try TemporaryDirectory()
        let root = URL(fileURLWithPath: directory.path)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Tests/Some"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        // Spelt with `f` so that this file holds no test method of the sample's names.
        let f = "func"
        try """
            final class SampleTests: XCTestCase {
                \(f) testOne_whenX_thenY() {}
            }
            """.write(to: root.appendingPathComponent("Tests/Some/SampleTests.swift"), atomically: true, encoding: .utf8)
        try "run:\n\ttrue\n".write(to: root.appendingPathComponent("Makefile"), atomically: true, encoding: .utf8)
        try "".write(to: root.appendingPathComponent("scripts/tool"), atomically: true, encoding: .utf8)
        let present = "`SampleTests`, `SampleTests.testOne_whenX_thenY`, `SampleTests.testOne_…`, `make run`, `scripts/tool N`, `GetTree`"
        XCTAssertEqual(try Self.missingNames(in: present, root: root), [])
        let absent = "`OtherTests`, `SampleTests.testTwo`, `SampleTests.testOne`, `OtherTests.testOne_…`, `make fuzz`, `scripts/gone`, `Fuzz/x`"
        XCTAssertEqual(try Self.missingNames(in: absent, root: root),
                       ["OtherTests", "SampleTests.testTwo", "SampleTests.testOne", "OtherTests.testOne_…", "make fuzz", "scripts/gone", "Fuzz/x"])
    }

    // MARK: RELIABILITY.md: the default limits

    /// The last cell of the first table row of `text` that holds `key`.
    static func quotedDefault(_ key: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("|") && $0.contains(key) }
            .flatMap { $0.split(separator: "|").last }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A count as the documents write it: thousands separated by commas.
    static func count(_ value: Int) -> String {
        let digits = String(value)
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
        }.joined()
    }

    /// A size as the documents write it: in MiB or KiB when it is a whole number of them.
    static func bytes(_ value: Int) -> String {
        if value > 0 && value % (1 << 20) == 0 { return "\(count(value >> 20)) MiB" }
        if value > 0 && value % (1 << 10) == 0 { return "\(count(value >> 10)) KiB" }
        return "\(count(value)) bytes"
    }

    static func seconds(_ value: Duration?) -> String {
        guard let value else { return "none" }
        return "\(count(Int(value.components.seconds))) s"
    }

    func testReliability_whenItQuotesTheDefaultLimits_thenTheyAreTheDaemons() throws {
        let text = try document("RELIABILITY.md")
        let limits = ServerLimits()
        let expected = [
            ("`--max-message-size`", Self.bytes(limits.maximumMessageSize)),
            ("`--max-connections`", Self.count(limits.maximumConnections)),
            ("`--max-connections-per-user`", Self.count(limits.maximumConnectionsPerUser)),
            ("`--idle-timeout`", Self.seconds(limits.idleTimeout)),
            ("`--partial-message-timeout`", Self.seconds(limits.partialMessageTimeout)),
            ("replies queued to one watcher", Self.count(limits.maximumWatcherReplies)),
            ("bytes queued to one watcher", Self.bytes(limits.maximumWatcherQueue)),
        ]
        for (key, value) in expected {
            let quoted = try XCTUnwrap(Self.quotedDefault(key, in: text), "RELIABILITY.md has no row of default limits for \(key)")
            XCTAssertEqual(quoted, value, "RELIABILITY.md says the default for \(key) is \(quoted); ServerLimits has \(value)")
        }
    }

    func testFormatting_whenLimitsAreWritten_thenAsTheDocumentsWriteThem() {
        XCTAssertEqual(Self.count(1000), "1,000")
        XCTAssertEqual(Self.count(100), "100")
        XCTAssertEqual(Self.count(1_234_567), "1,234,567")
        XCTAssertEqual(Self.bytes(1 << 20), "1 MiB")
        XCTAssertEqual(Self.bytes(3 << 10), "3 KiB")
        XCTAssertEqual(Self.bytes(1500), "1,500 bytes")
        XCTAssertEqual(Self.seconds(.seconds(300)), "300 s")
        XCTAssertEqual(Self.seconds(nil), "none")
        let table = "| bound | option | default |\n|---|---|---|\n| connections | `--max-connections` | 1,000 |\n| per user | `--max-connections-per-user` | 100 |"
        XCTAssertEqual(Self.quotedDefault("`--max-connections`", in: table), "1,000")
        XCTAssertEqual(Self.quotedDefault("`--max-connections-per-user`", in: table), "100")
        XCTAssertNil(Self.quotedDefault("`--idle-timeout`", in: table))
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
