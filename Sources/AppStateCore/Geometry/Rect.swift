/// A rectangle given by its origin and size, as `CGRect` is in UIKit.
///
/// A rectangle with a negative width or height is standardised by the accessors
/// (`minX`, `maxX`, …), as CoreGraphics does. It is coded as the interface's `Rect`,
/// `{x, y, width, height}`: the flat form clients and the wire use.
public struct Rect: Hashable, Codable, Sendable {
    /// The corner with the smallest coordinates (for a standard rectangle).
    public var origin: Point
    /// The extent of the rectangle.
    public var size: Size

    /// The rectangle at the origin with no size.
    public static let zero = Rect(origin: .zero, size: .zero)

    /// The rectangle that `intersection(_:)` returns when two rectangles do not meet.
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)

    /// Creates a rectangle from an origin and a size.
    /// - Parameters:
    ///   - origin: The corner with the smallest coordinates.
    ///   - size: The extent of the rectangle.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its coordinates.
    /// - Parameters:
    ///   - x: The origin's horizontal coordinate.
    ///   - y: The origin's vertical coordinate.
    ///   - width: The horizontal extent.
    ///   - height: The vertical extent.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The smallest horizontal coordinate.
    public var minX: Double { min(origin.x, origin.x + size.width) }
    /// The smallest vertical coordinate.
    public var minY: Double { min(origin.y, origin.y + size.height) }
    /// The largest horizontal coordinate.
    public var maxX: Double { max(origin.x, origin.x + size.width) }
    /// The largest vertical coordinate.
    public var maxY: Double { max(origin.y, origin.y + size.height) }
    /// The horizontal centre.
    public var midX: Double { (minX + maxX) / 2 }
    /// The vertical centre.
    public var midY: Double { (minY + maxY) / 2 }
    /// The width, never negative.
    public var width: Double { abs(size.width) }
    /// The height, never negative.
    public var height: Double { abs(size.height) }

    /// Whether this is the null rectangle that marks "no intersection".
    public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }

    /// Whether the rectangle encloses no area.
    public var isEmpty: Bool { isNull || width == 0 || height == 0 }

    /// The overlap of two rectangles.
    /// - Parameter other: The rectangle to intersect with.
    /// - Returns: The common area, or ``Rect/null`` when the rectangles do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        guard !isNull, !other.isNull else { return .null }
        let x0 = max(minX, other.minX)
        let x1 = min(maxX, other.maxX)
        let y0 = max(minY, other.minY)
        let y1 = min(maxY, other.maxY)
        guard x0 <= x1, y0 <= y1 else { return .null }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether a point lies inside the rectangle (its far edges excluded, as in CoreGraphics).
    /// - Parameter point: The point to test.
    public func contains(_ point: Point) -> Bool {
        !isNull && point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// Whether another rectangle lies entirely inside this one.
    /// - Parameter rect: The rectangle to test.
    public func contains(_ rect: Rect) -> Bool {
        !isNull && !rect.isNull && rect.minX >= minX && rect.maxX <= maxX && rect.minY >= minY && rect.maxY <= maxY
    }

    /// The rectangle shrunk by the given insets, as `UIEdgeInsetsInsetRect` does.
    /// - Parameter insets: How far to move each edge inward.
    /// - Returns: The inset rectangle; its size never goes below zero.
    public func inset(by insets: Insets) -> Rect {
        Rect(
            x: minX + insets.left,
            y: minY + insets.top,
            width: max(0, width - insets.left - insets.right),
            height: max(0, height - insets.top - insets.bottom)
        )
    }

    /// The rectangle moved by an offset.
    /// - Parameters:
    ///   - dx: The horizontal offset.
    ///   - dy: The vertical offset.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }

    /// Whether every coordinate is a finite number.
    public var isFinite: Bool {
        origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite
    }
}
