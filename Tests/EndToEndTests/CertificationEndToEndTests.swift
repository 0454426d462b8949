import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// Varlink's certification (`org.varlink.certification`) between the project's Varlink and
/// two independent implementations: Debian's Go one (`varlink-go`) and PyPI's Python one,
/// each as the client of `appstate-varlink-certification`, and Python's service certified by
/// the project's client. Every value type crosses, maps and sets, nullable members, ten
/// replies to a call with `more`, and a `oneway` call.
final class CertificationEndToEndTests: AppStateTestCase {
    private var certification: URL { Products.directory.appendingPathComponent("appstate-varlink-certification") }

    private func directory() throws -> URL {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// The project's certification service, listening.
    private func service() throws -> ListeningProcess {
        let service = try ListeningProcess(certification, ["--varlink={address}"], in: try directory())
        addTeardownBlock { service.stop() }
        return service
    }

    private func python() throws -> String {
        let interpreter = Products.python.path
        guard FileManager.default.isExecutableFile(atPath: interpreter) else {
            throw TestFailure("no venv at \(interpreter): `scripts/install-deps --test` creates it")
        }
        return interpreter
    }

    func testGoClient_whenCertifyingTheService_thenPasses() throws {
        let service = try service()
        let result = try Command.run(try resolveExecutable("varlink-go-certification"), ["--client", "--varlink=unix:" + service.socketPath])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr + service.standardError)
        let output = result.stdout + result.stderr
        XCTAssertTrue(output.contains("Receive: 'Reply number 10'"), output)
        XCTAssertTrue(output.contains("End: 'true'"), output)
    }

    func testPythonClient_whenCertifyingTheService_thenPasses() throws {
        let service = try service()
        let result = try Command.run(
            try python(), ["-m", "varlink.tests.test_certification", "--client", "--varlink=unix:" + service.socketPath])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr + service.standardError)
        XCTAssertTrue(result.stdout.contains("Test10: {'string': 'Reply number 10'}"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("Certification passed\n"), result.stdout)
    }

    func testClient_whenCertifyingPythonsService_thenPasses() throws {
        let service = try ListeningProcess(
            URL(fileURLWithPath: try python()), ["-u", "-m", "varlink.tests.test_certification", "--varlink={address}"], in: try directory())
        addTeardownBlock { service.stop() }
        let result = try Command.run(certification.path, ["--client", "--varlink=unix:" + service.socketPath])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr + service.standardError)
        XCTAssertEqual(result.stdout.split(separator: "\n").map { $0.prefix { $0 != ":" } }.first, "Start")
        XCTAssertTrue(result.stdout.contains(#"Test10: ["Reply number 1","Reply number 2","#), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("Certification passed\n"), result.stdout)
    }

    func testService_whenACallComesOutOfOrder_thenAnswersCertificationErrorAndEndsTheRun() throws {
        let client = try VarlinkClient(path: try service().socketPath)
        let id = try XCTUnwrap(client.call(method: "org.varlink.certification.Start")["client_id"]?.stringValue)
        XCTAssertEqual(id.count, 32)
        XCTAssertThrowsError(try client.call(method: "org.varlink.certification.Test02", parameters: ["client_id": .string(id), "bool": true])) {
            let error = $0 as? VarlinkError
            XCTAssertEqual(error?.name, "org.varlink.certification.CertificationError")
            XCTAssertEqual(error?.parameters["wants"], ["method": "org.varlink.certification.Test01"])
        }
        XCTAssertThrowsError(try client.call(method: "org.varlink.certification.Test01", parameters: ["client_id": .string(id)])) {
            XCTAssertEqual(($0 as? VarlinkError)?.name, "org.varlink.certification.ClientIdError")
        }
    }

    func testService_whenAParameterDiffers_thenNamesWhatItWantsAndWhatItGot() throws {
        let client = try VarlinkClient(path: try service().socketPath)
        let id = try XCTUnwrap(client.call(method: "org.varlink.certification.Start")["client_id"]?.stringValue)
        XCTAssertEqual(try client.call(method: "org.varlink.certification.Test01", parameters: ["client_id": .string(id)]), ["bool": true])
        XCTAssertThrowsError(try client.call(method: "org.varlink.certification.Test02", parameters: ["client_id": .string(id), "bool": false])) {
            let error = $0 as? VarlinkError
            XCTAssertEqual(error?.name, "org.varlink.certification.CertificationError")
            XCTAssertEqual(error?.parameters["wants"]?["parameters"]?["bool"], true)
            XCTAssertEqual(error?.parameters["got"]?["parameters"]?["bool"], false)
        }
        XCTAssertThrowsError(try client.call(method: "org.varlink.certification.Test02", parameters: ["client_id": .string(id), "bool": "yes"])) {
            XCTAssertEqual(($0 as? VarlinkError)?.name, "org.varlink.service.InvalidParameter")
        }
    }

    func testService_whenAskedForItsInterface_thenDescribesTheCertificationAsPythonShipsIt() throws {
        let client = try VarlinkClient(path: try service().socketPath)
        let description = try client.call(
            method: "org.varlink.service.GetInterfaceDescription", parameters: ["interface": "org.varlink.certification"])["description"]
        let shipped = try Command.run(
            try python(),
            [
                "-c",
                "import importlib.resources as r; print(r.files('varlink.tests').joinpath('org.varlink.certification.varlink').read_text(), end='')",
            ])
        XCTAssertEqual(shipped.status, 0, shipped.stderr)
        XCTAssertEqual(description?.stringValue, shipped.stdout)
    }
}
