/// One controller presenting another: what ``Controller/present(_:animated:completion:)``
/// starts and ``Controller/dismiss(animated:completion:)`` ends, kept by the presenting
/// controller (its presentation context).
@MainActor final class Presentation {
    /// Where the presentation is: a transition runs in ``presenting`` and ``dismissing``.
    enum Phase {
        case presenting
        case presented
        case dismissing
    }

    /// The controller presented.
    let presented: Controller
    /// Whether the presenting controller leaves the screen.
    let style: ModalPresentationStyle
    /// Where the presentation is. Restoration saves one that is ending as none, so a change
    /// marks the presenting controller, through the presented one whose path continues it.
    var phase: Phase = .presenting {
        didSet { presented.setNeedsSnapshotUpdate() }
    }
    /// A dismissal asked for while it could not start (the presentation's own transition,
    /// or another one in either tree, still running), and whether it animates: it starts as
    /// soon as they finish, so that no request is lost.
    var pendingDismissal: Bool? {
        didSet { presented.setNeedsSnapshotUpdate() }
    }
    /// What the callers of `dismiss` want run once the dismissal finished.
    var dismissalCompletions: [() -> Void] = []

    init(presented: Controller, style: ModalPresentationStyle) {
        self.presented = presented
        self.style = style
    }

    /// Whether the presenting controller's view is out of the window: a full-screen
    /// presentation once its transition finished, until its dismissal starts.
    var coversPresenting: Bool { style == .fullScreen && phase == .presented }

    /// Whether the presentation is, or will be, over: what restoration saves.
    var isEnding: Bool { phase == .dismissing || pendingDismissal != nil }
}
