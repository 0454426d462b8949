import AppStateCore
import AppStateIPC
import TestSupport
import VarlinkIDL
import XCTest

/// Checks every method's parameter and reply types against the interface file: the same
/// members, and for each member that it is required or optional as declared and that
/// every wrongly typed value is answered with InvalidParameter naming it.
final class MethodParameterTests: AppStateTestCase {
    private var appState: InterfaceDefinition {
        get throws { try InterfaceDefinition(parsing: AppStateInterface.description) }
    }
    private var service: InterfaceDefinition {
        get throws { try InterfaceDefinition(parsing: VarlinkServiceInterface.description) }
    }

    // MARK: generic checks driven by the interface file

    func testParameters_whenComparedWithInterfaceFile_thenEveryMethodMatches() throws {
        let appState = try appState
        XCTAssertEqual(appState.methods.map(\.name), AppStateMethod.allCases.map(\.shortName))
        for method in AppStateMethod.allCases {
            let declaration = try XCTUnwrap(appState.method(named: method.shortName), method.shortName)
            XCTAssertEqual(method.declaration.name, method.rawValue)
            checkMethod(method.declaration, declaration, in: appState)
        }
    }

    func testParameters_whenComparedWithServiceInterface_thenGetInfoAndDescriptionMatch() throws {
        let service = try service
        checkMethod(GetInfo.self, try XCTUnwrap(service.method(named: "GetInfo")), in: service)
        checkMethod(GetInterfaceDescription.self, try XCTUnwrap(service.method(named: "GetInterfaceDescription")), in: service)
        XCTAssertEqual(GetInfo.name, "org.varlink.service.GetInfo")
        XCTAssertEqual(GetInterfaceDescription.name, "org.varlink.service.GetInterfaceDescription")
    }

    func testTypes_whenComparedWithInterfaceFile_thenMembersMatch() throws {
        let appState = try appState
        XCTAssertEqual(Node.memberNames, appState.type(named: "Node")?.members.map(\.name))
        XCTAssertEqual(Event.memberNames, appState.type(named: "Event")?.members.map(\.name))
        XCTAssertEqual(Rect.memberNames, appState.type(named: "Rect")?.members.map(\.name))
        XCTAssertEqual(Insets.memberNames, appState.type(named: "Insets")?.members.map(\.name))
        XCTAssertEqual(Follower.memberNames, appState.type(named: "Follower")?.members.map(\.name))
        let appearance = try XCTUnwrap(appState.type(named: "Node")?.members.first { $0.name == "appearance" }?.type)
        XCTAssertEqual(appearance, "(" + Appearance.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        checkObject(Node.self, appState.type(named: "Node")?.members ?? [], context: "Node", in: appState)
        checkObject(Event.self, appState.type(named: "Event")?.members ?? [], context: "Event", in: appState)
        checkObject(Rect.self, appState.type(named: "Rect")?.members ?? [], context: "Rect", in: appState)
        checkObject(Insets.self, appState.type(named: "Insets")?.members ?? [], context: "Insets", in: appState)
        checkObject(Follower.self, appState.type(named: "Follower")?.members ?? [], context: "Follower", in: appState)
    }

    private func checkMethod<Method: VarlinkMethod>(_ method: Method.Type, _ declaration: InterfaceDefinition.Method, in file: InterfaceDefinition) {
        checkObject(Method.Parameters.self, declaration.input, context: "\(declaration.name) parameters", in: file)
        checkObject(Method.Reply.self, declaration.output, context: "\(declaration.name) reply", in: file)
    }

    private func checkObject<Object: VarlinkObject>(
        _ type: Object.Type, _ members: [InterfaceDefinition.Member], context: String, in file: InterfaceDefinition,
        line: UInt = #line
    ) {
        XCTAssertEqual(Object.memberNames, members.map(\.name), context)
        let full = sample(members, in: file)

        assertDecodes(Object.self, full, context: "\(context), every member")
        if let decoded = try? Object(parameters: full) {
            XCTAssertEqual(decoded.parameters, full, "\(context): encoding must give back what was decoded")
        }

        var undeclared = full
        undeclared["bogus"] = "x"
        assertInvalidParameter(Object.self, undeclared, "bogus", context: "\(context), undeclared member")

        for member in members {
            var missing = full
            missing[member.name] = nil
            if member.isOptional {
                assertNoInvalidParameter(Object.self, missing, context: "\(context), without optional \(member.name)")
                missing[member.name] = .null
                assertNoInvalidParameter(Object.self, missing, context: "\(context), \(member.name) null")
            } else {
                assertInvalidParameter(Object.self, missing, member.name, context: "\(context), without \(member.name)")
                missing[member.name] = .null
                assertInvalidParameter(Object.self, missing, member.name, context: "\(context), \(member.name) null")
            }
            for (wrong, place) in wrongValues(member.type, in: file) {
                var bad = full
                bad[member.name] = wrong
                assertInvalidParameter(Object.self, bad, member.name + place, context: "\(context), \(member.name) = \(wrong.jsonText)")
            }
        }
    }

    /// A valid object with every member set. SetPage takes only one of its selectors, so
    /// its sample keeps `index` and drops the others; ReportFrontEnd takes a kind and a state
    /// of its lists, and a socket's absolute path.
    private func sample(_ members: [InterfaceDefinition.Member], in file: InterfaceDefinition) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        for member in members { object[member.name] = validValue(member.type, in: file) }
        if Set(members.map(\.name)).isSuperset(of: ["index", "id", "step"]) {
            object["id"] = nil
            object["step"] = nil
        }
        if members.contains(where: { $0.name == "livenessInterval" }) {
            object["kind"] = "kiosk"
            object["state"] = "live"
            object["socket"] = "/run/appstate/kiosk.sock"
        }
        return object
    }

