import AppStateCore

/// `io.appstate.Resize(width: float, height: float) -> ()`: resizes a tree's window.
public enum Resize: VarlinkMethod {
    /// `io.appstate.Resize`.
    public static let name = AppStateMethod.resize.rawValue

    /// The parameters.
    public struct Parameters: VarlinkObject {
        /// The members the method declares.
        public static let memberNames = ["tree", "width", "height"]

        /// The tree to change; the first tree when `nil`.
        public var tree: String?
        /// The new width in points, above 0 and at most ``AppStateLimits/maximumLength``.
        public var width: Double
        /// The new height in points, above 0 and at most ``AppStateLimits/maximumLength``.
        public var height: Double

        /// Creates the parameters.
        /// - Parameters:
        ///   - tree: The tree to change; the first tree when `nil`.
        ///   - width: The new width in points.
        ///   - height: The new height in points.
        public init(tree: String? = nil, width: Double, height: Double) {
            self.tree = tree
            self.width = width
            self.height = height
        }

        /// The new size.
        public var size: Size { Size(width: width, height: height) }

        /// Decodes the parameters.
        /// - Parameter parameters: The call's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending parameter;
        ///   `io.appstate.InvalidValue` for a size out of range.
        public init(parameters: [String: JSONValue]) throws(VarlinkError) {
            let reader = try ParameterReader(parameters, declared: Parameters.memberNames)
            tree = try reader.optionalString("tree")
            width = try reader.length("width", allowingZero: false)
            height = try reader.length("height", allowingZero: false)
        }

        /// The parameters for encoding.
        public var parameters: [String: JSONValue] {
            var members: [String: JSONValue] = ["width": .number(width), "height": .number(height)]
            members["tree"] = tree.map(JSONValue.string)
            return members
        }
    }

    /// The reply: an acknowledgement without members.
    public typealias Reply = EmptyParameters
}
