import AppStateCore
import FoundationEssentials

/// A container that shows a "logged out" child or a "logged in" child, following who is
/// logged in: the login-state pattern of UIKit apps, where the root container rather than
/// the login screen decides what the user sees.
///
/// Each swap follows the swap timeline of <doc:ContainmentContract>; only the shown child
/// is installed. Both children keep their identifiers (`login` and `home` in the default
/// tree).
///
/// While it is in a window the container observes its window's bus: `session.didLogIn`
/// (userInfo `user`) logs that user in and `session.didLogOut` logs out. Those
/// notifications come from the system that owns the session, so they are authoritative:
/// a log-in notification for another user while someone is logged in switches users
/// instead of being refused. ``logIn(user:switching:)`` and ``logOut()`` post nothing,
/// so observing the bus never loops back.
///
/// A logged-in session can be locked: ``lock()`` keeps the session and shows the lock
/// screen (the ``locked`` child, or the logged-out child when there is none) with the same
/// swap; ``unlock()`` shows the logged-in child again, its state intact.
///
/// The session and its lock take part in restoration; restoring shows the right child at
/// once, with no transition and no view loaded early.
public final class LoginStateController: Controller {
    /// True: every change to what this container reports marks it.
    public override class var marksSnapshotUpdates: Bool { true }

    /// The child shown while nobody is logged in.
    public let loggedOut: Controller

    /// The child shown while someone is logged in.
    public let loggedIn: Controller

    /// The lock screen, shown while the session is locked; without one, the logged-out
    /// child is shown then.
    public let locked: Controller?

