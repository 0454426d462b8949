import AppStateCore

/// What every keyboard notification carries: where the keyboard starts and ends, in window
/// coordinates, and how its movement is animated.
///
/// The five keyboard messages share this shape and its `userInfo` encoding, so a container can
/// handle ``KeyboardWillShow`` and ``KeyboardWillChangeFrame`` with one function. In `userInfo`,
/// `frameBegin` and `frameEnd` are objects `{x, y, width, height}`, `duration` is in seconds and
/// `curve` is an ``AnimationCurve`` raw value.
public protocol KeyboardMessage: BusMessage, Hashable {
    /// The keyboard's frame before the change, in window coordinates.
    var frameBegin: Rect { get }
    /// The keyboard's frame after the change, in window coordinates.
    var frameEnd: Rect { get }
    /// How long the change is animated, in seconds; never negative.
    var duration: Double { get }
    /// The timing curve of the animation.
    var curve: AnimationCurve { get }

    /// Creates a message.
    /// - Parameters:
    ///   - frameBegin: The keyboard's frame before the change, in window coordinates.
    ///   - frameEnd: The keyboard's frame after the change, in window coordinates.
    ///   - duration: How long the change is animated, in seconds.
    ///   - curve: The timing curve of the animation.
    init(frameBegin: Rect, frameEnd: Rect, duration: Double, curve: AnimationCurve)
}

extension KeyboardMessage {
    /// Decodes a keyboard message.
    ///
    /// Only `frameEnd` is required, because it alone decides what the keyboard covers; the rest
    /// falls back to what a sender that did not care would mean: a missing or invalid
    /// `frameBegin` is `frameEnd` (no movement), `duration` is 0 (no animation) and `curve` is
    /// ``AnimationCurve/easeInOut``.
    /// - Parameter notification: A notification, possibly of another name.
    /// - Returns: `nil` when the name differs or `frameEnd` is missing or not an object of four
    ///   finite numbers.
    public init?(_ notification: BusNotification) {
        guard notification.name == Self.name, let frameEnd = Rect(json: notification.userInfo["frameEnd"]) else {
            return nil
        }
        let duration = notification.userInfo["duration"]?.doubleValue ?? 0
        self.init(
            frameBegin: Rect(json: notification.userInfo["frameBegin"]) ?? frameEnd,
            frameEnd: frameEnd,
            duration: Self.sanitized(duration),
            curve: notification.userInfo["curve"]?.stringValue.flatMap(AnimationCurve.init(rawValue:)) ?? .easeInOut
        )
    }

    /// The message as `userInfo`; a negative or non-finite duration is sent as 0, which is what
    /// a receiver would make of it anyway and keeps the value encodable as JSON.
    public var userInfo: [String: JSONValue] {
        [
            "frameBegin": frameBegin.json,
            "frameEnd": frameEnd.json,
            "duration": .number(Self.sanitized(duration)),
            "curve": .string(curve.rawValue),
        ]
    }

    /// The message as ``init(_:)`` would decode it, cleaned up the same way but without
    /// `userInfo`: observers rely on the bus for finite frames and a duration that is not
    /// negative. `nil` when `frameEnd` is not finite; a non-finite `frameBegin` becomes
    /// `frameEnd`.
    public var roundTripped: Self? {
        guard frameEnd.isFinite else { return nil }
        return Self(
            frameBegin: frameBegin.isFinite ? frameBegin : frameEnd,
            frameEnd: frameEnd,
            duration: Self.sanitized(duration),
            curve: curve
        )
    }

    private static func sanitized(_ duration: Double) -> Double {
        duration.isFinite && duration > 0 ? duration : 0
    }
}

extension Rect {
    /// Decodes `{x, y, width, height}`; JSON has no infinities, so non-finite values mean the
    /// sender is broken and the rectangle is rejected rather than poisoning the layout.
    fileprivate init?(json: JSONValue?) {
        guard let object = json?.objectValue,
            let x = object["x"]?.doubleValue, x.isFinite,
            let y = object["y"]?.doubleValue, y.isFinite,
            let width = object["width"]?.doubleValue, width.isFinite,
            let height = object["height"]?.doubleValue, height.isFinite
        else { return nil }
        self.init(x: x, y: y, width: width, height: height)
    }

    fileprivate var json: JSONValue {
        [
            "x": .number(origin.x),
            "y": .number(origin.y),
            "width": .number(size.width),
            "height": .number(size.height),
        ]
    }
}
