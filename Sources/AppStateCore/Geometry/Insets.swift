/// Distances inward from each edge of a rectangle, as `UIEdgeInsets` is in UIKit.
public struct Insets: Hashable, Codable, Sendable {
    /// The inset from the top edge.
    public var top: Double
    /// The inset from the left edge.
    public var left: Double
    /// The inset from the bottom edge.
    public var bottom: Double
    /// The inset from the right edge.
    public var right: Double

    /// No inset on any edge.
    public static let zero = Insets(top: 0, left: 0, bottom: 0, right: 0)

    /// Creates insets.
    /// - Parameters:
    ///   - top: The inset from the top edge.
    ///   - left: The inset from the left edge.
    ///   - bottom: The inset from the bottom edge.
    ///   - right: The inset from the right edge.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}