    private func validValue(_ declared: String, in file: InterfaceDefinition) -> JSONValue {
        let type = declared.hasPrefix("?") ? String(declared.dropFirst()) : declared
        switch type {
        case "string": return "s"
        case "int": return 2
        case "float": return 1.5
        case "bool": return true
        case "object": return ["k": [1, "v", nil]]
        case "[]string": return ["a", "b"]
        case _ where type.hasPrefix("[]"): return []
        case _ where type.hasPrefix("("): return .string(String(type.dropFirst().prefix { $0 != "," && $0 != ")" }))
        default: return .object(sample(file.type(named: type)?.members ?? [], in: file))
        }
    }

    /// Values of the wrong type for a member, each with the suffix its error names
    /// (e.g. `[0]` for a bad array element).
    private func wrongValues(_ declared: String, in file: InterfaceDefinition) -> [(JSONValue, String)] {
        let type = declared.hasPrefix("?") ? String(declared.dropFirst()) : declared
        switch type {
        case "string": return [(1, ""), (true, ""), ([], ""), ([:], "")]
        case "int": return [(1.5, ""), ("1", ""), (1e300, ""), (true, "")]
        case "float": return [("1.5", ""), (.number(.infinity), ""), (.number(.nan), ""), (false, "")]
        case "bool": return [("true", ""), (1, "")]
        case "object": return [([], ""), ("{}", ""), (1, "")]
        case "[]string": return [("a", ""), (["a": "b"], ""), (["a", 1], "[1]")]
        case _ where type.hasPrefix("[]"): return [("x", ""), ([:], ""), (["x"], "[0]")]
        case _ where type.hasPrefix("("): return [("nonsense", ""), (0, "")]
        default: return [("x", ""), ([], ""), (1, "")]
        }
    }

    private func assertDecodes<Object: VarlinkObject>(_ type: Object.Type, _ parameters: [String: JSONValue], context: String) {
        do {
            _ = try Object(parameters: parameters)
        } catch {
            XCTFail("\(context): \(error) for \(JSONValue.object(parameters).jsonText)")
        }
    }

    private func assertInvalidParameter<Object: VarlinkObject>(
        _ type: Object.Type, _ parameters: [String: JSONValue], _ name: String, context: String
    ) {
        do {
            let value = try Object(parameters: parameters)
            XCTFail("\(context): accepted as \(value)")
        } catch {
            XCTAssertEqual(error, .invalidParameter(name), context)
        }
    }

    private func assertNoInvalidParameter<Object: VarlinkObject>(
        _ type: Object.Type, _ parameters: [String: JSONValue], context: String
    ) {
        do {
            _ = try Object(parameters: parameters)
        } catch {
            XCTAssertNotEqual(error.name, VarlinkServiceErrorName.invalidParameter.rawValue, "\(context): \(error)")
        }
    }

    private func decode<Object: VarlinkObject>(_ type: Object.Type, _ parameters: [String: JSONValue]) -> Result<Object, VarlinkError> {
        Result { () throws(VarlinkError) in try Object(parameters: parameters) }
    }

    // MARK: specific rules

