import Foundation
import TestSupport
import VarlinkIDL
import XCTest

/// The Varlink library knows no interface: its modules import nothing of appstate, and its
/// generator and build plugin name nothing of `io.appstate`, whose placement is the
/// configuration beside the interface file. A change that reached back into appstate would
/// still build inside this package, and only another project using the library would notice.
final class VarlinkLibraryBoundaryTests: AppStateTestCase {
    private static let root = TestPaths.repositoryRoot
    /// The library's modules, its generator and its plugin.
    private static let library = [
        "Sources/VarlinkJSON", "Sources/Varlink", "Sources/VarlinkServer", "Sources/VarlinkIDL", "Sources/VarlinkSwiftGenerator",
        "Sources/VarlinkCertification", "Sources/appstate-varlink-certification", "Plugins/VarlinkSwiftPlugin",
    ]
    /// The project's own modules, which the library must not import.
    private static let appstateModules = ["AppStateCore", "AppStateIPC", "ServicePorts", "StateContainers", "TreeFiles", "AppStateHost"]

    func testLibrary_importsNoModuleOfAppstate() throws {
        for (path, text) in try Self.swiftFiles(under: Self.library) {
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" import ") {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                XCTAssertFalse(Self.appstateModules.contains(module), "\(path): \(line)")
            }
        }
    }

    func testGeneratorAndPlugin_nameNothingOfAppstate() throws {
        let interface = try InterfaceDefinition(
            parsing: String(contentsOf: Self.root.appendingPathComponent("Sources/AppStateIPC/io.appstate.varlink"), encoding: .utf8))
        let fragments = ["appstate", "AppState", "NodeSnapshot"]
        let names = interface.types.map(\.name) + interface.methods.map(\.name) + interface.errors.map(\.name)
        XCTAssertTrue(names.contains("Node"), "the interface's types were not read")
        let files = try Self.swiftFiles(under: ["Sources/VarlinkSwiftGenerator", "Plugins/VarlinkSwiftPlugin"])
        XCTAssertFalse(files.isEmpty)
        for (path, text) in files {
            let words = Set(text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
            for name in names where words.contains(name) {
                XCTFail("\(path) names \(name) of io.appstate: say it in the interface's configuration instead")
            }
            for fragment in fragments where text.contains(fragment) {
                XCTFail("\(path) names \(fragment): say it in the interface's configuration instead")
            }
        }
    }

    private static func swiftFiles(under directories: [String]) throws -> [(path: String, text: String)] {
        try directories.flatMap { directory in
            let url = root.appendingPathComponent(directory)
            let paths = FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []
            XCTAssertFalse(paths.isEmpty, "\(directory) is empty: has it moved?")
            return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { path in
                ("\(directory)/\(path)", try String(contentsOf: url.appendingPathComponent(path), encoding: .utf8))
            }
        }
    }
}
