import AppStateCore
import AppStateIPC
import TestSupport
import XCTest

final class VarlinkMessageTests: AppStateTestCase {
    private func decodeCall(_ text: String) throws(VarlinkProtocolError) -> VarlinkCall {
        try VarlinkCall(frame: Array(text.utf8))
    }

    private func decodeReply(_ text: String) throws(VarlinkProtocolError) -> VarlinkReply {
        try VarlinkReply(frame: Array(text.utf8))
    }

    private func assertMalformedCall(
        _ text: String, _ expected: VarlinkProtocolError, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try decodeCall(text), file: file, line: line) { error in
            XCTAssertEqual(error as? VarlinkProtocolError, expected, file: file, line: line)
        }
    }

    // MARK: calls

    func testDecode_whenCallHasEveryMember_thenAllDecoded() throws {
        let call = try decodeCall(#"{"method":"io.appstate.Watch","parameters":{"tree":"main"},"oneway":false,"more":true,"upgrade":false}"#)
        XCTAssertEqual(call, VarlinkCall(method: "io.appstate.Watch", parameters: ["tree": "main"], more: true))
    }

    func testDecode_whenCallHasOnlyMethod_thenDefaults() throws {
        let call = try decodeCall(#"{"method":"io.appstate.GetTree"}"#)
        XCTAssertEqual(call.parameters, [:])
        XCTAssertFalse(call.oneway || call.more || call.upgrade)
    }

    func testDecode_whenOptionalMembersAreNull_thenTreatedAsAbsent() throws {
        let call = try decodeCall(#"{"method":"a.B","parameters":null,"oneway":null,"more":null,"upgrade":null}"#)
        XCTAssertEqual(call, VarlinkCall(method: "a.B"))
    }

    func testDecode_whenCallHasUnknownTopLevelMembers_thenIgnored() throws {
        let call = try decodeCall(#"{"method":"a.B","com.example.trace":{"id":7},"extra":1,"oneway":true}"#)
        XCTAssertEqual(call, VarlinkCall(method: "a.B", oneway: true))
    }

    func testDecode_whenFrameHasNoMethod_thenMalformed() {
        assertMalformedCall(#"{"parameters":{}}"#, .missingMethod)
        assertMalformedCall(#"{"method":null}"#, .missingMethod)
    }

    func testDecode_whenMethodIsNotAString_thenMalformed() {
        assertMalformedCall(#"{"method":42}"#, .missingMethod)
        assertMalformedCall(#"{"method":["a.B"]}"#, .missingMethod)
    }

    func testDecode_whenFrameIsNotAnObject_thenMalformed() {
        assertMalformedCall("[]", .notAnObject)
        assertMalformedCall(#""io.appstate.GetTree""#, .notAnObject)
        assertMalformedCall("null", .notAnObject)
    }

    func testDecode_whenFrameIsNotJSON_thenMalformedWithParserReason() {
        XCTAssertThrowsError(try decodeCall(#"{"method":"a.B""#)) { error in
            let error = error as? VarlinkProtocolError
            XCTAssertEqual(error?.kind, .invalidJSON)
            XCTAssertEqual(error?.jsonError?.kind, .unexpectedEnd)
        }
        XCTAssertThrowsError(try VarlinkCall(frame: [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])) { error in
            XCTAssertEqual((error as? VarlinkProtocolError)?.jsonError?.kind, .invalidUTF8)
        }
    }

    func testDecode_whenCallRepeatsAMember_thenMalformedDuplicateKey() {
        for text in [#"{"method":"a.B","method":"c.D"}"#, #"{"x":1,"method":"a.B","x":2}"#, #"{"method":"a.B","parameters":{"a":1,"a":2}}"#] {
            XCTAssertThrowsError(try decodeCall(text), text) { error in
                XCTAssertEqual((error as? VarlinkProtocolError)?.jsonError?.kind, .duplicateKey, text)
            }
        }
    }

    func testDecode_whenFrameHasTrailingData_thenMalformed() {
        XCTAssertThrowsError(try decodeCall(#"{"method":"a.B"} {}"#)) { error in
            XCTAssertEqual((error as? VarlinkProtocolError)?.jsonError?.kind, .trailingData)
        }
        XCTAssertThrowsError(try decodeReply(#"{"parameters":{}}x"#)) { error in
            XCTAssertEqual((error as? VarlinkProtocolError)?.jsonError?.kind, .trailingData)
        }
    }

    func testDecode_whenMessageIsParsedValueOrFrame_thenSameResult() throws {
        let text = #"{"method":"a.B","parameters":{"x":[1,{"y":null}]},"more":true,"vendor.ext":{}}"#
        XCTAssertEqual(try VarlinkCall(message: JSONValue(jsonText: text)), try decodeCall(text))
        XCTAssertThrowsError(try VarlinkCall(message: JSONValue(jsonText: #"{"method":"a.B","more":"x"}"#))) { error in
            XCTAssertEqual(error as? VarlinkProtocolError, .invalidField("more"))
        }
    }

    func testDecode_whenFlagHasWrongType_thenMalformedNamingIt() {
        assertMalformedCall(#"{"method":"a.B","oneway":"yes"}"#, .invalidField("oneway"))
        assertMalformedCall(#"{"method":"a.B","more":1}"#, .invalidField("more"))
        assertMalformedCall(#"{"method":"a.B","upgrade":{}}"#, .invalidField("upgrade"))
    }

    func testDecode_whenParametersIsNotAnObject_thenMalformed() {
        assertMalformedCall(#"{"method":"a.B","parameters":[]}"#, .invalidField("parameters"))
        assertMalformedCall(#"{"method":"a.B","parameters":"tree"}"#, .invalidField("parameters"))
    }

    func testEncode_whenCall_thenCompactJSONWithNulTerminator() {
        var buffer: [UInt8] = [1]
        VarlinkCall(method: "io.appstate.Watch", parameters: ["tree": "a", "b": 2], more: true).encode(into: &buffer)
        XCTAssertEqual(buffer.first, 1)
        XCTAssertEqual(buffer.last, 0)
        XCTAssertEqual(
            String(decoding: buffer.dropFirst().dropLast(), as: UTF8.self),
            #"{"method":"io.appstate.Watch","parameters":{"b":2,"tree":"a"},"more":true}"#
        )
        XCTAssertEqual(
            String(decoding: VarlinkCall(method: "a.B", oneway: true, upgrade: true).encoded.dropLast(), as: UTF8.self),
            #"{"method":"a.B","parameters":{},"oneway":true,"upgrade":true}"#
        )
    }

    func testEncode_whenCallIsDecodedAgain_thenEqual() throws {
        let call = VarlinkCall(method: "io.appstate.Post", parameters: ["name": "x\"y\n", "userInfo": ["a": [1, nil]]], oneway: true)
        XCTAssertEqual(try VarlinkCall(frame: Array(call.encoded.dropLast())), call)
    }

    // MARK: replies

    func testEncode_whenReply_thenParametersContinuesAndError() {
        XCTAssertEqual(String(decoding: VarlinkReply(parameters: ["path": "a/b"]).encoded, as: UTF8.self), "{\"parameters\":{\"path\":\"a/b\"}}\0")
        XCTAssertEqual(String(decoding: VarlinkReply(continues: true).encoded, as: UTF8.self), "{\"parameters\":{},\"continues\":true}\0")
        XCTAssertEqual(
            String(decoding: VarlinkReply(error: .noSuchNode(path: "x")).encoded, as: UTF8.self),
            "{\"parameters\":{\"path\":\"x\"},\"error\":\"io.appstate.NoSuchNode\"}\0"
        )
    }

    func testDecode_whenReplyHasEveryMember_thenAllDecoded() throws {
        let reply = try decodeReply(#"{"parameters":{"n":1},"continues":true,"error":null,"upgraded":false}"#)
        XCTAssertEqual(reply, VarlinkReply(parameters: ["n": 1], continues: true))
        XCTAssertNil(reply.varlinkError)
    }

    func testDecode_whenReplyIsAnErrorWithoutParameters_thenErrorWithEmptyParameters() throws {
        let reply = try decodeReply(#"{"error":"org.varlink.service.PermissionDenied"}"#)
        XCTAssertEqual(reply.varlinkError, .permissionDenied)
    }

    func testDecode_whenReplyMembersHaveWrongTypes_thenMalformed() {
        for (text, field) in [
            (#"{"parameters":[]}"#, "parameters"), (#"{"continues":"no"}"#, "continues"), (#"{"error":7}"#, "error"),
        ] {
            XCTAssertThrowsError(try decodeReply(text)) { error in
                XCTAssertEqual(error as? VarlinkProtocolError, .invalidField(field))
            }
        }
        XCTAssertThrowsError(try decodeReply("1")) { error in
            XCTAssertEqual(error as? VarlinkProtocolError, .notAnObject)
        }
    }

    func testEncode_whenReplyIsDecodedAgain_thenEqual() throws {
        let reply = VarlinkReply(parameters: ["root": ["children": []], "n": 3.5], continues: true)
        XCTAssertEqual(try VarlinkReply(frame: Array(reply.encoded.dropLast())), reply)
    }

    // MARK: errors

    func testServiceErrors_whenBuilt_thenStandardNamesAndParameters() {
        XCTAssertEqual(
            VarlinkError.methodNotFound("io.appstate.X"),
            VarlinkError(name: "org.varlink.service.MethodNotFound", parameters: ["method": "io.appstate.X"]))
        XCTAssertEqual(
            VarlinkError.interfaceNotFound("a.b"), VarlinkError(name: "org.varlink.service.InterfaceNotFound", parameters: ["interface": "a.b"]))
        XCTAssertEqual(
            VarlinkError.invalidParameter("tree"), VarlinkError(name: "org.varlink.service.InvalidParameter", parameters: ["parameter": "tree"]))
        XCTAssertEqual(
            VarlinkError.methodNotImplemented("a.B"), VarlinkError(name: "org.varlink.service.MethodNotImplemented", parameters: ["method": "a.B"]))
        XCTAssertEqual(VarlinkError.permissionDenied, VarlinkError(name: "org.varlink.service.PermissionDenied"))
        XCTAssertEqual(VarlinkError.expectedMore, VarlinkError(name: "org.varlink.service.ExpectedMore"))
    }

    /// The first output has no name, so the error leaves its optional member out.
    func testWindowOwnedByOutput_whenTheFirstOutput_thenNoOutputMember() {
        XCTAssertEqual(VarlinkError.windowOwnedByOutput(tree: "t", output: nil).parameters, ["tree": "t"])
        XCTAssertEqual(
            VarlinkError.windowOwnedByOutput(tree: "t", output: nil).message,
            "the tree t follows the compositor's first output: its size is the output's (change it in the compositor, e.g. with swaymsg output)")
    }

    func testMessage_whenKnownError_thenSentenceFromParameters() {
        XCTAssertEqual(VarlinkError.noSuchNode(path: "session/x").message, "no node at session/x")
        XCTAssertEqual(VarlinkError.outOfRange(path: "p", index: 5, count: 3).message, "p has 3 pages; 5 is out of range")
        XCTAssertEqual(VarlinkError.outOfRange(path: "p", index: -1, count: 1).message, "p has 1 page; -1 is out of range")
        XCTAssertEqual(
            VarlinkError.wrongContainerType(path: "a", expected: "MenuController", actual: "InputController").message,
            "a is an InputController, not a MenuController")
        XCTAssertEqual(VarlinkError.permissionDenied.description.hasSuffix(" [org.varlink.service.PermissionDenied]"), true)
    }

    func testMessage_whenUnknownError_thenNameAndParameters() {
        XCTAssertEqual(VarlinkError(name: "com.example.Oops", parameters: ["b": 1, "a": "x"]).message, #"com.example.Oops {"a":"x","b":1}"#)
        XCTAssertEqual(VarlinkError(name: "com.example.Oops").message, "com.example.Oops")
    }
}
