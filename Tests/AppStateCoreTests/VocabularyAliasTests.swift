import Foundation
import TestSupport
import XCTest

/// `import StateContainers` and `import AppStateIPC` each give a whole API because each module
/// names every public type of AppStateCore with a type alias, in a `Vocabulary.swift` of its
/// own. A type added to AppStateCore without its aliases would compile and pass every other
/// test, and only a client that imports one product would notice; so both lists are checked
/// against AppStateCore's sources here.
final class VocabularyAliasTests: AppStateTestCase {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The modules whose one import must give AppStateCore's vocabulary, and their alias files.
    private static let aliasFiles = [
        "Sources/StateContainers/Vocabulary.swift",
        "Sources/AppStateIPC/Vocabulary.swift",
    ]

    func testAliasFiles_listEveryPublicTypeOfAppStateCore() throws {
        let declarations = try Self.topLevelPublicDeclarations()
        let types = Set(declarations.types)
        XCTAssertFalse(types.isEmpty, "no public type found in Sources/AppStateCore: has the module moved?")
        for file in Self.aliasFiles {
            let aliases = try Self.aliases(in: file)
            for alias in aliases where alias.name != alias.target {
                XCTFail("\(file): \(alias.name) names AppStateCore.\(alias.target); an alias keeps the type's own name")
            }
            let named = Set(aliases.map(\.name))
            XCTAssertEqual(aliases.count, named.count, "\(file) names a type twice")
            for missing in types.subtracting(named).sorted() {
                XCTFail("\(file) has no alias for AppStateCore's public \(missing): add `public typealias \(missing) = AppStateCore.\(missing)`")
            }
            for extra in named.subtracting(types).sorted() {
                XCTFail("\(file) names \(extra), which AppStateCore does not declare as a public type")
            }
        }
    }

    /// A public function, variable or operator at the top level of AppStateCore cannot be
    /// named by a type alias, so a client importing one product would not see it: the
    /// vocabulary declares such things as static members of its types instead.
    func testAppStateCore_declaresNothingPublicThatAnAliasCannotCarry() throws {
        for declaration in try Self.topLevelPublicDeclarations().others {
            XCTFail("\(declaration): a top-level public declaration reaches no client through the type aliases; make it a member of a type")
        }
    }

    /// The parsers themselves, on text with each kind of declaration.
    func testParsing_findsTopLevelTypesAndNothingNested() {
        let text = """
            /// A type.
            public struct Size: Hashable {
                public struct Nested {}
                public enum Inner {}
            }
            @frozen public enum Kind { case a }
            public final class Box {}
            open class Base {}
            public protocol Shape {}
            public typealias Alias = Int
            public actor Worker {}
            struct Internal {}
            extension Size { public static let zero = Size() }
            public func helper() {}
            public let constant = 1
            infix operator <~>
            """
        let parsed = Self.topLevelPublicDeclarations(in: text, file: "Sample.swift")
        XCTAssertEqual(parsed.types, ["Size", "Kind", "Box", "Base", "Shape", "Alias", "Worker"])
        XCTAssertEqual(
            parsed.others,
            [
                "Sample.swift:14: public func helper() {}", "Sample.swift:15: public let constant = 1",
                "Sample.swift:16: infix operator <~>",
            ])
        XCTAssertEqual(
            Self.aliases(inText: "public typealias Size = AppStateCore.Size\n// public typealias Old = AppStateCore.Old\n").map(\.name), ["Size"])
    }

    // MARK: - Reading the sources

    /// The public declarations of AppStateCore's sources and of what the build plugin
    /// generates for it from the interface file.
    private static func topLevelPublicDeclarations() throws -> (types: [String], others: [String]) {
        var types: [String] = []
        var others: [String] = []
        for url in try sourceFiles(under: repository.appendingPathComponent("Sources/AppStateCore")) + generatedFiles() {
            let parsed = topLevelPublicDeclarations(in: try String(contentsOf: url, encoding: .utf8), file: url.lastPathComponent)
            types += parsed.types
            others += parsed.others
        }
        return (types, others)
    }

    private static func sourceFiles(under directory: URL) throws -> [URL] {
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// The plugin's output for AppStateCore in this build: `.build/plugins/outputs/*/AppStateCore`
    /// beside the products' directory (`.build/<triple>/debug`).
    private static func generatedFiles() throws -> [URL] {
        let build = URL(fileURLWithPath: try TestPaths.productsDirectory).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent()
        let files = try sourceFiles(under: build.appendingPathComponent("plugins/outputs"))
            .filter { $0.path.contains("/AppStateCore/destination/") }
        XCTAssertFalse(files.isEmpty, "no generated source of AppStateCore under \(build.path)/plugins/outputs")
        return files
    }

    /// The public declarations that start a line, which in this code base's formatting is the
    /// top level: nested ones are indented. Attributes before the modifier are allowed.
    private static func topLevelPublicDeclarations(in text: String, file: String) -> (types: [String], others: [String]) {
        let type = #/^(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:final|indirect)\s+)*(?:struct|enum|class|protocol|typealias|actor)\s+(\w+)/#
        let other =
            #/^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|open)\s+.*\b(?:func|var|let|macro)\b|(?:prefix|postfix|infix)\s+operator\b|precedencegroup\b)/#
        var types: [String] = []
        var others: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let match = line.prefixMatch(of: type) {
                types.append(String(match.1))
            } else if line.prefixMatch(of: other) != nil {
                others.append("\(file):\(index + 1): \(line)")
            }
        }
        return (types, others)
    }

    private static func aliases(in file: String) throws -> [(name: String, target: String)] {
        aliases(inText: try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8))
    }

    private static func aliases(inText text: String) -> [(name: String, target: String)] {
        text.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: #/public typealias (\w+) = AppStateCore\.(\w+)/#).map { (String($0.1), String($0.2)) }
        }
    }
}
