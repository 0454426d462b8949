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

        /// Checks that the duration is within the interface's limits.
        /// - Throws: `io.appstate.InvalidValue` naming it.
        public func validate() throws(VarlinkError) {
            try AppStateLimits.checkDuration(duration, "duration")
        }
    }

    /// The reply: an acknowledgement without members.
    public typealias Reply = EmptyParameters
}
