import AppStateCore

/// The on-screen keyboard's height for a window, since squeekboard does not publish its
/// own: the height `--osk-height` gives, or squeekboard's own sizing rule.
package enum OnScreenKeyboardHeight {
    /// squeekboard's sizing rule (`Manager::get_perceptual_height` in its
    /// `src/ui_manager.rs`), with the window's points as pixels at scale 1: for a width
    /// under 720 the height is 7/12 of the width (360×210 keys at 360 wide); from 720 to
    /// 1080 it shrinks smoothly, `360 + (1080 − width) × 60 / 360`; from 1080 on it is 360.
    /// It never exceeds half the window's height. squeekboard computes in whole pixels,
    /// and so does this.
    /// - Parameter window: The window's size.
    /// - Returns: The height in points.
    package static func squeekboard(for window: Size) -> Double {
        let width = Int(max(0, window.width.rounded(.down)))
        let height: Int
        if width > 0, width < 720 {
            height = width * 7 / 12
        } else if width < 1080 {
            height = 360 + (1080 - width) * 60 / 360
        } else {
            height = 360
        }
        return Double(min(height, Int(max(0, window.height.rounded(.down))) / 2))
    }
}
