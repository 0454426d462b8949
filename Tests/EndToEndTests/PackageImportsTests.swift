import Foundation
import TestSupport
import XCTest

/// Every module a target imports is one it declares in Package.swift, so that its build does
/// not depend on what another target happens to pull in, and every declared dependency is
/// used.
final class PackageImportsTests: AppStateTestCase {
    /// Modules of the toolchain, which no target declares.
    private static let toolchain: Set<String> = [
        "Dispatch", "Foundation", "FoundationEssentials", "FoundationXML", "Glibc", "PackageDescription", "PackagePlugin",
        "Synchronization", "XCTest",
    ]

    func testTargets_whenTheirSourcesImportAModule_thenTheyDeclareIt() throws {
        let targets = try Self.targets()
        XCTAssertGreaterThan(targets.count, 10)
        for target in targets {
            let name = try XCTUnwrap(target["name"] as? String)
            let type = try XCTUnwrap(target["type"] as? String)
            let directory = target["path"] as? String ?? (type == "plugin" ? "Plugins" : type == "test" ? "Tests" : "Sources") + "/\(name)"
            let declared = Self.dependencies(of: target)
            let imported = try Self.imports(under: TestPaths.repositoryRoot.appendingPathComponent(directory))
            XCTAssertEqual(imported.subtracting(declared).subtracting(Self.toolchain), [], "\(name) imports modules it does not declare")
            if type != "plugin" {
                XCTAssertEqual(declared.subtracting(imported), [], "\(name) declares dependencies it does not import")
            }
        }
    }

    /// The libraries behind the web front-ends, the kiosk and appstatectl's output link no
    /// argument parser: options belong to the executables and their shared option groups.
    func testLibraries_whenTheyRenderOrServe_thenLinkNoArgumentParser() throws {
        let targets = try Self.targets()
        var graph: [String: Set<String>] = [:]
        for target in targets {
            if let name = target["name"] as? String { graph[name] = Self.dependencies(of: target) }
        }
        for library in [
            "AppStateRendering", "AppStateCtlKit", "AppStateWebServices", "AppStateInspectKit", "AppStateGatewayKit", "AppStateKioskKit",
        ] {
            var reached: Set<String> = []
            var pending = [library]
            while let next = pending.popLast() {
                for dependency in graph[next] ?? [] where reached.insert(dependency).inserted { pending.append(dependency) }
            }
            XCTAssertNotNil(graph[library], library)
            XCTAssertFalse(reached.contains("ArgumentParser"), "\(library) links ArgumentParser through \(reached.sorted())")
        }
    }

    /// The package's targets, as `swift package dump-package` describes them.
    private static func targets() throws -> [[String: Any]] {
        // A scratch path of its own: the suite's build holds the lock of the package's own.
        let scratch = try TemporaryDirectory()
        let output = try runProcess(
            "swift", ["package", "--package-path", TestPaths.repositoryRoot.path, "--scratch-path", scratch.path, "dump-package"])
        XCTAssertEqual(output.status, 0, output.standardError)
        let package = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        return try XCTUnwrap(package["targets"] as? [[String: Any]])
    }

    /// The targets and products a target names as its dependencies.
    private static func dependencies(of target: [String: Any]) -> Set<String> {
        Set((target["dependencies"] as? [[String: [Any]]] ?? []).compactMap { $0.values.first?.first as? String })
    }

    /// The modules the Swift files under a directory import.
    private static func imports(under directory: URL) throws -> Set<String> {
        let statement = #/^(?:@\w+\s+)*(?:(?:public|package|internal)\s+)?import\s+(\w+)/#.anchorsMatchLineEndings()
        var modules: Set<String> = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            for match in try String(contentsOf: file, encoding: .utf8).matches(of: statement) { modules.insert(String(match.1)) }
        }
        return modules
    }
}
