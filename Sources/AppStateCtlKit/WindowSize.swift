import AppStateIPC
import AppStateRendering

/// The `WIDTHxHEIGHT` argument of `appstatectl resize`, e.g. `1280x800` or `800×1280`.
public struct WindowSize: Hashable, Sendable {
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double

    /// Creates a size.
    /// - Parameters:
    ///   - width: The width in points.
    ///   - height: The height in points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Parses `WIDTHxHEIGHT`, with `x`, `X` or `×` between the numbers, as people write
    /// screen sizes.
    /// - Parameter text: The argument.
    /// - Throws: ``ArgumentError`` unless both numbers are above zero and within
    ///   ``AppStateLimits/maximumLength``, which the daemon would refuse anyway.
    public init(parsing text: String) throws(ArgumentError) {
        guard let separator = text.firstIndex(where: { $0 == "x" || $0 == "X" || $0 == "×" }),
            let width = Double(text[..<separator]),
            let height = Double(text[text.index(after: separator)...])
        else {
            throw ArgumentError("\"\(text)\" is not WIDTHxHEIGHT, e.g. 1280x800")
        }
        let limit = AppStateLimits.maximumLength
        for (name, value) in [("width", width), ("height", height)] where !(value > 0 && value <= limit) {
            throw ArgumentError("the \(name) must be above 0 and at most \(Formatting.number(limit)), not \(Formatting.number(value))")
        }
        self.init(width: width, height: height)
    }
}
