import AppStateCore

/// What the compositor said about one output, reduced to its name and its logical size: a
/// pure value fed with the events of its `wl_output` and, where the compositor offers
/// xdg-output, its `zxdg_output_v1`.
///
/// Events take effect together at the `done` that follows them (``done()``), as both protocols
/// say. The logical size is xdg-output's where the compositor sent one: it accounts for
/// fractional scales, which `wl_output`'s integer scale cannot. Without it, the current mode
/// is turned by the output's transform (a quarter turn swaps width and height) and divided by
/// its scale.
package struct OutputState: Hashable, Sendable {
    /// The values one `done` makes current.
    package struct Values: Hashable, Sendable {
        /// The output's name (`wl_output.name`, or xdg-output's), e.g. `HDMI-A-1`.
        package var name: String?
        /// The current mode's size in pixels.
        package var mode: Size?
        /// `wl_output.transform`: 0 normal, 1 to 3 quarter turns, 4 to 7 the same flipped.
        package var transform: Int32 = 0
        /// `wl_output.scale`.
        package var scale: Int32 = 1
        /// xdg-output's logical size.
        package var logicalSize: Size?
    }

    /// What arrived since the last `done`.
    package private(set) var pending = Values()
    /// What the last `done` made current.
    package private(set) var current = Values()
    /// Whether a `done` arrived: until then the output is not described yet.
    package private(set) var isDescribed = false

    /// An output nothing was said about yet.
    package init() {}

    /// Takes `wl_output.geometry`, of which only the transform matters.
    package mutating func applyGeometry(transform: Int32) {
        pending.transform = transform
    }

    /// Takes `wl_output.mode`; only the current mode (flag 1) counts.
    package mutating func applyMode(flags: UInt32, width: Int32, height: Int32) {
        guard flags & 1 != 0 else { return }
        pending.mode = Size(width: Double(width), height: Double(height))
    }

    /// Takes `wl_output.scale`.
    package mutating func applyScale(_ scale: Int32) {
        pending.scale = scale
    }

    /// Takes the output's name.
    package mutating func applyName(_ name: String) {
        pending.name = name
    }

    /// Takes `zxdg_output_v1.logical_size`.
    package mutating func applyLogicalSize(width: Int32, height: Int32) {
        pending.logicalSize = Size(width: Double(width), height: Double(height))
    }

    /// Takes `done`: what arrived since the last one becomes current.
    package mutating func done() {
        current = pending
        isDescribed = true
    }

    /// The output's size in the compositor's logical coordinates; nil until one is known,
    /// or when the compositor gave no positive size.
    package var logicalSize: Size? {
        guard isDescribed else { return nil }
        if let size = current.logicalSize, size.width > 0, size.height > 0 { return size }
        guard let mode = current.mode, mode.width > 0, mode.height > 0 else { return nil }
        let scale = Double(max(current.scale, 1))
        let quarterTurn = current.transform & 1 == 1
        let turned = quarterTurn ? Size(width: mode.height, height: mode.width) : mode
        return Size(width: (turned.width / scale).rounded(.down), height: (turned.height / scale).rounded(.down))
    }
}
