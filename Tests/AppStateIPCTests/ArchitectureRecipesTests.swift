import Foundation
import TestSupport
import VarlinkIDL
import XCTest

/// The recipes of `docs/architecture/recipes.md` (adding a method, an error, a container) each
/// end with the files that kind of change touches. Every file listed must exist, and every file
/// that names most of the registered methods, or most of the declared errors, must be listed in
/// the method's or the error's recipe: such a file is a table with a row for each, which the
/// next method or error has to join, and a recipe that forgot it would send its reader away
/// with a change half made.
final class ArchitectureRecipesTests: AppStateTestCase {
    private static let root = TestPaths.repositoryRoot
    private static let recipes = "docs/architecture/recipes.md"
    private static let registry = "Sources/AppStateHost/Processing/RequestProcessor+Methods.swift"
    private static let interface = "Sources/AppStateIPC/io.appstate.varlink"
    /// Where tables of methods or errors may be: the package's code, tests and documents.
    private static let searched = ["Sources", "Tests", "Fuzz", "Plugins", "docs", "examples"]
    private static let textExtensions: Set<String> = ["swift", "md", "varlink", "py", "js", "html", "sh", "yaml", "json", "c", "h"]

    private static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: Reading

    /// The paths a recipe lists: the code spans holding a `/` on the bullets that follow its
    /// "Files it touches:" line, up to the next heading.
    static func listedFiles(in document: String, recipe heading: String) -> [String] {
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: heading) else { return [] }
        let section = lines[(start + 1)...].prefix { !$0.hasPrefix("## ") }
        guard let list = section.firstIndex(of: "Files it touches:") else { return [] }
        return section[list...].filter { $0.hasPrefix("- ") }.flatMap { line in
            line.matches(of: #/`([^`\s]+)`/#).map { String($0.1) }.filter { $0.contains("/") }
        }
    }

