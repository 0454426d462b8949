/// The ranges `io.appstate` accepts for sizes and durations, so that absurd values are
/// answered with `io.appstate.InvalidValue` before they reach a tree.
public enum AppStateLimits {
    /// The largest window or keyboard dimension, in points: far beyond any screen, small
    /// enough that layout arithmetic stays exact.
    public static let maximumLength: Double = 1_000_000

    /// The longest animation, in seconds: a minute is already useless for a keyboard or a
    /// page change, and anything longer would keep a transition in flight indefinitely.
    public static let maximumDuration: Double = 60

    /// The animation duration a daemon uses when a keyboard call gives none (UIKit's).
    public static let defaultAnimationDuration: Double = 0.25
}
