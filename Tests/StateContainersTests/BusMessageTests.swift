import Foundation
import StateContainers
import TestSupport
import XCTest

final class BusMessageTests: AppStateTestCase {
    private let begin = Rect(x: 0, y: 800, width: 1280, height: 320)
    private let end = Rect(x: 0, y: 480, width: 1280, height: 320)

    // MARK: - Names

    func testNotificationName_whenWellKnown_hasItsDocumentedString() {
        XCTAssertEqual(NotificationName.keyboardWillShow.rawValue, "keyboard.willShow")
        XCTAssertEqual(NotificationName.keyboardDidShow.rawValue, "keyboard.didShow")
        XCTAssertEqual(NotificationName.keyboardWillHide.rawValue, "keyboard.willHide")
        XCTAssertEqual(NotificationName.keyboardDidHide.rawValue, "keyboard.didHide")
        XCTAssertEqual(NotificationName.keyboardWillChangeFrame.rawValue, "keyboard.willChangeFrame")
        XCTAssertEqual(NotificationName.sessionDidLogIn.rawValue, "session.didLogIn")
        XCTAssertEqual(NotificationName.sessionDidLogOut.rawValue, "session.didLogOut")
    }

    func testNotificationName_whenBuiltEachWay_isEqualAndDescribedByItsString() {
        let literal: NotificationName = "session.didLogIn"

        XCTAssertEqual(literal, NotificationName(rawValue: "session.didLogIn"))
        XCTAssertEqual(literal, NotificationName("session.didLogIn"))
        XCTAssertEqual(literal, .sessionDidLogIn)
        XCTAssertEqual(literal.description, "session.didLogIn")
        XCTAssertEqual("\(literal)", "session.didLogIn")
    }

    func testNotificationName_whenEncoded_isAPlainJSONString() throws {
        let data = try JSONEncoder().encode([NotificationName.keyboardWillShow])

        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"["keyboard.willShow"]"#)
        XCTAssertEqual(try JSONDecoder().decode([NotificationName].self, from: data), [.keyboardWillShow])
    }

    func testMessageName_whenEachMessageType_isItsWellKnownName() {
        XCTAssertEqual(KeyboardWillShow.name, .keyboardWillShow)
        XCTAssertEqual(KeyboardDidShow.name, .keyboardDidShow)
        XCTAssertEqual(KeyboardWillHide.name, .keyboardWillHide)
        XCTAssertEqual(KeyboardDidHide.name, .keyboardDidHide)
        XCTAssertEqual(KeyboardWillChangeFrame.name, .keyboardWillChangeFrame)
        XCTAssertEqual(SessionDidLogIn.name, .sessionDidLogIn)
        XCTAssertEqual(SessionDidLogOut.name, .sessionDidLogOut)
    }

    func testAnimationCurve_rawValuesAreTheWireStrings() {
        XCTAssertEqual(AnimationCurve.allCases.map(\.rawValue), ["easeInOut", "easeIn", "easeOut", "linear"])
    }

    // MARK: - Keyboard messages

    func testKeyboardUserInfo_whenEncoded_usesTheDocumentedKeysAndShapes() {
        let message = KeyboardWillShow(frameBegin: begin, frameEnd: end, duration: 0.25, curve: .easeOut)

        XCTAssertEqual(
            message.userInfo,
            [
                "frameBegin": ["x": 0, "y": 800, "width": 1280, "height": 320],
                "frameEnd": ["x": 0, "y": 480, "width": 1280, "height": 320],
                "duration": 0.25,
                "curve": "easeOut",
            ]
        )
    }

    func testKeyboardMessages_whenRoundTrippedThroughANotification_decodeToTheSameMessage() {
        assertRoundTrip(KeyboardWillShow(frameBegin: begin, frameEnd: end, duration: 0.25, curve: .easeIn))
        assertRoundTrip(KeyboardDidShow(frameBegin: begin, frameEnd: end, duration: 0.25, curve: .easeOut))
        assertRoundTrip(KeyboardWillHide(frameBegin: end, frameEnd: begin, duration: 0.3, curve: .linear))
        assertRoundTrip(KeyboardDidHide(frameBegin: end, frameEnd: begin, duration: 0, curve: .easeInOut))
        assertRoundTrip(KeyboardWillChangeFrame(frameBegin: end, frameEnd: begin, duration: 1.5, curve: .easeIn))
    }

