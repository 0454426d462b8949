import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The packages in `Tests/Consumers`, which use this one as another package would: each
/// depends on one product (`ModelConsumer` on StateContainers, `ClientConsumer` on AppStateIPC),
/// imports it alone, and runs the Swift examples of the README, docs/ and the DocC catalogs.
///
/// The examples are the documents' own: each sits in a consumer between
/// `// Example from PATH` and `// End of example`, and must be, line for line, a ```swift block
/// of that document; every such block of the documents must be in a consumer. A value that an
/// example's comment says a line gives (`print(x)   // "value"`) must be in the output. The
/// packages are built in `.build-consumers` at the repository's root, which later runs reuse.
final class ConsumerPackagesTests: AppStateTestCase {
    /// A consumer package, and the documents whose examples it runs.
    private struct Consumer {
        let name: String
        /// The directories of the documents only this consumer can run: their examples use
        /// its product. Examples of other documents (the README, AppStateCore's catalog) use
        /// the vocabulary both products carry, and may be in either.
        let documents: String

        var package: URL { Products.repository.appendingPathComponent("Tests/Consumers/\(name)") }
        var sources: URL { package.appendingPathComponent("Sources/\(name)") }
        var scratch: URL { Products.repository.appendingPathComponent(".build-consumers/\(name)") }
    }

    private static let model = Consumer(name: "ModelConsumer", documents: "Sources/StateContainers/")
    private static let client = Consumer(name: "ClientConsumer", documents: "Sources/AppStateIPC/")

    /// What `vocabularyTour()` prints in either consumer: every vocabulary type used through
    /// the consumer's one import.
    private static let vocabularyTour = [
        "Rect.inset(by:) 1280.0 480.0 true",
        "NotificationName keyboard.willShow true",
        #"JSONValue {"height":320,"shown":true,"tags":[1,2.5,null],"user":"ada"} ada"#,
        #"JSONObjectWriter {"frame":{"x":0,"y":1}}"#,
        "JSONParseError unexpected end of input at byte 1",
        "NodeSnapshot session/home appeared",
        "NodePath home/pages",
        "Appearance disappeared,appearing,appeared,disappearing",
        "PrintableName fine 256",
    ]

    // MARK: - The examples are the documents'

    func testEverySwiftExampleOfTheDocuments_isInAConsumerThatMayRunIt() throws {
        let documents = try Self.documents()
        let blocks = try documents.flatMap { document in try Self.swiftBlocks(in: document).map { (document, $0) } }
        XCTAssertFalse(blocks.isEmpty, "no ```swift block in \(documents)")
        let examples = try [Self.model, Self.client].flatMap { consumer in try Self.examples(in: consumer).map { (consumer, $0) } }
        for (document, block) in blocks {
            let owner = [Self.model, Self.client].first { document.hasPrefix($0.documents) }
            let found = examples.contains { consumer, example in
                example.document == document && example.lines == block && (owner == nil || owner?.name == consumer.name)
            }
            XCTAssertTrue(
                found,
                """
                \(document) has a Swift example that \(owner?.name ?? "no consumer") runs verbatim; put it in \
                Tests/Consumers/\(owner?.name ?? "ModelConsumer")/Sources between `// Example from \(document)` \
                and `// End of example`:
                \(block.joined(separator: "\n"))
                """)
        }
    }

    /// The other way round: an example a consumer runs is still in the document it names, so
    /// that a changed example cannot go on passing in its old form.
    func testEveryExampleOfTheConsumers_isStillInItsDocument() throws {
        for consumer in [Self.model, Self.client] {
            let examples = try Self.examples(in: consumer)
            XCTAssertFalse(examples.isEmpty, "\(consumer.name) has no `// Example from` marker")
            for example in examples {
                let url = Products.repository.appendingPathComponent(example.document)
                let blocks = FileManager.default.fileExists(atPath: url.path) ? try Self.swiftBlocks(in: example.document) : []
                XCTAssertTrue(
                    blocks.contains(example.lines),
                    """
                    \(example.file):\(example.line): this example is not a ```swift block of \(example.document) \
                    (any more): copy the document's block, or remove the example
                    """)
            }
        }
    }

    /// The readers of the examples, on a document and a source made up here.
    func testReaders_findBlocksAndMarkedExamplesWhateverTheirIndentation() {
        let document = """
            Text.

            ```swift
            let a = 1
                print(a)   // "1"
            ```

            - In a list:

              ```swift
              print(2)
              ```

            ```console
            $ ls
            ```
            """
        XCTAssertEqual(Self.swiftBlocks(inText: document), [["let a = 1", "    print(a)   // \"1\""], ["print(2)"]])
        let source = """
            func f() {
                // Example from README.md
                let a = 1
                    print(a)   // "1"

                // End of example
            }
            """
        let examples = Self.examples(inText: source, file: "main.swift")
        XCTAssertEqual(examples.map(\.document), ["README.md"])
        XCTAssertEqual(examples.map(\.lines), [["let a = 1", "    print(a)   // \"1\""]])
        XCTAssertEqual(examples.map(\.line), [3])
        XCTAssertEqual(
            Self.promisedOutput(of: ["print(x)  // \"a b\"", "f()  // prints \"c\"", "g() // \"d\" is not at the end of the line", "h()"]),
            ["a b", "c"])
    }

