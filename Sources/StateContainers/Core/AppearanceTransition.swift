/// An appearance transition in progress on one controller: UIKit's begin/end counter.
struct AppearanceTransition {
    /// Unmatched `beginAppearanceTransition` calls in this direction.
    var depth: Int
    var isAppearing: Bool
    var animated: Bool
    /// The children the callbacks were forwarded to, which get the matching end.
    var forwarded: [Controller]
}
