import AppStateCore

/// `io.appstate.ShowKeyboard(height: float, duration: ?float) -> ()`: slides an on-screen
/// keyboard in from the bottom edge of a tree's window.
public enum ShowKeyboard: VarlinkMethod {
    /// `io.appstate.ShowKeyboard`.
    public static let name = AppStateMethod.showKeyboard.rawValue

    /// The parameters.
    public struct Parameters: VarlinkObject {
        /// The members the method declares.
        public static let memberNames = ["tree", "height", "duration"]

        /// The tree to change; the first tree when `nil`.
        public var tree: String?
        /// The keyboard's height in points, from 0 to ``AppStateLimits/maximumLength``.
        public var height: Double
        /// The animation's duration in seconds; ``AppStateLimits/defaultAnimationDuration`` when `nil`.
        public var duration: Double?

        /// Creates the parameters.
        /// - Parameters:
        ///   - tree: The tree to change; the first tree when `nil`.
        ///   - height: The keyboard's height in points.
        ///   - duration: The animation's duration in seconds.
        public init(tree: String? = nil, height: Double, duration: Double? = nil) {
            self.tree = tree
            self.height = height
            self.duration = duration
        }

        /// Decodes the parameters.
        /// - Parameter parameters: The call's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending parameter;
        ///   `io.appstate.InvalidValue` for a height or duration out of range.
        public init(parameters: [String: JSONValue]) throws(VarlinkError) {
            let reader = try ParameterReader(parameters, declared: Parameters.memberNames)
            tree = try reader.optionalString("tree")
            height = try reader.length("height", allowingZero: true)
            duration = try reader.optionalDuration("duration")
        }

        /// The parameters for encoding.
        public var parameters: [String: JSONValue] {
            var members: [String: JSONValue] = ["height": .number(height)]
            members["tree"] = tree.map(JSONValue.string)
            members["duration"] = duration.map(JSONValue.number)
            return members
        }
    }

    /// The reply: an acknowledgement without members.
    public typealias Reply = EmptyParameters
}
