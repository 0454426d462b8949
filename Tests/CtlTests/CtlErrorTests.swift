import AppStateCtlKit
import AppStateIPC
import Glibc
import TestSupport
import XCTest

final class CtlErrorTests: AppStateTestCase {
    private func sentence(_ error: VarlinkError) -> String {
        CtlError(error).message
    }

    /// appstatectl says what the catalogue says: every declared error's sentence and exit status.
    func testEveryDeclaredErrorIsItsCatalogueSentenceAndExitStatus() {
        for entry in ErrorCatalogue.all {
            XCTAssertEqual(
                CtlError(entry.example), CtlError(message: entry.sentence(for: entry.example), exitCode: entry.exitStatus.code),
                entry.example.name)
        }
    }

    func testARefusalExitsOne() {
        XCTAssertEqual(CtlError(VarlinkError.noSuchNode(path: "session/nope")), CtlError(message: "no node at session/nope", exitCode: 1))
        XCTAssertEqual(CtlError(VarlinkError.permissionDenied).exitCode, 1)
    }

    func testTooManyConnectionsMeansTheDaemonCannotBeReached() {
        XCTAssertEqual(
            CtlError(VarlinkError.tooManyConnections(limit: 256)),
            CtlError(message: "appstated is serving its maximum of 256 connections; try again later", exitCode: 69)
        )
    }

    func testUnknownErrorsAreShownByName() {
        XCTAssertEqual(
            sentence(VarlinkError(name: "org.example.Broken", parameters: ["code": 7])),
            "appstated answered: org.example.Broken {\"code\":7}"
        )
    }

    func testAnUnreachableDaemonNamesTheSocketAndTheReasonAndExits69() {
        let socket = "/run/appstate/io.appstate"
        let cases: [(VarlinkClientError, String)] = [
            (
                VarlinkClientError(connectErrorNumber: ENOENT, socketPath: socket),
                "appstated is not running: /run/appstate/io.appstate does not exist"
            ),
            (
                VarlinkClientError(connectErrorNumber: ECONNREFUSED, socketPath: socket),
                "appstated is not running: /run/appstate/io.appstate: connection refused"
            ),
            (
                VarlinkClientError(connectErrorNumber: EACCES, socketPath: socket),
                "cannot reach appstated: /run/appstate/io.appstate: permission denied (ask to be added to the appstate group)"
            ),
            (
                VarlinkClientError(.invalidAddress, socketPath: "", detail: "empty socket path"),
                "cannot reach appstated: : empty socket path"
            ),
            (
                VarlinkClientError(.connectionClosed, socketPath: socket),
                "appstated closed the connection (/run/appstate/io.appstate)"
            ),
        ]
        for (error, message) in cases {
            XCTAssertEqual(CtlError(error), CtlError(message: message, exitCode: 69))
        }
    }

    func testATimeoutSaysHowLongItWaitedAndExits75() {
        let context = CtlError.Context(timeout: .seconds(5))
        XCTAssertEqual(
            CtlError(VarlinkClientError(.timedOut, socketPath: "/s", detail: "waiting for a reply"), context: context),
            CtlError(message: "appstated did not answer within 5 seconds (/s); try again or raise --timeout", exitCode: 75)
        )
        XCTAssertEqual(
            CtlError(VarlinkClientError(connectErrorNumber: EAGAIN, socketPath: "/s"), context: CtlError.Context(timeout: .milliseconds(500))),
            CtlError(message: "appstated did not accept the connection within 0.5 seconds (/s); try again or raise --timeout", exitCode: 75)
        )
    }

    func testAMalformedReplyIsAProtocolError() {
        let error = CtlError(VarlinkClientError(.invalidReply, socketPath: "/s", detail: "io.appstate.GetTree: invalid parameter root"))
        XCTAssertEqual(error.exitCode, 76)
        XCTAssertEqual(error.message, "appstated sent a reply appstatectl does not understand (/s): io.appstate.GetTree: invalid parameter root")
    }

    func testOtherSystemFailuresExit71() {
        let error = CtlError(VarlinkClientError(.systemError, socketPath: "/s", errorNumber: EMFILE, detail: "recv"))
        XCTAssertEqual(error.exitCode, 71)
        XCTAssertTrue(error.message.hasPrefix("/s: recv failed: "), error.message)
    }
}