    func testDecode_whenSeveralUndeclaredParameters_thenAlphabeticallyFirstIsNamed() {
        XCTAssertEqual(decode(GetCurrent.Parameters.self, ["zeta": 1, "beta": 2, "path": "p"]), .failure(.invalidParameter("beta")))
    }

    func testDecode_whenIntParameterIsIntegralFloat_thenAccepted() {
        XCTAssertEqual(decode(SetPage.Parameters.self, ["index": 2.0]), .success(SetPage.Parameters(target: .index(2))))
        XCTAssertEqual(decode(SetPage.Parameters.self, ["step": -1]), .success(SetPage.Parameters(target: .step(-1))))
    }

    func testDecode_whenSetPageHasNoSelector_thenInvalidValue() {
        XCTAssertEqual(decode(SetPage.Parameters.self, ["path": "p"]).failureName, AppStateErrorName.invalidValue.rawValue)
    }

    func testDecode_whenSetPageHasTwoSelectors_thenInvalidValue() {
        XCTAssertEqual(decode(SetPage.Parameters.self, ["index": 1, "id": "x"]).failureName, AppStateErrorName.invalidValue.rawValue)
        XCTAssertEqual(decode(SetPage.Parameters.self, ["index": 1, "step": 1]).failureName, AppStateErrorName.invalidValue.rawValue)
    }

    func testEncode_whenSetPageTarget_thenOnlyThatSelector() {
        XCTAssertEqual(SetPage.Parameters(path: "p", target: .id("settings")).parameters, ["path": "p", "id": "settings"])
        XCTAssertEqual(SetPage.Parameters(target: .step(1)).parameters, ["step": 1])
        XCTAssertEqual(SetPage.Parameters(tree: "t", target: .index(0)).parameters, ["tree": "t", "index": 0])
    }

    func testDecode_whenShowKeyboardHeightIsAbsurd_thenInvalidValueNamingIt() {
        for height in [-1, 1_000_001, -0.001] as [JSONValue] {
            XCTAssertEqual(decode(ShowKeyboard.Parameters.self, ["height": height]).invalidValueParameter, "height", height.jsonText)
        }
        XCTAssertEqual(decode(ShowKeyboard.Parameters.self, ["height": 0]), .success(ShowKeyboard.Parameters(height: 0)))
        XCTAssertEqual(
            decode(ShowKeyboard.Parameters.self, ["height": 1_000_000, "duration": 60]),
            .success(ShowKeyboard.Parameters(height: 1_000_000, duration: 60)))
    }

    func testDecode_whenKeyboardDurationIsAbsurd_thenInvalidValueNamingIt() {
        XCTAssertEqual(decode(ShowKeyboard.Parameters.self, ["height": 300, "duration": -0.1]).invalidValueParameter, "duration")
        XCTAssertEqual(decode(HideKeyboard.Parameters.self, ["duration": 61]).invalidValueParameter, "duration")
        XCTAssertEqual(decode(HideKeyboard.Parameters.self, ["duration": 0]), .success(HideKeyboard.Parameters(duration: 0)))
    }

    func testDecode_whenResizeSizeIsAbsurd_thenInvalidValueNamingIt() {
        XCTAssertEqual(decode(Resize.Parameters.self, ["width": 0, "height": 600]).invalidValueParameter, "width")
        XCTAssertEqual(decode(Resize.Parameters.self, ["width": 800, "height": -600]).invalidValueParameter, "height")
        XCTAssertEqual(decode(Resize.Parameters.self, ["width": 1e7, "height": 600]).invalidValueParameter, "width")
        XCTAssertEqual(decode(Resize.Parameters.self, ["width": 1e300, "height": 600]).invalidValueParameter, "width")
        XCTAssertEqual(try decode(Resize.Parameters.self, ["width": 800, "height": 600]).get().size, Size(width: 800, height: 600))
    }

    /// Whether a name is acceptable is the model's rule (and the daemon's, for notification
    /// names), applied once where the name is used, not a second time while decoding.
    func testDecode_whenNameOrUserIsEmpty_thenDecodesForTheDaemonToJudge() throws {
        XCTAssertEqual(try decode(Post.Parameters.self, ["name": ""]).get().name, "")
        XCTAssertEqual(try decode(Login.Parameters.self, ["user": ""]).get().user, "")
    }

