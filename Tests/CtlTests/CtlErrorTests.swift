import AppStateCtlKit
import AppStateIPC
import Glibc
import TestSupport
import XCTest

final class CtlErrorTests: AppStateTestCase {
    private func sentence(_ error: VarlinkError, user: String? = nil) -> String {
        CtlError(error, context: CtlError.Context(user: user)).message
    }

    func testEveryDeclaredErrorIsASentenceAndExitsOne() {
        let expected: [AppStateErrorName: (VarlinkError, String)] = [
            .noSuchTree: (.noSuchTree("kiosk"), "no tree named kiosk (appstatectl status lists the trees)"),
            .noSuchNode: (.noSuchNode(path: "session/nope"), "no node at session/nope"),
            .wrongContainerType: (
                .wrongContainerType(path: "session/home", expected: "PaginatedController", actual: "MenuController"),
                "session/home is a MenuController, not a PaginatedController"
            ),
            .invalidTransition: (
                .invalidTransition(path: "session/home/inbox", reason: "the root cannot be popped"),
                "cannot change session/home/inbox: the root cannot be popped"
            ),
            .alreadyLoggedIn: (.alreadyLoggedIn(user: "ada"), "ada is already logged in (use --switch to replace them)"),
            .outOfRange: (
                .outOfRange(path: "session/home/pages", index: 42, count: 3),
                "session/home/pages has 3 pages; 42 is out of range"
            ),
            .noSuchChild: (
                .noSuchChild(path: "session/home", id: "reports"),
                "session/home has no child named reports"
            ),
            .noSuchPresentation: (
                .noSuchPresentation(tree: "kiosk", id: "sheet"),
                "the tree kiosk has no presentation named sheet (its tree file lists them under presentations)"
            ),
            .alreadyPresenting: (
                .alreadyPresenting(path: "session", presented: "session/screensaver"),
                "session already presents session/screensaver (appstatectl dismiss first)"
            ),
            .transitionInProgress: (
                .transitionInProgress(path: "session/home/pages"),
                "session/home/pages is in the middle of a transition; try again when it has finished"
            ),
            .messageTooLarge: (
                .messageTooLarge(limit: 1_048_576),
                "the request is larger than appstated accepts (at most 1048576 bytes)"
            ),
            .watcherTooSlow: (
                .watcherTooSlow(queued: 1024),
                "appstated ended the watch because its output was not read fast enough (1024 changes were waiting)"
            ),
            .storageFailure: (
                .storageFailure(reason: "No space left on device"),
                "appstated could not save the change, so it did not make it: No space left on device"
            ),
            .invalidValue: (
                .invalidValue(parameter: "height", reason: "must be from 0 to 1000000 points, not -1"),
                "invalid height: must be from 0 to 1000000 points, not -1"
            ),
            .sessionOwnedByLogind: (
                .sessionOwnedByLogind(tree: "default", seat: "seat0"),
                "the tree default follows logind on seat0: log in, out, lock and unlock there (for example with the greeter or loginctl)"
            ),
            .windowOwnedByOutput: (
                .windowOwnedByOutput(tree: "kiosk", output: "HDMI-A-1"),
                "the tree kiosk follows the output HDMI-A-1: its size is the output's (change it in the compositor, e.g. with swaymsg output)"
            ),
            .noKeyboardFollowed: (
                .noKeyboardFollowed(reason: "the daemon was started without --follow-osk"),
                "appstated has no on-screen keyboard to ask: the daemon was started without --follow-osk"
            ),
            .keyboardRequestFailed: (
                .keyboardRequestFailed(keyboard: "squeekboard", reason: "sm.puri.OSK0.SetVisible on /sm/puri/OSK0 got no answer"),
                "squeekboard did not do what was asked: sm.puri.OSK0.SetVisible on /sm/puri/OSK0 got no answer"
            ),
            .noKiosk: (
                .noKiosk(tree: "lobby"),
                "no appstate-kiosk shows the tree lobby (is it running, and reporting to this appstated?)"
            ),
        ]
        for name in AppStateErrorName.allCases where name != .tooManyConnections {
            guard let (error, message) = expected[name] else {
                XCTFail("no expected sentence for \(name.rawValue)")
                continue
            }
            XCTAssertEqual(error.name, name.rawValue)
            XCTAssertEqual(CtlError(error), CtlError(message: message, exitCode: 1), name.rawValue)
        }
    }

    func testTooManyConnectionsMeansTheDaemonCannotBeReached() {
        XCTAssertEqual(
            CtlError(VarlinkError.tooManyConnections(limit: 256)),
            CtlError(message: "appstated is serving its maximum of 256 connections; try again later", exitCode: 69)
        )
    }

    func testAlreadyLoggedInSuggestsSwitchingToTheUserAskedFor() {
        XCTAssertEqual(
            sentence(.alreadyLoggedIn(user: "ada"), user: "bob"),
            "ada is already logged in (use --switch to log in as bob)"
        )
    }

    func testOutOfRangeCountsASinglePage() {
        XCTAssertEqual(sentence(.outOfRange(path: "p", index: -1, count: 1)), "p has 1 page; -1 is out of range")
    }

    func testArticleFollowsTheKind() {
        XCTAssertEqual(
            sentence(.wrongContainerType(path: "a", expected: "MenuController", actual: "InputController")),
            "a is an InputController, not a MenuController"
        )
    }

    func testServiceErrors() {
        let hint = "(are appstatectl and appstated the same version?)"
        XCTAssertEqual(
            sentence(.permissionDenied),
            "permission denied: your user may not change appstated's state (ask to be added to the appstate group)"
        )
        XCTAssertEqual(sentence(.methodNotFound("io.appstate.Fly")), "appstated does not know the method io.appstate.Fly \(hint)")
        XCTAssertEqual(
            sentence(.methodNotImplemented("io.appstate.Fly")),
            "appstated does not implement the method io.appstate.Fly \(hint)"
        )
        XCTAssertEqual(sentence(.invalidParameter("step")), "appstated rejected the parameter step \(hint)")
        XCTAssertEqual(sentence(.interfaceNotFound("org.example")), "appstated does not provide the interface org.example")
        XCTAssertEqual(sentence(.expectedMore), "appstated expects this call to be a stream \(hint)")
        XCTAssertEqual(CtlError(VarlinkError.permissionDenied).exitCode, 1)
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
