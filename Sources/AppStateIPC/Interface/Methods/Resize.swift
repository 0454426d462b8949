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

        /// Checks that both lengths are within the interface's limits.
        /// - Throws: `io.appstate.InvalidValue` naming the member.
        public func validate() throws(VarlinkError) {
            try AppStateLimits.checkLength(width, "width", allowingZero: false)
            try AppStateLimits.checkLength(height, "height", allowingZero: false)
        }
    }

    /// The reply: an acknowledgement without members.
    public typealias Reply = EmptyParameters
}
