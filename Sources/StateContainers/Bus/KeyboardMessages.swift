import AppStateCore

/// One moment of the on-screen keyboard's movement, as a typed bus message: the five keyboard
/// notifications differ only in their name, so they are this one struct with a phase each.
public struct KeyboardChange<Phase: KeyboardPhase>: KeyboardMessage {
    /// The notification name of the phase.
    public static var name: NotificationName { Phase.name }

    /// The keyboard's frame before the change, in window coordinates.
    public let frameBegin: Rect
    /// The keyboard's frame after the change, in window coordinates.
    public let frameEnd: Rect
    /// How long the change is animated, in seconds.
    public let duration: Double
    /// The timing curve of the animation.
    public let curve: AnimationCurve

    /// Creates a message.
    /// - Parameters:
    ///   - frameBegin: The keyboard's frame before the change, in window coordinates.
    ///   - frameEnd: The keyboard's frame after the change, in window coordinates.
    ///   - duration: How long the change is animated, in seconds.
    ///   - curve: The timing curve of the animation.
    public init(frameBegin: Rect, frameEnd: Rect, duration: Double = 0, curve: AnimationCurve = .easeInOut) {
        self.frameBegin = frameBegin
        self.frameEnd = frameEnd
        self.duration = duration
        self.curve = curve
    }
}

/// Names the moment a ``KeyboardChange`` reports.
public protocol KeyboardPhase: Sendable {
    /// The notification posted at that moment.
    static var name: NotificationName { get }
}

/// The phases of the keyboard's movement, one per well-known keyboard notification.
public enum KeyboardPhases {
    /// `keyboard.willShow`: the keyboard is about to slide in.
    public enum WillShow: KeyboardPhase { public static let name = NotificationName.keyboardWillShow }
    /// `keyboard.didShow`: the keyboard has slid in.
    public enum DidShow: KeyboardPhase { public static let name = NotificationName.keyboardDidShow }
    /// `keyboard.willHide`: the keyboard is about to slide out.
    public enum WillHide: KeyboardPhase { public static let name = NotificationName.keyboardWillHide }
    /// `keyboard.didHide`: the keyboard has slid out.
    public enum DidHide: KeyboardPhase { public static let name = NotificationName.keyboardDidHide }
    /// `keyboard.willChangeFrame`: the keyboard is about to move or resize.
    public enum WillChangeFrame: KeyboardPhase { public static let name = NotificationName.keyboardWillChangeFrame }
}

/// An on-screen keyboard is about to slide in, posted as `keyboard.willShow`.
public typealias KeyboardWillShow = KeyboardChange<KeyboardPhases.WillShow>
/// An on-screen keyboard has slid in, posted as `keyboard.didShow`.
public typealias KeyboardDidShow = KeyboardChange<KeyboardPhases.DidShow>
/// An on-screen keyboard is about to slide out, posted as `keyboard.willHide`.
public typealias KeyboardWillHide = KeyboardChange<KeyboardPhases.WillHide>
/// An on-screen keyboard has slid out, posted as `keyboard.didHide`.
public typealias KeyboardDidHide = KeyboardChange<KeyboardPhases.DidHide>
/// An on-screen keyboard is about to move or change size, posted as `keyboard.willChangeFrame`.
public typealias KeyboardWillChangeFrame = KeyboardChange<KeyboardPhases.WillChangeFrame>
