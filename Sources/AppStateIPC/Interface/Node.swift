import AppStateCore

/// One controller of a tree as the `io.appstate.Node` type carries it, with its children:
/// the model's snapshot, sent as it is.
public typealias Node = NodeSnapshot

extension NodeSnapshot: VarlinkObject {
    /// The members of `io.appstate.Node`.
    public static let memberNames = [
        "path", "identifier", "type", "title", "appearance", "frame", "contentInset", "onScreen", "current",
        "pageIndex", "pageCount", "user", "menuVisible", "keyboardOverlap", "contentState", "children",
    ]

    /// Decodes an `io.appstate.Node` and its descendants.
    /// - Parameter parameters: The object's members.
    /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        let reader = try ParameterReader(parameters, declared: Node.memberNames)
        self.init(
            path: try reader.string("path"),
            identifier: try reader.string("identifier"),
            type: try reader.string("type"),
            title: try reader.optionalString("title"),
            appearance: try reader.enumeration("appearance", as: Appearance.self),
            frame: try reader.object("frame", as: Rect.self),
            contentInset: try reader.object("contentInset", as: Insets.self),
            onScreen: try reader.bool("onScreen"),
            current: try reader.optionalString("current"),
            pageIndex: try reader.optionalInt("pageIndex"),
            pageCount: try reader.optionalInt("pageCount"),
            user: try reader.optionalString("user"),
            menuVisible: try reader.optionalBool("menuVisible"),
            keyboardOverlap: try reader.optionalFloat("keyboardOverlap"),
            contentState: try reader.optionalString("contentState"),
            children: try reader.array("children", of: Node.self)
        )
    }

    /// The members of `io.appstate.Node`, children included.
    public var parameters: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "path": .string(path),
            "identifier": .string(identifier),
            "type": .string(type),
            "appearance": .string(appearance.rawValue),
            "frame": .object(frame.parameters),
            "contentInset": .object(contentInset.parameters),
            "onScreen": .bool(onScreen),
            "children": .array(children.map { .object($0.parameters) }),
        ]
        members["title"] = title.map(JSONValue.string)
        members["current"] = current.map(JSONValue.string)
        members["pageIndex"] = pageIndex.map { .number(Double($0)) }
        members["pageCount"] = pageCount.map { .number(Double($0)) }
        members["user"] = user.map(JSONValue.string)
        members["menuVisible"] = menuVisible.map(JSONValue.bool)
        members["keyboardOverlap"] = keyboardOverlap.map(JSONValue.number)
        members["contentState"] = contentState.map(JSONValue.string)
        return members
    }
}
