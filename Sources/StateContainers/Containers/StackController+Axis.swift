import AppStateCore

extension StackController {
    /// The direction along which a ``StackController`` lines up its children.
    public enum Axis: String, Sendable, Codable {
        /// Side by side, left to right.
        case horizontal
        /// One above the other, top to bottom.
        case vertical

        /// The axis for a container of the given size: along the longer side, so that a
        /// landscape screen shows its children side by side and a portrait one stacks them.
        /// - Parameter size: The container's size.
        public init(for size: Size) {
            self = size.width > size.height ? .horizontal : .vertical
        }
    }

    /// The frames of `count` equal slots filling `bounds` along the axis its size calls for,
    /// `spacing` apart. Slots never get a negative length, however large the spacing.
    /// - Parameters:
    ///   - count: The number of children.
    ///   - bounds: The rectangle to split.
    ///   - spacing: The gap between neighbours.
    static func slots(count: Int, in bounds: Rect, spacing: Double) -> [Rect] {
        guard count > 0 else { return [] }
        let axis = Axis(for: bounds.size)
        let length = axis == .horizontal ? bounds.width : bounds.height
        let slot = max(0, (length - spacing * Double(count - 1)) / Double(count))
        return (0..<count).map { index in
            let offset = Double(index) * (slot + spacing)
            switch axis {
            case .horizontal: return Rect(x: bounds.minX + offset, y: bounds.minY, width: slot, height: bounds.height)
            case .vertical: return Rect(x: bounds.minX, y: bounds.minY + offset, width: bounds.width, height: slot)
            }
        }
    }
}
