/// An on-screen keyboard is about to slide in, posted as `keyboard.willShow`.
public struct KeyboardWillShow: KeyboardMessage {
    /// ``NotificationName/keyboardWillShow``.
    public static let name = NotificationName.keyboardWillShow

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

/// An on-screen keyboard has slid in, posted as `keyboard.didShow`.
public struct KeyboardDidShow: KeyboardMessage {
    /// ``NotificationName/keyboardDidShow``.
    public static let name = NotificationName.keyboardDidShow

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

/// An on-screen keyboard is about to slide out, posted as `keyboard.willHide`.
public struct KeyboardWillHide: KeyboardMessage {
    /// ``NotificationName/keyboardWillHide``.
    public static let name = NotificationName.keyboardWillHide

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

/// An on-screen keyboard has slid out, posted as `keyboard.didHide`.
public struct KeyboardDidHide: KeyboardMessage {
    /// ``NotificationName/keyboardDidHide``.
    public static let name = NotificationName.keyboardDidHide

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

/// A visible on-screen keyboard is about to move or resize, posted as `keyboard.willChangeFrame`.
public struct KeyboardWillChangeFrame: KeyboardMessage {
    /// ``NotificationName/keyboardWillChangeFrame``.
    public static let name = NotificationName.keyboardWillChangeFrame

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
