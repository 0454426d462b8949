import AppStateIPC
import Foundation
import TestSupport
import VarlinkServer
import XCTest

/// What the documents say, checked against what they describe, so that they cannot drift
/// silently: every Markdown file's size and relative links, and that README.md reaches every
/// page of docs/; in the reliability pages the tests, files, scripts and `make` targets they
/// name and the default limits they quote; in BENCHMARKS.md the count of targets met and the
/// notes on the missed ones against its own table, and that it and its pages are what
/// Benchmarks/report.py writes from the results it keeps; in the appstatectl page every exit
/// status. (The exposure the systemd and reliability pages quote is checked against
/// `systemd-analyze security` in `SystemdUnitFilesTests`.)
final class DocumentFiguresTests: AppStateTestCase {
    private static let root = TestPaths.repositoryRoot

    private func document(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: Size and links

    /// The largest a document may be: past it, readers stop reading and nobody keeps it true.
    /// A document that outgrows it is split into pages by topic, never cut to fit.
    /// Benchmarks/report.py writes BENCHMARKS.md and its pages within the same limit
    /// (DOCUMENT_LIMIT).
    static let documentLimit = 15 * 1024

    func testDocuments_whenMeasured_thenEachIsWithinTheLimit() throws {
        let paths = MarkdownDocuments.paths(under: Self.root)
        XCTAssertTrue(paths.contains("README.md"), "no Markdown files found under \(Self.root.path)")
        for path in paths {
            let size = try XCTUnwrap(
                try FileManager.default.attributesOfItem(atPath: Self.root.appendingPathComponent(path).path)[.size] as? Int)
            XCTAssertLessThanOrEqual(
                size, Self.documentLimit,
                "\(path) is \(size) bytes, over \(Self.documentLimit): split it into pages by topic (leave nothing out)")
        }
    }

    /// What the relative links of the documents under `root` point at and `root` lacks: a file
    /// or directory, or an anchor of a Markdown file's headings. Each as `document:line: target`.
    static func brokenLinks(under root: URL) throws -> [String] {
        var broken: [String] = []
        for path in MarkdownDocuments.paths(under: root) {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let directory = root.appendingPathComponent(path).deletingLastPathComponent()
            for link in MarkdownDocuments.links(in: text) where !MarkdownDocuments.isExternal(link.target) {
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? root.appendingPathComponent(path) : directory.appendingPathComponent(parts[0])
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: target.standardizedFileURL.path, isDirectory: &isDirectory) else {
                    broken.append("\(path):\(link.line): \(link.target)")
                    continue
                }
                if parts.count == 2, target.pathExtension == "md", !isDirectory.boolValue {
                    let anchors = MarkdownDocuments.anchors(in: try String(contentsOf: target, encoding: .utf8))
                    if !anchors.contains(parts[1]) { broken.append("\(path):\(link.line): \(link.target)") }
                }
            }
        }
        return broken
    }

    func testDocuments_whenTheirRelativeLinksAreFollowed_thenEachTargetExists() throws {
        XCTAssertEqual(try Self.brokenLinks(under: Self.root), [], "links to nothing: fix them where the documents moved")
    }