    /// The methods the registry registers, in its order.
    static func registeredMethods(in registry: String) -> [String] {
        registry.matches(of: #/registry\.\w+\((\w+)\.self/#).map { String($0.1) }
    }

    /// Each name of a declared error, as the interface spells it and as its Swift case does.
    static func errorSpellings(_ names: [String]) -> [[String]] {
        names.map { [$0, $0.prefix(1).lowercased() + $0.dropFirst()] }
    }

    /// The files under `directories` of `root` that name at least three quarters of `names`
    /// (each given by its spellings), as paths relative to `root`.
    static func tables(naming names: [[String]], under directories: [String], root: URL) -> [String] {
        let needed = (names.count * 3 + 3) / 4
        var found: [String] = []
        for directory in directories {
            let enumerator = FileManager.default.enumerator(
                at: root.appendingPathComponent(directory), includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            while let url = enumerator?.nextObject() as? URL {
                guard textExtensions.contains(url.pathExtension),
                    let text = try? String(contentsOf: url, encoding: .utf8)
                else { continue }
                let words = Set(text.matches(of: #/[A-Za-z_][A-Za-z0-9_]*/#).map { String($0.0) })
                if names.count(where: { spellings in spellings.contains { words.contains($0) } }) >= needed {
                    found.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
                }
            }
        }
        return found.sorted()
    }

    /// Whether `listed` covers `path`: names it, or names a directory it is in.
    static func covers(_ listed: [String], _ path: String) -> Bool {
        listed.contains { $0 == path || ($0.hasSuffix("/") && path.hasPrefix($0)) }
    }

    // MARK: The recipes

    func testRecipes_whenTheyListFiles_thenEachExists() throws {
        let document = try Self.text(Self.recipes)
        for heading in ["## Adding a method", "## Adding an error", "## Adding a container"] {
            let files = Self.listedFiles(in: document, recipe: heading)
            XCTAssertFalse(files.isEmpty, "\(Self.recipes): \(heading) lists no files after \"Files it touches:\"")
            for file in files {
                XCTAssertTrue(
                    FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path),
                    "\(Self.recipes): \(heading) lists \(file), which does not exist: rename it there, or say where that change goes now")
            }
        }
    }

    func testMethodRecipe_whenAFileNamesMostRegisteredMethods_thenItIsListed() throws {
        let methods = Self.registeredMethods(in: try Self.text(Self.registry))
        XCTAssertGreaterThan(methods.count, 10, "\(Self.registry) registers no methods that this test can read")
        let listed = Self.listedFiles(in: try Self.text(Self.recipes), recipe: "## Adding a method")
        let tables = Self.tables(naming: methods.map { [$0] }, under: Self.searched, root: Self.root)
        XCTAssertTrue(tables.contains(Self.registry), "the registry itself is not found naming its methods: \(tables)")
        for path in tables where path != Self.recipes && !Self.covers(listed, path) {
            XCTFail(
                "\(path) names most of the methods of the registry, so a new method joins it: list it under \"Adding a method\" in \(Self.recipes)")
        }
    }

    func testErrorRecipe_whenAFileNamesMostDeclaredErrors_thenItIsListed() throws {
        let errors = try InterfaceDefinition(parsing: try Self.text(Self.interface)).errors.map(\.name)
        XCTAssertGreaterThan(errors.count, 10, "\(Self.interface) declares no errors that this test can read")
        let listed = Self.listedFiles(in: try Self.text(Self.recipes), recipe: "## Adding an error")
        let tables = Self.tables(naming: Self.errorSpellings(errors), under: Self.searched, root: Self.root)
        XCTAssertTrue(tables.contains(Self.interface), "the interface file is not found naming its errors: \(tables)")
        for path in tables where path != Self.recipes && !Self.covers(listed, path) {
            XCTFail("\(path) names most of the declared errors, so a new error joins it: list it under \"Adding an error\" in \(Self.recipes)")
        }
    }

    /// The readers, on a made-up recipe and made-up files.
    func testReaders_findTheListedFilesAndTheTables() throws {
        let document = """
            ## Adding a thing

            1. Edit `Sources/A/a.swift` and `Sources/B/b.swift`.

            Files it touches:

            - `Sources/A/a.swift`: the table.
            - `Sources/C/`, `Tests/D/d.swift`: the rest, with `words` that are no path.

            ## Adding another

            Files it touches:

            - `Sources/E/e.swift`: another's.
            """
        XCTAssertEqual(Self.listedFiles(in: document, recipe: "## Adding a thing"), ["Sources/A/a.swift", "Sources/C/", "Tests/D/d.swift"])
        XCTAssertEqual(Self.listedFiles(in: document, recipe: "## Adding another"), ["Sources/E/e.swift"])
        XCTAssertEqual(Self.listedFiles(in: document, recipe: "## Missing"), [])
        XCTAssertTrue(Self.covers(["Sources/C/"], "Sources/C/c.swift"))
        XCTAssertFalse(Self.covers(["Sources/A/a.swift"], "Sources/A/b.swift"))
        XCTAssertEqual(
            Self.registeredMethods(in: "registry.read(GetTree.self) { _ in }\nregistry.change(Login.self, durable: true) { _ in }"),
            ["GetTree", "Login"])
        XCTAssertEqual(Self.errorSpellings(["NoSuchNode"]), [["NoSuchNode", "noSuchNode"]])

        let directory = try TemporaryDirectory()
        let root = URL(fileURLWithPath: directory.path)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try "case .one, .two, .three: Four".write(to: root.appendingPathComponent("Sources/all.swift"), atomically: true, encoding: .utf8)
        try "One and Two".write(to: root.appendingPathComponent("Sources/half.md"), atomically: true, encoding: .utf8)
        try "OneTwo ThreeFour".write(to: root.appendingPathComponent("Sources/joined.md"), atomically: true, encoding: .utf8)
        let names = Self.errorSpellings(["One", "Two", "Three", "Four"])
        XCTAssertEqual(Self.tables(naming: names, under: ["Sources"], root: root), ["Sources/all.swift"])
    }
}