    func testLogin_whenSwitchingIsFalse_thenSwitchLeftOut() {
        XCTAssertEqual(Login.Parameters(user: "ann").parameters, ["user": "ann"])
        XCTAssertEqual(Login.Parameters(tree: "t", user: "ann", switching: true).parameters, ["tree": "t", "user": "ann", "switch": true])
        XCTAssertEqual(decode(Login.Parameters.self, ["user": "ann", "switch": false]), .success(Login.Parameters(user: "ann")))
    }

    func testDecode_whenNestedNodeMemberIsWrong_thenParameterNamesItsPath() {
        let child = Node(path: "a/b", identifier: "b", type: "Controller")
        var root = Node(path: "a", identifier: "a", type: "Controller", children: [child, child]).parameters
        XCTAssertEqual(
            decode(GetTree.Reply.self, ["root": .object(root)]),
            .success(GetTree.Reply(root: Node(path: "a", identifier: "a", type: "Controller", children: [child, child]))))

        var badChild = child.parameters
        badChild["frame"] = ["x": 0, "y": 0, "width": "wide", "height": 0]
        root["children"] = [.object(child.parameters), .object(badChild)]
        XCTAssertEqual(decode(GetTree.Reply.self, ["root": .object(root)]), .failure(.invalidParameter("root.children[1].frame.width")))

        root["children"] = [.object(child.parameters), 7]
        XCTAssertEqual(decode(GetTree.Reply.self, ["root": .object(root)]), .failure(.invalidParameter("root.children[1]")))

        let event = Event(tree: "main", name: "Login", current: "x").parameters
        XCTAssertEqual(decode(Watch.Reply.self, ["event": .object(event.merging(["extra": 1]) { $1 })]), .failure(.invalidParameter("event.extra")))
    }

    func testRect_whenEncoded_thenOriginAndSizeAsGiven() {
        XCTAssertEqual(Rect(x: 10, y: 20, width: -5, height: 7).parameters, ["x": 10, "y": 20, "width": -5, "height": 7])
        XCTAssertEqual(Insets(top: 1, left: 2, bottom: 3, right: 4).parameters, ["top": 1, "left": 2, "bottom": 3, "right": 4])
    }

    func testEmptyReply_whenAnyMember_thenInvalidParameter() {
        XCTAssertEqual(decode(Post.Reply.self, [:]), .success(EmptyParameters()))
        XCTAssertEqual(decode(Resize.Reply.self, ["x": 1]), .failure(.invalidParameter("x")))
    }

    func testRequiresMore_whenWatchOrInhibit_thenTheyAloneRequireIt() {
        XCTAssertTrue(Watch.requiresMore)
        XCTAssertTrue(Inhibit.requiresMore)
        XCTAssertEqual(AppStateMethod.allCases.filter { $0.declaration.requiresMore }, [.watch, .inhibit])
    }

    func testInhibitParameters_whenWhyCannotBeShownOnOneLine_thenInvalidValue() throws {
        XCTAssertNoThrow(try Inhibit.Parameters(why: "card payment").validate())
        for why in ["", " ", "a\nb", String(repeating: "x", count: 257), "\u{202E}evil"] {
            XCTAssertThrowsError(try Inhibit.Parameters(why: why).validate(), why) { error in
                XCTAssertEqual((error as? VarlinkError)?.name, "io.appstate.InvalidValue", why)
            }
        }
    }

    func testNodeLookup_whenPathExists_thenFindsItAndDeepestCurrentFollowsCurrent() {
        let pages = Node(
            path: "s/h/p", identifier: "p", type: "PaginatedController", current: "two",
            children: [
                Node(path: "s/h/p/one", identifier: "one", type: "Controller"),
                Node(path: "s/h/p/two", identifier: "two", type: "Controller"),
            ])
        let root = Node(
            path: "s", identifier: "s", type: "LoginStateController", current: "h",
            children: [
                Node(path: "s/h", identifier: "h", type: "MenuController", current: "p", children: [pages])
            ])
        XCTAssertEqual(root.node(at: "s/h/p/one")?.identifier, "one")
        XCTAssertNil(root.node(at: "s/h/x"))
        XCTAssertEqual(root.deepestCurrentPath, "s/h/p/two")
    }
}

extension Result where Failure == VarlinkError {
    fileprivate var failureName: String? {
        if case .failure(let error) = self { return error.name }
        return nil
    }

    fileprivate var invalidValueParameter: String? {
        guard case .failure(let error) = self, error.name == AppStateErrorName.invalidValue.rawValue else { return nil }
        return error.parameters["parameter"]?.stringValue
    }
}
