import AppStateCore

/// A rectangle travels as the interface's `Rect` type: its origin and size as given, not
/// standardised, so that what a tree holds is what a client sees.
extension Rect: VarlinkObject {
    /// The members of `io.appstate.Rect`.
    public static let memberNames = ["x", "y", "width", "height"]

    /// Decodes an `io.appstate.Rect`.
    /// - Parameter parameters: The object's members.
    /// - Throws: `org.varlink.service.InvalidParameter` naming a missing, undeclared or non-finite member.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        let reader = try ParameterReader(parameters, declared: Rect.memberNames)
        self.init(
            x: try reader.float("x"),
            y: try reader.float("y"),
            width: try reader.float("width"),
            height: try reader.float("height")
        )
    }

    /// The members of `io.appstate.Rect`.
    public var parameters: [String: JSONValue] {
        ["x": .number(origin.x), "y": .number(origin.y), "width": .number(size.width), "height": .number(size.height)]
    }
}
