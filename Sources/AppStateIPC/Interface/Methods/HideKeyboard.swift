import AppStateCore

/// `io.appstate.HideKeyboard(duration: ?float) -> ()`: slides the on-screen keyboard out.
public enum HideKeyboard: VarlinkMethod {
    /// `io.appstate.HideKeyboard`.
    public static let name = AppStateMethod.hideKeyboard.rawValue

    /// The parameters.
    public struct Parameters: VarlinkObject {
        /// The members the method declares.
        public static let memberNames = ["tree", "duration"]

        /// The tree to change; the first tree when `nil`.
        public var tree: String?
        /// The animation's duration in seconds; ``AppStateLimits/defaultAnimationDuration`` when `nil`.
        public var duration: Double?

        /// Creates the parameters.
        /// - Parameters:
        ///   - tree: The tree to change; the first tree when `nil`.
        ///   - duration: The animation's duration in seconds.
        public init(tree: String? = nil, duration: Double? = nil) {
            self.tree = tree
            self.duration = duration
        }

        /// Decodes the parameters.
        /// - Parameter parameters: The call's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending parameter;
        ///   `io.appstate.InvalidValue` for a duration out of range.
        public init(parameters: [String: JSONValue]) throws(VarlinkError) {
            let reader = try ParameterReader(parameters, declared: Parameters.memberNames)
            tree = try reader.optionalString("tree")
            duration = try reader.optionalDuration("duration")
        }

        /// The parameters for encoding.
        public var parameters: [String: JSONValue] {
            var members: [String: JSONValue] = [:]
            members["tree"] = tree.map(JSONValue.string)
            members["duration"] = duration.map(JSONValue.number)
            return members
        }
    }

    /// The reply: an acknowledgement without members.
    public typealias Reply = EmptyParameters
}
