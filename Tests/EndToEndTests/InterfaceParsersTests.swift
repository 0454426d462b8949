import Foundation
import TestSupport
import XCTest

/// The interface as independent Varlink implementations read it: Go's interface generator
/// (`varlink-go`) takes the file, and Python's `varlink` parses every description a real
/// daemon returns from `GetInterfaceDescription`.
final class InterfaceParsersTests: AppStateTestCase {
    func testGoInterfaceGenerator_whenGivenTheInterfaceFiles_thenGeneratesGo() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        for file in ["AppStateIPC/io.appstate.varlink", "Varlink/org.varlink.service.varlink"] {
            let copy = directory.appendingPathComponent(URL(fileURLWithPath: file).lastPathComponent)
            try FileManager.default.copyItem(at: Products.repository.appendingPathComponent("Sources/" + file), to: copy)
            let result = try Command.run(try resolveExecutable("varlink-go-interface-generator"), [copy.path])
            XCTAssertEqual(result.status, 0, "\(file): \(result.stdout)\(result.stderr)")
        }
        // It writes one Go file per interface, named after it, beside the file.
        let generated = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".go") }
        XCTAssertEqual(generated.count, 2, "\(generated)")
    }

    func testPythonVarlink_whenParsingWhatARealDaemonDescribes_thenAcceptsEveryInterface() throws {
        let interpreter = Products.python.path
        _ = try XCTUnwrap(
            FileManager.default.isExecutableFile(atPath: interpreter) ? interpreter : nil, "no venv at \(interpreter): `make test` creates it")
        let daemon = try DaemonProcess()
        let result = try Command.run(
            interpreter,
            [
                "-c",
                """
                import sys, varlink
                with varlink.Client(address=sys.argv[1]) as client:
                    for name in sorted(client.get_interfaces()):
                        interface = client.get_interface(name)
                        print(interface.name, len(interface.members))
                """,
                "unix:" + daemon.socketPath,
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let parsed = result.stdout.split(separator: "\n").map { $0.split(separator: " ") }
        XCTAssertEqual(parsed.map { $0.first }, ["io.appstate", "org.varlink.service"])
        XCTAssertTrue(parsed.allSatisfy { Int($0.last ?? "") ?? 0 > 5 }, result.stdout)
        XCTAssertEqual(daemon.stop(), 0)
    }
}
