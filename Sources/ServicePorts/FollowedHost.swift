import AppStateCore
import AppStateIPC

/// The trees as the followers see them, and the way their changes go in: the path of
/// clients' calls, so that a change logind or the keyboard made is durable before it is
/// published and watchers see the same events.
@MainActor package protocol FollowedHost: AnyObject, Sendable {
    /// Each tree as a follower needs to know it to work out its calls.
    var followedTrees: [FollowedTree] { get }

    /// Answers a follower's calls as one batch. The follower may change what logind owns.
    /// - Parameters:
    ///   - calls: The calls; `Watch` is not among them.
    ///   - reply: Receives the replies, in order, on the main actor.
    func processFollowed(_ calls: [VarlinkCall], reply: @escaping @MainActor ([VarlinkReply?]) -> Void)

    /// Tells a tree's idle clock what logind says of the session it follows: idle for a time
    /// (its `IdleHint` with `IdleSinceHint`), or not. Turning active counts as activity.
    /// - Parameters:
    ///   - tree: The tree's name.
    ///   - duration: How long the session has been idle; nil when it is not.
    func followedIdle(tree: String, idleFor duration: Duration?)
}

/// One tree as a follower needs to know it.
package struct FollowedTree: Sendable {
    /// Who is logged in on a tree's login container, and whether the session is locked.
    package struct Session: Sendable {
        /// The user logged in; nil when logged out.
        package let user: String?
        /// Whether the session is locked.
        package let locked: Bool

        /// Describes a session.
        /// - Parameters:
        ///   - user: The user logged in; nil when logged out.
        ///   - locked: Whether the session is locked.
        package init(user: String?, locked: Bool) {
            self.user = user
            self.locked = locked
        }
    }

    /// The tree's name.
    package let name: String
    /// The size of the tree's window.
    package let windowSize: Size
    /// The session of the tree's root login container; nil when the root is not one.
    package let session: Session?
    /// The window size the tree file gives, which a tree that follows an output gets back when
    /// the output is unplugged.
    package let declaredSize: Size
    /// The keyboard's frame in window coordinates while it is shown.
    package let keyboardFrame: Rect?

    /// Describes a tree.
    /// - Parameters:
    ///   - name: The tree's name.
    ///   - windowSize: The size of its window.
    ///   - session: The session of its root login container, if the root is one.
    ///   - declaredSize: The window size its tree file gives; the window's size when nil.
    ///   - keyboardFrame: The keyboard's frame while it is shown.
    package init(name: String, windowSize: Size, session: Session?, declaredSize: Size? = nil, keyboardFrame: Rect? = nil) {
        self.name = name
        self.windowSize = windowSize
        self.session = session
        self.declaredSize = declaredSize ?? windowSize
        self.keyboardFrame = keyboardFrame
    }
}
