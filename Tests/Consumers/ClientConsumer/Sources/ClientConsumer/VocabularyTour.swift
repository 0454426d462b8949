import AppStateIPC

// Every public type of AppStateCore, reached through this program's one import, with the
// kinds of member a client uses: initialisers, properties, methods, static members declared
// in extensions, literals and typed errors. Both consumers print the same lines here, which
// ConsumerPackagesTests checks.

/// Uses each vocabulary type and prints what it gives, one line each.
/// - Throws: What the JSON parser throws for valid text, which would be a failure.
func vocabularyTour() throws {
    let window = Rect(origin: .zero, size: Size(width: 1280, height: 800))
    let visible = window.inset(by: Insets(top: 0, left: 0, bottom: 320, right: 0))
    print("Rect.inset(by:)", visible.width, visible.height, visible.contains(Point(x: 10, y: 470)))

    let name: NotificationName = .keyboardWillShow
    print("NotificationName", name, NotificationName("session.didLogIn") == .sessionDidLogIn)

    let userInfo: JSONValue = ["user": "ada", "height": 320, "shown": true, "tags": [1, 2.5, nil]]
    print("JSONValue", userInfo.jsonText, userInfo["user"]?.stringValue ?? "?")

    var bytes: [UInt8] = []
    var object = JSONObjectWriter(opening: &bytes)
    object.key("frame", into: &bytes)
    JSONWriter.write(try JSONParser().parse(#"{"y":1,"x":0}"#), into: &bytes)
    object.close(into: &bytes)
    print("JSONObjectWriter", String(decoding: bytes, as: UTF8.self))

    do throws(JSONParseError) {
        _ = try JSONParser().parse("{")
    } catch {
        print("JSONParseError", error)
    }

    let home = NodeSnapshot(path: "session/home", identifier: "home", type: "Controller", appearance: .appeared)
    let root = NodeSnapshot(path: "session", identifier: "session", type: "LoginStateController", current: "home", children: [home])
    print("NodeSnapshot", root.deepestCurrentPath, root.node(at: "session/home")?.appearance.rawValue ?? "?")
    print("NodePath", NodePath.relative("session/home/pages", below: "session") ?? "?")
    print("Appearance", Appearance.allCases.map(\.rawValue).joined(separator: ","))
    print("PrintableName", PrintableName.problem(with: "ada") ?? "fine", PrintableName.maximumLength)
}
