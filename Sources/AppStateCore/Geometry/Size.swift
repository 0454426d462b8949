/// A width and a height, as `CGSize` is in UIKit.
public struct Size: Hashable, Codable, Sendable {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// A size with no width and no height.
    public static let zero = Size(width: 0, height: 0)

    /// Creates a size.
    /// - Parameters:
    ///   - width: The horizontal extent.
    ///   - height: The vertical extent.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
