import Foundation
import TestSupport
import XCTest

/// The daemon driven by a third-party client: the `varlink` package from PyPI, which parses
/// the interface description itself and so also checks the interface file.
final class PythonVarlinkClientTests: AppStateTestCase {
    private func python(_ script: String, socket: String) throws -> Command {
        let interpreter = Products.python.path
        _ = try XCTUnwrap(
            FileManager.default.isExecutableFile(atPath: interpreter) ? interpreter : nil,
            "no venv at \(interpreter): `make test` creates it")
        return try Command.run(interpreter, ["-c", script, "unix:" + socket])
    }

    func testIntrospectAndCall_whenUsingPythonVarlink_thenMethodsWork() throws {
        let daemon = try DaemonProcess()
        let result = try python(
            """
            import sys, varlink
            with varlink.Client(address=sys.argv[1]) as client, client.open("io.appstate") as appstate:
                print(sorted(client.get_interfaces()))
                print(appstate.Login(user="ada")["path"])
                print(appstate.GetCurrent()["path"])
                print(appstate.SetPage(step=1)["index"])
                try:
                    appstate.SetPage(index=42)
                except varlink.VarlinkError as error:
                    print(error.error())
            """, socket: daemon.socketPath)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout.split(separator: "\n"),
            [
                "['io.appstate', 'org.varlink.service']", "session/home", "session/home/pages/overview", "1", "io.appstate.OutOfRange",
            ])
        XCTAssertEqual(daemon.stop(), 0)
    }

    func testWatch_whenUsingPythonVarlink_thenStreamsSnapshotThenChanges() throws {
        let daemon = try DaemonProcess()
        let result = try python(
            """
            import sys, varlink
            with varlink.Client(address=sys.argv[1]) as client, client.open("io.appstate") as watcher, client.open("io.appstate") as actor:
                replies = watcher.Watch(_more=True)
                first = next(replies)
                print(first["root"]["current"])
                actor.Login(user="ada")
                change = next(replies)
                print(change["event"]["name"], change["event"]["current"])
            """, socket: daemon.socketPath)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n"), ["login", "Login session/home/pages/overview"])
        XCTAssertEqual(daemon.stop(), 0)
    }
}