    func testKeyboardMessage_whenUserInfoCrossesJSON_decodesToTheSameMessage() throws {
        let message = KeyboardWillChangeFrame(frameBegin: begin, frameEnd: end, duration: 0.25, curve: .linear)

        let data = try JSONEncoder().encode(message.userInfo)
        let userInfo = try JSONDecoder().decode([String: JSONValue].self, from: data)

        XCTAssertEqual(KeyboardWillChangeFrame(BusNotification(name: .keyboardWillChangeFrame, userInfo: userInfo)), message)
    }

    func testKeyboardMessage_whenOnlyFrameEndGiven_defaultsTheRest() {
        let notification = BusNotification(
            name: .keyboardWillShow,
            userInfo: ["frameEnd": ["x": 0, "y": 480, "width": 1280, "height": 320]]
        )

        let message = KeyboardWillShow(notification)

        XCTAssertEqual(message, KeyboardWillShow(frameBegin: end, frameEnd: end, duration: 0, curve: .easeInOut))
    }

    func testKeyboardMessage_whenOptionalValuesInvalid_defaultsThem() {
        let notification = BusNotification(
            name: .keyboardWillHide,
            userInfo: [
                "frameBegin": ["x": "left", "y": 0, "width": 10, "height": 10],
                "frameEnd": ["x": 0, "y": 480, "width": 1280, "height": 320],
                "duration": "slow",
                "curve": "bounce",
            ]
        )

        let message = KeyboardWillHide(notification)

        XCTAssertEqual(message, KeyboardWillHide(frameBegin: end, frameEnd: end, duration: 0, curve: .easeInOut))
    }

    func testKeyboardMessage_whenDurationNegativeOrNotFinite_isZero() {
        func decoded(duration: Double) -> Double? {
            let notification = BusNotification(
                name: .keyboardDidShow,
                userInfo: ["frameEnd": ["x": 0, "y": 0, "width": 1, "height": 1], "duration": .number(duration)]
            )
            return KeyboardDidShow(notification)?.duration
        }

        XCTAssertEqual(decoded(duration: -1), 0)
        XCTAssertEqual(decoded(duration: .nan), 0)
        XCTAssertEqual(decoded(duration: .infinity), 0)
        XCTAssertEqual(decoded(duration: 0.5), 0.5)
        XCTAssertEqual(KeyboardDidShow(frameBegin: end, frameEnd: end, duration: .nan).userInfo["duration"], 0)
    }

    func testKeyboardRoundTripped_whenValuesNeedCleaning_cleansThemAsDecodingDoes() {
        let infinite = Rect(x: 0, y: .infinity, width: 1280, height: 320)
        let unknown = Rect(x: .nan, y: 480, width: 1280, height: 320)
        let messages = [
            KeyboardWillShow(frameBegin: begin, frameEnd: end, duration: -1, curve: .easeIn),
            KeyboardWillShow(frameBegin: begin, frameEnd: end, duration: .nan),
            KeyboardWillShow(frameBegin: begin, frameEnd: end, duration: -.infinity),
            KeyboardWillShow(frameBegin: infinite, frameEnd: end, duration: 0.25),
            KeyboardWillShow(frameBegin: unknown, frameEnd: end, duration: 0.25),
            KeyboardWillShow(frameBegin: begin, frameEnd: infinite, duration: 0.25),
            KeyboardWillShow(frameBegin: begin, frameEnd: unknown, duration: 0.25),
        ]

        XCTAssertEqual(
            messages.map(\.roundTripped),
            [
                KeyboardWillShow(frameBegin: begin, frameEnd: end, duration: 0, curve: .easeIn),
                KeyboardWillShow(frameBegin: begin, frameEnd: end, duration: 0),
                KeyboardWillShow(frameBegin: begin, frameEnd: end, duration: 0),
                KeyboardWillShow(frameBegin: end, frameEnd: end, duration: 0.25),
                KeyboardWillShow(frameBegin: end, frameEnd: end, duration: 0.25),
                nil,
                nil,
            ]
        )
        for message in messages {
            let decoded = KeyboardWillShow(BusNotification(name: .keyboardWillShow, userInfo: message.userInfo))
            XCTAssertEqual(message.roundTripped, decoded, "\(message)")
        }
    }

    func testKeyboardMessage_whenIntegersGiven_acceptsThemAsNumbers() {
        let notification = BusNotification(
            name: .keyboardWillShow,
            userInfo: ["frameEnd": ["x": 0, "y": 480, "width": 1280, "height": 320], "duration": 1]
        )

        XCTAssertEqual(KeyboardWillShow(notification)?.duration, 1)
        XCTAssertEqual(KeyboardWillShow(notification)?.frameEnd, end)
    }