    /// The Markdown files under `docs/` that following links from `start` never reaches.
    static func unreached(from start: String, under root: URL) throws -> [String] {
        var reached: Set<String> = [start]
        var queue = [start]
        while let path = queue.popLast() {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let directory = (path as NSString).deletingLastPathComponent
            for link in MarkdownDocuments.links(in: text) where !MarkdownDocuments.isExternal(link.target) {
                let file = String(link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                guard file.hasSuffix(".md") else { continue }
                let target = Self.joined(directory, file)
                guard FileManager.default.fileExists(atPath: root.appendingPathComponent(target).path),
                    reached.insert(target).inserted
                else { continue }
                queue.append(target)
            }
        }
        return MarkdownDocuments.paths(under: root).filter { $0.hasPrefix("docs/") && !reached.contains($0) }
    }

    /// `relative` taken from `directory`, both relative to the repository, with `.` and `..`
    /// resolved (Foundation's `standardizingPath` leaves a relative path's `..` in place).
    static func joined(_ directory: String, _ relative: String) -> String {
        var parts: [Substring] = []
        for part in (directory.split(separator: "/") + relative.split(separator: "/")) where part != "." {
            if part == "..", !parts.isEmpty, parts.last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    func testDocsPages_whenLinksAreFollowedFromTheReadme_thenEachIsReached() throws {
        XCTAssertEqual(
            try Self.unreached(from: "README.md", under: Self.root), [],
            "pages of docs/ that no link from README.md leads to: add each to README.md's map of the documents, or to the index that covers it")
    }

    func testLinkReaders_whenDocumentsLinkWellAndBadly_thenOnlyTheBadAreReported() throws {
        let directory = try TemporaryDirectory()
        let root = URL(fileURLWithPath: directory.path)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("docs/sub"), withIntermediateDirectories: true)
        try """
        # Start

        [page](docs/page.md), [its section](docs/page.md#a-section), [web](https://example.org/x.md),
        [gone](docs/gone.md), [no such section](docs/page.md#nothing), [here](#start), `[code](docs/none.md)`

        ```sh
        [also code](docs/none.md)
        ```
        """.write(to: root.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        try "# Page\n\n## A section\n\n[up](../README.md), [sub](sub/deep.md)\n".write(
            to: root.appendingPathComponent("docs/page.md"), atomically: true, encoding: .utf8)
        try "# Deep\n".write(to: root.appendingPathComponent("docs/sub/deep.md"), atomically: true, encoding: .utf8)
        try "# Lost\n".write(to: root.appendingPathComponent("docs/lost.md"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try Self.brokenLinks(under: root), ["README.md:4: docs/gone.md", "README.md:4: docs/page.md#nothing"])
        XCTAssertEqual(try Self.unreached(from: "README.md", under: root), ["docs/lost.md"])
        XCTAssertEqual(Self.joined("docs/sub", "../../README.md"), "README.md")
        XCTAssertEqual(Self.joined("", "./docs/page.md"), "docs/page.md")
        XCTAssertEqual(MarkdownDocuments.slug("Reliability §4: load and abuse"), "reliability-4-load-and-abuse")
        XCTAssertEqual(MarkdownDocuments.slug("The `Watch` stream, [linked](x.md)"), "the-watch-stream-linked")
    }

    // MARK: The report script's limit and output

    func testBenchmarkReport_whenRead_thenWritesWithinTheSameLimit() throws {
        let script = try document("Benchmarks/report.py")
        let quoted = try XCTUnwrap(
            Self.firstNumber(#"(?m)^DOCUMENT_LIMIT = ([0-9]+) \* 1024$"#, in: script),
            "Benchmarks/report.py no longer sets DOCUMENT_LIMIT = N * 1024")
        XCTAssertEqual(quoted * 1024, Self.documentLimit, "Benchmarks/report.py writes BENCHMARKS.md within another limit than this test's")
    }

    /// BENCHMARKS.md and docs/benchmarks/ are what the report script writes from the results it
    /// keeps (`report.py --check`): so none is edited by hand, and the shape the script writes
    /// is the one committed.
    func testBenchmarkDocuments_whenWrittenAgainFromTheKeptResults_thenAreTheCommittedOnes() throws {
        let run = try runProcess("/usr/bin/env", ["python3", Self.root.appendingPathComponent("Benchmarks/report.py").path, "--check"])
        XCTAssertEqual(run.status, 0, "Benchmarks/report.py --check: \(run.standardError)\(run.standardOutput)")
    }

    /// The number in the first match of `pattern` (its first group), commas allowed.
    static func firstNumber(_ pattern: String, in text: String) -> Int? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return Int(text[range].replacingOccurrences(of: ",", with: ""))
    }

    // MARK: The exit statuses of every program

    /// The table of `docs/exit-statuses.md`: a row for each program's use of each status.
    static func exitStatusRows() -> [String] {
        ExitStatus.all.flatMap { status in
            status.uses.map { use in "| \(status.code) | \(status.name.map { "`\($0)`" } ?? "—") | \(use.program) | \(use.when) |" }
        }
    }

    func testExitStatusPage_whenItListsTheStatuses_thenItIsTheTableThePrograms() throws {
        let page = try document("docs/exit-statuses.md")
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let rows = Array(lines.drop { !$0.hasPrefix("| Status |") }.dropFirst(2).prefix { $0.hasPrefix("|") })
        let expected = Self.exitStatusRows()
        XCTAssertEqual(
            rows, expected, "docs/exit-statuses.md is not ExitStatus.all written out; its rows are:\n\(expected.joined(separator: "\n"))")
    }

    // MARK: The reliability pages: what they name exists

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
                let method = Range(match.range(at: 2), in: span).map({ String(span[$0]) })
            {
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

    /// RELIABILITY.md and its pages, but for the history pages: those record what the suite
    /// was when they were written, names included.
    static var reliabilityDocuments: [String] {
        ["RELIABILITY.md"]
            + MarkdownDocuments.paths(under: root).filter {
                $0.hasPrefix("docs/reliability/") && !$0.hasPrefix("docs/reliability/history-")
            }
    }

    func testReliability_whenItNamesTestsFilesAndTargets_thenEachExists() throws {
        XCTAssertGreaterThan(Self.reliabilityDocuments.count, 5)
        for path in Self.reliabilityDocuments {
            XCTAssertEqual(
                try Self.missingNames(in: try document(path), root: Self.root), [],
                "\(path) names what does not exist: rename or remove it there")
        }
    }

    func testMissingNames_whenNamesExistOrNot_thenReportsOnlyTheMissing() throws {
        let directory = try TemporaryDirectory()
        let root = URL(fileURLWithPath: directory.path)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Tests/Some"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        // Spelt with `f` so that this file holds no test method of the sample's names.
        let f = "func"
        try """
        final class SampleTests: AppStateTestCase {
            \(f) testOne_whenX_thenY() {}
        }
        """.write(to: root.appendingPathComponent("Tests/Some/SampleTests.swift"), atomically: true, encoding: .utf8)
        try "run:\n\ttrue\n".write(to: root.appendingPathComponent("Makefile"), atomically: true, encoding: .utf8)
        try "".write(to: root.appendingPathComponent("scripts/tool"), atomically: true, encoding: .utf8)
        let present = "`SampleTests`, `SampleTests.testOne_whenX_thenY`, `SampleTests.testOne_…`, `make run`, `scripts/tool N`, `GetTree`"
        XCTAssertEqual(try Self.missingNames(in: present, root: root), [])
        let absent = "`OtherTests`, `SampleTests.testTwo`, `SampleTests.testOne`, `OtherTests.testOne_…`, `make fuzz`, `scripts/gone`, `Fuzz/x`"
        XCTAssertEqual(
            try Self.missingNames(in: absent, root: root),
            ["OtherTests", "SampleTests.testTwo", "SampleTests.testOne", "OtherTests.testOne_…", "make fuzz", "scripts/gone", "Fuzz/x"])
    }

    // MARK: The reliability pages: the default limits

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

    /// The page of the reliability pages that quotes the default limits.
    static let limitsPage = "docs/reliability/load-and-abuse.md"

    func testReliability_whenItQuotesTheDefaultLimits_thenTheyAreTheDaemons() throws {
        let text = try document(Self.limitsPage)
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
            let quoted = try XCTUnwrap(Self.quotedDefault(key, in: text), "\(Self.limitsPage) has no row of default limits for \(key)")
            XCTAssertEqual(quoted, value, "\(Self.limitsPage) says the default for \(key) is \(quoted); ServerLimits has \(value)")
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
        let table =
            "| bound | option | default |\n|---|---|---|\n| connections | `--max-connections` | 1,000 |\n| per user | `--max-connections-per-user` | 100 |"
        XCTAssertEqual(Self.quotedDefault("`--max-connections`", in: table), "1,000")
        XCTAssertEqual(Self.quotedDefault("`--max-connections-per-user`", in: table), "100")
        XCTAssertNil(Self.quotedDefault("`--idle-timeout`", in: table))
    }

    // MARK: BENCHMARKS.md: the count and the notes against the table

    /// What contradicts itself in a benchmark report (Benchmarks/report.py writes it; a row
    /// can also be replaced alone, by `scripts/benchmark-inspector --write`): the line
    /// "**N of M targets met.**" must count the targets table's verdicts, and the notes must
    /// have one line marked **not met** for each row marked so.
    static func benchmarkContradictions(in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| figure | value |") }) else {
            return ["no targets table (a line starting \"| figure | value |\")"]
        }
        let verdicts = lines.dropFirst(header + 2).prefix { $0.hasPrefix("|") }.map {
            $0.split(separator: "|", omittingEmptySubsequences: false).dropLast().last
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        }
        let met = verdicts.filter { $0 == "met" }.count
        let missed = verdicts.filter { $0 == "**not met**" }.count
        var problems: [String] = []
        let summary = try? NSRegularExpression(pattern: #"(?m)^\*\*([0-9]+) of ([0-9]+) targets met\.\*\*$"#)
        if let match = summary?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let saidMet = Range(match.range(at: 1), in: text).flatMap({ Int(text[$0]) }),
            let saidTargets = Range(match.range(at: 2), in: text).flatMap({ Int(text[$0]) })
        {
            if saidMet != met || saidTargets != met + missed {
                problems.append("it says \(saidMet) of \(saidTargets) targets met; the table has \(met) of \(met + missed)")
            }
        } else {
            problems.append("no line \"**N of M targets met.**\"")
        }
        let notes = lines.drop { $0 != "## Notes" }.dropFirst().prefix { !$0.hasPrefix("## ") }
        let explained = notes.filter { $0.hasPrefix("- ") && $0.contains("**not met**") }.count
        if explained != missed {
            problems.append("the notes explain \(explained) row(s) not met; the table has \(missed)")
        }
        return problems
    }

    func testBenchmarks_whenTargetsAreCountedAndMissed_thenTheSummaryAndNotesAgreeWithTheTable() throws {
        XCTAssertEqual(
            Self.benchmarkContradictions(in: try document("BENCHMARKS.md")), [],
            "BENCHMARKS.md contradicts its table: run scripts/benchmark again rather than edit it")
    }

    func testBenchmarkContradictions_whenSummaryOrNotesDisagreeWithTheTable_thenReported() {
        let table = """
            | figure | value | baseline (same run) | baseline value | ratio | target | |
            |---|---|---|---|---|---|---|
            | idle memory: VmRSS | 27.7 MiB | — | — | — | ≤ 20 MiB | **not met** |
            | start to READY=1 | 31.1 ms | — | — | — | ≤ 50 ms | met |
            | logind change | p50 1 ms | — | — | — | — | — |
            """
        let note = "- **idle memory: VmRSS**: **not met**: 27.7 MiB against ≤ 20 MiB."
        let caveat = "- **start to READY=1**: a start's wall time follows the machine."
        func report(_ summary: String, _ notes: [String]) -> String {
            "# Benchmarks\n\n\(summary)\n\n\(table)\n\n## Notes\n\n" + notes.joined(separator: "\n") + "\n\n## Reproducing\n\n- **x**: **not met**\n"
        }
        XCTAssertEqual(Self.benchmarkContradictions(in: report("**1 of 2 targets met.**", [note, caveat])), [])
        XCTAssertEqual(Self.benchmarkContradictions(in: report("**2 of 2 targets met.**", [note, caveat])).count, 1)
        XCTAssertEqual(Self.benchmarkContradictions(in: report("**1 of 3 targets met.**", [note, caveat])).count, 1)
        XCTAssertEqual(Self.benchmarkContradictions(in: report("**1 of 2 targets met.**", [caveat])).count, 1)
        XCTAssertEqual(Self.benchmarkContradictions(in: report("**1 of 2 targets met.**", [note, note])).count, 1)
        XCTAssertEqual(Self.benchmarkContradictions(in: report("", [note])).count, 1)
        let allMet = report("**2 of 2 targets met.**", [caveat]).replacingOccurrences(of: "**not met** |", with: "met |")
        XCTAssertEqual(Self.benchmarkContradictions(in: allMet), [])
    }
}