    /// Whether the session is locked; false whenever nobody is logged in.
    public private(set) var isLocked = false {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// Who is logged in, and since when; nil when nobody is.
    public private(set) var session: Session? {
        didSet { setNeedsSnapshotUpdate() }
    }

    private lazy var slot = ShownChildSlot(owner: self)
    private var sessionObservers: [ObservationToken] = []

    /// Creates a login-state container showing its logged-out child. No view is loaded.
    /// - Parameters:
    ///   - identifier: The name among its siblings.
    ///   - loggedOut: The child shown while nobody is logged in.
    ///   - loggedIn: The child shown while someone is logged in.
    ///   - locked: The lock screen, shown while the session is locked; `nil` shows the
    ///     logged-out child then.
    ///   - title: A human-readable name.
    /// - Throws: ``ContainmentError/invalidArgument`` when two children are the same
    ///   controller or a child's identifier is empty or contains `/`,
    ///   ``ContainmentError/duplicateIdentifier`` when two share an identifier (they are
    ///   siblings during a swap), ``ContainmentError/transitionInProgress`` when the
    ///   logged-out child is in another container's transition.
    public init(identifier: String, loggedOut: Controller, loggedIn: Controller, locked: Controller? = nil, title: String? = nil) throws {
        let all = [loggedOut, loggedIn] + (locked.map { [$0] } ?? [])
        for (index, child) in all.enumerated() {
            for other in all[..<index] {
                guard other !== child else {
                    throw ContainmentError.invalidArgument.with("\(identifier) needs different children, not \(child.identifier) twice")
                }
                guard other.identifier != child.identifier else {
                    throw ContainmentError.duplicateIdentifier.with("\(identifier) cannot have two children named \(child.identifier)")
                }
            }
            try Controller.checkIdentifier(child.identifier)
        }
        self.loggedOut = loggedOut
        self.loggedIn = loggedIn
        self.locked = locked
        super.init(identifier: identifier, title: title)
        for child in all { child.keeper = self }
        try slot.validate(loggedOut)
        slot.show(loggedOut)
    }

    /// The child shown for the session: ``loggedIn`` or ``loggedOut``. While an animated
    /// swap runs it is the arriving child, and a newer log-in or log-out waits for that
    /// swap to finish.
    public var shownController: Controller { slot.shown ?? loggedOut }

    /// The shown child.
    public override var currentChild: Controller? { slot.shown }

    /// Every child, the logged-out one first, whichever is shown: the hidden ones keep their
    /// state (pages, menu, navigation) for the next time they are shown.
    public override var configuredChildren: [Controller] { [loggedOut, loggedIn] + (locked.map { [$0] } ?? []) }

    /// The child the session calls for: logged out, locked, or logged in.
    private var sessionChild: Controller {
        guard session != nil else { return loggedOut }
        return isLocked ? locked ?? loggedOut : loggedIn
    }

    /// How long a swap takes on the window's clock; zero, the default, swaps before
    /// ``logIn(user:switching:)`` or ``logOut()`` returns.
    public var transitionDuration: Duration {
        get { slot.duration }
        set { slot.duration = newValue }
    }

    /// Logs a user in and shows the logged-in child. Logging in the user who is already
    /// logged in does nothing; switching to another user keeps the logged-in child and
    /// starts a new session. The session starts now, to the whole second.
    /// - Parameters:
    ///   - user: The user's name; see ``Session/validate(user:)``.
    ///   - switching: Whether to replace another user who is logged in.
    /// - Throws: ``ContainmentError/invalidArgument`` for an invalid name,
    ///   ``ContainmentError/alreadyLoggedIn`` when another user is logged in and
    ///   `switching` is false; ``ContainmentError/cycle``,
    ///   ``ContainmentError/duplicateIdentifier`` or ``ContainmentError/transitionInProgress``
    ///   when the logged-in child cannot be added (it is an ancestor of the container,
    ///   another child has its identifier, it is in another container's transition).
    ///   Nothing changes then.
    public func logIn(user: String, switching: Bool = false) throws {
        try Session.validate(user: user)
        if let session {
            guard session.user != user else { return }
            guard switching else {
                throw ContainmentError.alreadyLoggedIn.with("\(session.user) is logged in to \(identifier); log out first or switch users")
            }
            // Another user's session starts unlocked.
            if isLocked { try slot.validate(loggedIn) }
            self.session = Session(user: user, since: Self.currentSecond())
            isLocked = false
            slot.show(sessionChild)
            return
        }
        try slot.validate(loggedIn)
        session = Session(user: user, since: Self.currentSecond())
        slot.show(sessionChild)
    }

    /// Logs out, which also ends a lock, and shows the logged-out child.
    /// - Returns: Whether someone was logged in; false changes nothing.
    @discardableResult
    public func logOut() -> Bool {
        guard session != nil else { return false }
        session = nil
        isLocked = false
        slot.show(sessionChild)
        return true
    }

    /// Locks the session: it stays, and the lock screen is shown.
    /// - Returns: Whether a session was locked; false (nobody is logged in, or the session
    ///   is locked already) changes nothing.
    /// - Throws: What showing the lock screen can throw (see ``logIn(user:switching:)``);
    ///   nothing changes then.
    @discardableResult
    public func lock() throws -> Bool {
        guard session != nil, !isLocked else { return false }
        try slot.validate(locked ?? loggedOut)
        isLocked = true
        slot.show(sessionChild)
        return true
    }

    /// Unlocks the session and shows the logged-in child again, with its state intact.
    /// - Returns: Whether the session was locked; false changes nothing.
    /// - Throws: What showing the logged-in child can throw; nothing changes then.
    @discardableResult
    public func unlock() throws -> Bool {
        guard isLocked else { return false }
        try slot.validate(loggedIn)
        isLocked = false
        slot.show(sessionChild)
        return true
    }

    /// Observes the session notifications of the new window's bus, or stops observing when
    /// the container left its window, so that a torn-down tree leaves no observer behind.
    public override func didMoveToWindow() {
        super.didMoveToWindow()
        for token in sessionObservers { token.cancel() }
        sessionObservers = []
        guard window != nil else { return }
        sessionObservers = [
            bus.addObserver(for: SessionDidLogIn.self) { [weak self] message in
                self?.sessionDidLogIn(user: message.user)
            },
            bus.addObserver(for: SessionDidLogOut.self) { [weak self] _ in
                self?.logOut()
            },
        ]
    }

    /// Installs the shown child's view.
    public override func viewDidLoad() {
        super.viewDidLoad()
        slot.installShownView()
    }

    /// Sizes the shown child's view to the container's bounds.
    public override func viewWillLayoutSubviews() {
        super.viewWillLayoutSubviews()
        slot.layout()
    }

    /// Saves the session: `user` (null when logged out) and `since` in seconds since 1970.
    /// - Parameter coder: Where to put the state.
    public override func encodeRestorableState(with coder: RestorationCoder) {
        super.encodeRestorableState(with: coder)
        guard let session else {
            // Saved explicitly, so that restoring over a logged-in tree logs it out.
            coder.encode(.null, forKey: "user")
            return
        }
        coder.encode(session.user, forKey: "user")
        coder.encode(.number(session.since.timeIntervalSince1970), forKey: "since")
        if isLocked { coder.encode(.bool(true), forKey: "locked") }
    }

    /// Restores the saved session and shows its child at once, without a transition and
    /// without loading views. A saved user that is not a valid name restores no session.
    /// - Parameter coder: The saved state.
    public override func decodeRestorableState(with coder: RestorationCoder) {
        super.decodeRestorableState(with: coder)
        guard let user = coder.decodeString(forKey: "user") else {
            restore(nil, locked: false)
            return
        }
        do {
            try Session.validate(user: user)
        } catch {
            ContainmentWarning.emit("restored no session: \(error)", on: identifier)
            restore(nil, locked: false)
            return
        }
        let since = coder.values["since"]?.doubleValue.map(Date.init(timeIntervalSince1970:)) ?? Date()
        restore(Session(user: user, since: since), locked: coder.values["locked"] == .bool(true))
    }

    /// Adds the logged-in user and the lock to the snapshot.
    /// - Parameter node: The snapshot being built for this controller.
    public override func describe(in node: inout NodeSnapshot) {
        super.describe(in: &node)
        node.user = session?.user
        node.locked = isLocked
    }

    /// Now, to the whole second: a whole number of seconds converts between Foundation's
    /// epoch and the 1970 one that restoration saves without rounding, so a restored
    /// session equals the saved one.
    private static func currentSecond() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    private func restore(_ restored: Session?, locked restoredLock: Bool) {
        let previous = (session, isLocked)
        (session, isLocked) = (restored, restored != nil && restoredLock)
        do {
            try slot.validate(sessionChild)
        } catch {
            ContainmentWarning.emit("could not restore the session: \(error)", on: identifier)
            (session, isLocked) = previous
            return
        }
        slot.show(sessionChild, animated: false)
    }

    private func sessionDidLogIn(user: String) {
        do {
            try logIn(user: user, switching: true)
        } catch {
            // A notification has no caller to throw to.
            ContainmentWarning.emit("ignored session.didLogIn: \(error)", on: identifier)
        }
    }
}

extension LoginStateController {
    /// `LoginStateController` in a tree file: its logged-out, logged-in and (optionally) lock
    /// screens as its children, in that order, and `transitionMs`.
    public enum Kind: ControllerKind {
        /// `LoginStateController`.
        public static let typeName = "LoginStateController"
        /// Two or three children: logged out, logged in, and optionally locked.
        public static let children = ChildRule(minimum: 2, maximum: 3, roles: "logged out, logged in, and optionally locked")
        /// `transitionMs`.
        public static let keys = [NodeKey.transitionMs]

        /// Makes the container, showing its logged-out child.
        /// - Parameters:
        ///   - node: The node.
        ///   - children: The logged-out, logged-in and optional lock screens.
        ///   - build: Not needed.
        /// - Returns: The container.
        /// - Throws: What ``LoginStateController/init(identifier:loggedOut:loggedIn:locked:title:)`` throws.
        public static func make(_ node: NodeSpec, children: [Controller], build: @escaping @MainActor (NodeSpec) -> Controller?) throws -> Controller
        {
            let controller = try LoginStateController(
                identifier: node.id, loggedOut: children[0], loggedIn: children[1],
                locked: children.count > 2 ? children[2] : nil, title: node.title)
            if let duration = node.transitionDuration { controller.transitionDuration = duration }
            return controller
        }
    }
}
