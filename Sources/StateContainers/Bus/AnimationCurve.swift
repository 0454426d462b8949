/// The timing curve of an animated change, as `UIView.AnimationCurve` is in UIKit; carried by
/// the keyboard notifications so that clients can animate their layout in step with the keyboard.
public enum AnimationCurve: String, Sendable, Hashable, Codable, CaseIterable {
    /// Slow at the start and the end; what the keyboard uses unless told otherwise.
    case easeInOut
    /// Slow at the start.
    case easeIn
    /// Slow at the end.
    case easeOut
    /// Constant speed.
    case linear
}
