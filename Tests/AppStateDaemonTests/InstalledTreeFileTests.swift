import Foundation
import TestSupport
import XCTest

@testable import AppStateDaemon

/// `appstated` without `--tree-file` runs the tree file the package installs in /etc/appstate
/// when it is there, and the embedded default tree otherwise.
final class InstalledTreeFileTests: AppStateTestCase {
    private let oneTree = """
        trees:
          - name: lobby
            root: { type: Controller, id: welcome }
        """

    func testTreeFile_whenNoneNamedAndTheInstalledOneExists_thenStartsOnIt() throws {
        let directory = try TemporaryDirectory()
        let installed = directory.path + "/tree.yaml"
        try oneTree.write(toFile: installed, atomically: true, encoding: .utf8)
        var configuration = DaemonConfiguration()
        configuration.files.treeFile = DaemonConfiguration.treeFile(named: nil, installed: installed)
        XCTAssertEqual(configuration.files.treeFile, installed)
        XCTAssertEqual(try StartupInputs(configuration).treeFile.trees.map(\.name), ["lobby"])
    }

    func testTreeFile_whenNoneNamedAndNoneInstalled_thenStartsOnTheEmbeddedDefaultTree() throws {
        let directory = try TemporaryDirectory()
        XCTAssertNil(DaemonConfiguration.treeFile(named: nil, installed: directory.path + "/tree.yaml"))
        // A file where the directory /etc/appstate would be is no tree file either.
        try "".write(toFile: directory.path + "/appstate", atomically: true, encoding: .utf8)
        XCTAssertNil(DaemonConfiguration.treeFile(named: nil, installed: directory.path + "/appstate/tree.yaml"))
        var configuration = DaemonConfiguration()
        configuration.files.treeFile = DaemonConfiguration.treeFile(named: nil, installed: directory.path + "/tree.yaml")
        XCTAssertEqual(try StartupInputs(configuration).treeFile.trees.map(\.name), ["default"])
    }

    func testTreeFile_whenOneIsNamed_thenItWinsOverTheInstalledOne() throws {
        let directory = try TemporaryDirectory()
        let installed = directory.path + "/tree.yaml"
        try oneTree.write(toFile: installed, atomically: true, encoding: .utf8)
        XCTAssertEqual(DaemonConfiguration.treeFile(named: "/srv/trees.yaml", installed: installed), "/srv/trees.yaml")
    }

    func testTreeFile_whenTheInstalledOneIsBroken_thenTheStartFailsNamingIt() throws {
        let directory = try TemporaryDirectory()
        let installed = directory.path + "/tree.yaml"
        try "trees: []\n".write(toFile: installed, atomically: true, encoding: .utf8)
        var configuration = DaemonConfiguration()
        configuration.files.treeFile = DaemonConfiguration.treeFile(named: nil, installed: installed)
        XCTAssertThrowsError(try StartupInputs(configuration)) { error in
            XCTAssertTrue("\(error)".contains(installed), "\(error)")
        }
    }

    func testInstalledTreeFile_isWhereThePackageInstallsIt() throws {
        // debian/appstate.install installs the conffile; the daemon's default must not drift from it.
        let install = try String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("debian/appstate.install"), encoding: .utf8)
        let installed = URL(fileURLWithPath: DaemonConfiguration.installedTreeFile)
        let lines = install.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertTrue(
            lines.contains {
                $0.count == 2 && $0[0].hasSuffix("/" + installed.lastPathComponent) && "/" + $0[1] == installed.deletingLastPathComponent().path
            },
            "debian/appstate.install installs no \(installed.lastPathComponent) in \(installed.deletingLastPathComponent().path)")
    }
}
