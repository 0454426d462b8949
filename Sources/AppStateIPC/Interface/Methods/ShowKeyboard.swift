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

        /// Checks that the height and the duration are within the interface's limits.
        /// - Throws: `io.appstate.InvalidValue` naming the member.
        public func validate() throws(VarlinkError) {
            try AppStateLimits.checkLength(height, "height", allowingZero: true)
            try AppStateLimits.checkDuration(duration, "duration")
        }
    }

    /// The reply: an acknowledgement without members.
    public typealias Reply = EmptyParameters
}