    // MARK: - Built and run

    func testModelConsumer_whenBuiltAndRun_thenPrintsWhatTheExamplesSay() throws {
        let executable = try build(Self.model)
        let run = try Command.run(executable.path, [])
        XCTAssertEqual(run.status, 0, run.stderr)
        let output = lines(run.stdout)
        XCTAssertEqual(
            output,
            [
                "session/home",
                "session/home/pages/overview",
                "ada",
                "ada",
                "observers after cancel: 0",
            ] + Self.vocabularyTour)
        try assertTheExamplesPromise(Self.model, output: output)
    }

    /// The client's examples find the daemon at the default socket path, as any client does:
    /// as a user other than root (nobody, when the tests run as root), whose `XDG_RUNTIME_DIR`
    /// holds the daemon's socket. Each example ends only when the daemon closes its watch, so
    /// they run as two programs: the asynchronous watch first, which sees the overview's
    /// `Login`, then the overview; a `Logout` reaches both, and the daemon stops.
    func testClientConsumer_whenRunAgainstADaemon_thenPrintsWhatTheExamplesSay() throws {
        let executable = try build(Self.client)
        let tour = try Command.run(executable.path, ["vocabulary"])
        XCTAssertEqual(tour.status, 0, tour.stderr)
        XCTAssertEqual(lines(tour.stdout), Self.vocabularyTour)

        let runtimeDirectory = try DaemonProcess.makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: runtimeDirectory) }
        let daemon = try DaemonProcess(
            arguments: ["--socket-mode", "0666", "--allow-group", "nogroup"],
            directory: runtimeDirectory.appendingPathComponent("appstate", isDirectory: true)
        )
        XCTAssertEqual(daemon.socketPath, runtimeDirectory.path + "/appstate/io.appstate")
        let reader = try VarlinkClient(path: daemon.socketPath)

        let watcher = try ConsumerRun(executable, "async", runtimeDirectory: runtimeDirectory)
        try waitUntil("the asynchronous watch is subscribed") { try reader.call(GetStats.self, .init()).watchers == 1 }
        let overview = try ConsumerRun(executable, "overview", runtimeDirectory: runtimeDirectory)
        try waitUntil("the overview's watch is subscribed") { try reader.call(GetStats.self, .init()).watchers == 2 }
        try waitUntil("the asynchronous watch saw the overview's login") { watcher.output.contains("Login") }

        XCTAssertEqual(try reader.call(Logout.self, .init()).path, "session/login")
        try waitUntil("both watches saw the logout") {
            watcher.output.contains("Logout") && overview.output.contains("Logout session/login/login-form")
        }
        reader.close()
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)

        XCTAssertEqual(watcher.wait(), 0, watcher.errors)
        XCTAssertEqual(overview.wait(), 0, overview.errors)
        XCTAssertEqual(watcher.output, ["Login", "Logout", "the daemon closed the connection"])
        XCTAssertEqual(overview.output, ["session/login/login-form", "Logout session/login/login-form", "the daemon closed the connection"])
        try assertTheExamplesPromise(Self.client, output: overview.output + watcher.output)
    }

    // MARK: - Building and running

    /// Builds a consumer package, which resolves this package by its path, in its scratch
    /// directory under `.build-consumers`.
    /// - Returns: The consumer's executable.
    private func build(_ consumer: Consumer) throws -> URL {
        let build = try Command.run(
            try resolveExecutable("swift"),
            [
                "build", "--package-path", consumer.package.path, "--scratch-path", consumer.scratch.path,
            ])
        XCTAssertEqual(build.status, 0, "swift build of \(consumer.name) failed:\n\(build.stdout)\n\(build.stderr)")
        guard build.status == 0 else { throw TestFailure("\(consumer.name) did not build") }
        return consumer.scratch.appendingPathComponent("debug/\(consumer.name)")
    }

    /// A run of the client consumer that goes on while the test drives the daemon: as nobody
    /// when the tests run as root, and with its output line-buffered (`stdbuf -oL`) so that the
    /// test can read each line as it is printed.
    private final class ConsumerRun {
        private let process = Process()
        private let directory: URL

        init(_ executable: URL, _ example: String, runtimeDirectory: URL) throws {
            directory = try DaemonProcess.makeTemporaryDirectory()
            var command = [try resolveExecutable("stdbuf"), "-oL", executable.path, example]
            if getuid() == 0 {
                command = [try resolveExecutable("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + command
            }
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
            process.environment = environment
            for name in ["out", "err"] {
                _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil)
            }
            process.standardOutput = try FileHandle(forWritingTo: directory.appendingPathComponent("out"))
            process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("err"))
            try process.runAsTestChild()
        }

        /// The lines printed so far.
        var output: [String] { text("out").split(separator: "\n").map(String.init) }
        /// What it wrote to standard error so far.
        var errors: String { text("err") }

        private func text(_ name: String) -> String {
            (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }

        /// Waits for the program to end, at most 20 seconds.
        /// - Returns: Its exit status, or nil when it had to be killed.
        func wait() -> Int32? {
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            guard !process.isRunning else {
                stop()
                return nil
            }
            return process.terminationStatus
        }

        func stop() {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: directory)
        }

        deinit { stop() }
    }

    private func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while try !condition() {
            guard Date() < deadline else { throw TestFailure("timed out waiting until \(what)") }
            usleep(10_000)
        }
    }

    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    /// Every value an example's comments promise is in the consumer's output, in the order
    /// the example gives them.
    private func assertTheExamplesPromise(_ consumer: Consumer, output: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        for example in try Self.examples(in: consumer) {
            let promised = Self.promisedOutput(of: example.lines)
            var remaining = output[...]
            for value in promised {
                guard let index = remaining.firstIndex(of: value) else {
                    XCTFail(
                        "\(example.document): the example says a line prints \"\(value)\", but \(consumer.name) printed \(output)",
                        file: file, line: line)
                    break
                }
                remaining = remaining[(index + 1)...]
            }
        }
    }

    // MARK: - Reading documents and sources

    /// The README, the pages of docs/ and every article of the DocC catalogs, relative to the
    /// repository.
    private static func documents() throws -> [String] {
        let sources = Products.repository.appendingPathComponent("Sources")
        var documents = ["README.md"] + MarkdownDocuments.paths(under: Products.repository).filter { $0.hasPrefix("docs/") }
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
            guard let articles = try? FileManager.default.contentsOfDirectory(atPath: catalog.path) else { continue }
            documents += articles.filter { $0.hasSuffix(".md") }.sorted().map { "Sources/\(module)/\(module).docc/\($0)" }
        }
        return documents
    }

    private static func swiftBlocks(in document: String) throws -> [[String]] {
        swiftBlocks(inText: try String(contentsOf: Products.repository.appendingPathComponent(document), encoding: .utf8))
    }

    /// The ```swift blocks of a Markdown text, each without the indentation its lines share.
    private static func swiftBlocks(inText text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if trimmed == "```swift" { current = [] }
            } else if trimmed == "```" {
                blocks.append(dedented(current ?? []))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    private struct Example {
        let file: String
        /// The line of the example's first line in its file.
        let line: Int
        let document: String
        let lines: [String]
    }

    private static func examples(in consumer: Consumer) throws -> [Example] {
        let files = try FileManager.default.contentsOfDirectory(atPath: consumer.sources.path).filter { $0.hasSuffix(".swift") }.sorted()
        return try files.flatMap { name in
            let url = consumer.sources.appendingPathComponent(name)
            return examples(
                inText: try String(contentsOf: url, encoding: .utf8), file: "Tests/Consumers/\(consumer.name)/Sources/\(consumer.name)/\(name)")
        }
    }

    /// The regions between `// Example from PATH` and `// End of example`, without the
    /// indentation their lines share and without blank lines at either end.
    private static func examples(inText text: String, file: String) -> [Example] {
        var examples: [Example] = []
        var current: (document: String, line: Int, lines: [String])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = current {
                if trimmed == "// End of example" {
                    var lines = open.lines
                    while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
                    examples.append(Example(file: file, line: open.line, document: open.document, lines: dedented(lines)))
                    current = nil
                } else {
                    current?.lines.append(line)
                }
            } else if trimmed.hasPrefix("// Example from ") {
                current = (String(trimmed.dropFirst("// Example from ".count)), index + 2, [])
            }
        }
        return examples
    }

    /// The values an example's lines say they print: a trailing comment that is a quoted
    /// string, after `prints` or alone.
    private static func promisedOutput(of lines: [String]) -> [String] {
        lines.compactMap { line in
            line.firstMatch(of: #///\s*(?:prints\s+)?"([^"]*)"\s*$/#).map { String($0.1) }
        }
    }

    private static func dedented(_ lines: [String]) -> [String] {
        let lines = lines.map { line in line.trimmingCharacters(in: .whitespaces).isEmpty ? "" : line }
        let indentation = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map {
            $0.isEmpty ? "" : String($0.dropFirst(indentation)).replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
        }
    }
}
