import AppStateCore

/// Insets travel as the interface's `Insets` type.
extension Insets: VarlinkObject {
    /// The members of `io.appstate.Insets`.
    public static let memberNames = ["top", "left", "bottom", "right"]

    /// Decodes an `io.appstate.Insets`.
    /// - Parameter parameters: The object's members.
    /// - Throws: `org.varlink.service.InvalidParameter` naming a missing, undeclared or non-finite member.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        let reader = try ParameterReader(parameters, declared: Insets.memberNames)
        self.init(
            top: try reader.float("top"),
            left: try reader.float("left"),
            bottom: try reader.float("bottom"),
            right: try reader.float("right")
        )
    }

    /// The members of `io.appstate.Insets`.
    public var parameters: [String: JSONValue] {
        ["top": .number(top), "left": .number(left), "bottom": .number(bottom), "right": .number(right)]
    }
}