    func testKeyboardMessage_whenFrameEndMissingOrInvalid_isNil() {
        let invalidFrameEnds: [JSONValue?] = [
            nil,
            "0,480,1280,320",
            [0, 480, 1280, 320],
            ["x": 0, "y": 480, "width": 1280],
            ["x": 0, "y": 480, "width": 1280, "height": "320"],
            ["x": 0, "y": 480, "width": 1280, "height": nil],
            ["x": .number(.nan), "y": 480, "width": 1280, "height": 320],
            ["x": 0, "y": 480, "width": .number(.infinity), "height": 320],
        ]

        for frameEnd in invalidFrameEnds {
            var userInfo: [String: JSONValue] = ["frameBegin": ["x": 0, "y": 480, "width": 1280, "height": 320]]
            userInfo["frameEnd"] = frameEnd
            XCTAssertNil(KeyboardWillShow(BusNotification(name: .keyboardWillShow, userInfo: userInfo)), "\(String(describing: frameEnd))")
        }
    }

    func testKeyboardMessage_whenNotificationHasAnotherName_isNil() {
        let notification = BusNotification(
            name: .keyboardDidHide,
            userInfo: KeyboardWillShow(frameBegin: begin, frameEnd: end).userInfo
        )

        XCTAssertNil(KeyboardWillShow(notification))
        XCTAssertNotNil(KeyboardDidHide(notification))
    }

    func testKeyboardMessage_whenCreatedWithoutDurationAndCurve_usesNoAnimationAndEaseInOut() {
        let message = KeyboardWillShow(frameBegin: begin, frameEnd: end)

        XCTAssertEqual(message.duration, 0)
        XCTAssertEqual(message.curve, .easeInOut)
    }

    func testKeyboardMessage_whenHandledThroughTheProtocol_exposesItsFrames() {
        let messages: [any KeyboardMessage] = [
            KeyboardWillShow(frameBegin: begin, frameEnd: end),
            KeyboardWillChangeFrame(frameBegin: end, frameEnd: begin),
        ]

        XCTAssertEqual(messages.map(\.frameEnd), [end, begin])
    }

    // MARK: - Session messages

    func testSessionDidLogIn_whenRoundTripped_keepsTheUser() {
        let message = SessionDidLogIn(user: "alice")

        XCTAssertEqual(message.userInfo, ["user": "alice"])
        assertRoundTrip(message)
    }

    func testSessionDidLogIn_whenUserMissingOrNotAString_isNil() {
        XCTAssertNil(SessionDidLogIn(BusNotification(name: .sessionDidLogIn)))
        XCTAssertNil(SessionDidLogIn(BusNotification(name: .sessionDidLogIn, userInfo: ["user": 42])))
        XCTAssertNil(SessionDidLogIn(BusNotification(name: .sessionDidLogIn, userInfo: ["user": nil])))
    }

    func testSessionDidLogIn_whenNotificationHasAnotherName_isNil() {
        XCTAssertNil(SessionDidLogIn(BusNotification(name: .sessionDidLogOut, userInfo: ["user": "alice"])))
    }

    func testSessionDidLogOut_whenUserUnknown_hasEmptyUserInfoAndRoundTrips() {
        let message = SessionDidLogOut()

        XCTAssertEqual(message.userInfo, [:])
        assertRoundTrip(message)
    }

    func testSessionDidLogOut_whenUserGiven_roundTripsIt() {
        let message = SessionDidLogOut(user: "alice")

        XCTAssertEqual(message.userInfo, ["user": "alice"])
        assertRoundTrip(message)
    }

    func testSessionDidLogOut_whenUserNotAString_stillDecodesWithoutUser() {
        let message = SessionDidLogOut(BusNotification(name: .sessionDidLogOut, userInfo: ["user": [1]]))

        XCTAssertEqual(message, SessionDidLogOut())
    }

    func testSessionDidLogOut_whenNotificationHasAnotherName_isNil() {
        XCTAssertNil(SessionDidLogOut(BusNotification(name: .sessionDidLogIn, userInfo: ["user": "alice"])))
    }

    // MARK: - Helpers

    private func assertRoundTrip<M: BusMessage & Equatable>(
        _ message: M,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let notification = BusNotification(name: M.name, userInfo: message.userInfo)
        XCTAssertEqual(M(notification), message, file: file, line: line)
        XCTAssertEqual(message.roundTripped, message, "roundTripped", file: file, line: line)
    }
}
