/// The compositor's output whose size a tree's window follows.
package enum FollowedOutput: Hashable, Sendable, CustomStringConvertible {
    /// The first output the compositor announced that is still there.
    case first
    /// The output of this name, e.g. `HDMI-A-1`.
    case named(String)

    /// The output's name; nil for the first output.
    package var name: String? {
        if case .named(let name) = self { return name }
        return nil
    }

    /// For the log and status: `HDMI-A-1`, or `the first output`.
    package var description: String { name ?? "the first output" }
}
