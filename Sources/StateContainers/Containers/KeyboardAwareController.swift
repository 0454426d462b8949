import AppStateCore

/// A container that keeps its content usable while an on-screen keyboard covers part of
/// it: the keyboard-avoiding pattern of UIKit apps, done once in a container instead of in
/// every form.
///
/// The content's view fills the container and acts as its scroll view. While the container
/// is on screen it observes the keyboard notifications of its window's bus (it registers in
/// `viewWillAppear` and unregisters in `viewWillDisappear`, so a notification posted while
/// it is off screen changes nothing). On `keyboard.willShow` and `keyboard.willChangeFrame`
/// it converts the keyboard's end frame from window coordinates into its view, intersects
/// it with its bounds, and sets the content's bottom inset to the overlap (keeping the
/// content's own bottom inset where that is larger), scrolling the ``focusedRect`` into the
/// part left visible. On `keyboard.willHide` it puts the content's inset and offset back,
/// as it does at once when it leaves the screen. The keyboard is transient: it takes no
/// part in restoration.
public final class KeyboardAwareController: Controller {
    /// True: every change to what this container reports marks it.
    public override class var marksSnapshotUpdates: Bool { true }

    /// The wrapped child; its view is the scroll view the container adjusts.
    public let content: Controller

    /// The rectangle to keep visible above the keyboard (a text field being edited), in
    /// `content.view` coordinates. Setting it while the keyboard overlaps the content
    /// scrolls it into view at once.
    public var focusedRect: Rect? {
        didSet {
            if contentBeforeKeyboard != nil { scrollFocusedRectToVisible() }
        }
    }

    /// The height of the keyboard's part inside the container's bounds; 0 without a keyboard.
    public private(set) var keyboardOverlap: Double = 0 {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// The duration, in seconds, of the keyboard animation the last adjustment followed, so
    /// that clients animate the content with it; 0 for an adjustment made at once.
    public private(set) var lastAdjustmentDuration: Double = 0

    /// The curve of the keyboard animation the last adjustment followed.
    public private(set) var lastAdjustmentCurve: AnimationCurve = .easeInOut

    private var keyboardObservers: [ObservationToken] = []

    /// The content's inset and offset from before the keyboard came, put back when it goes;
    /// nil while the content is not adjusted.
    private var contentBeforeKeyboard: (inset: Insets, offset: Point)?

    /// Creates a keyboard-aware container and adds `content` as its child. No view is loaded.
    /// - Parameters:
    ///   - identifier: The name among its siblings.
    ///   - content: The child to wrap.
    ///   - title: A human-readable name.
    /// - Throws: ``ContainmentError/invalidArgument`` when the content's identifier is
    ///   empty or contains `/`.
    public init(identifier: String, content: Controller, title: String? = nil) throws {
        self.content = content
        super.init(identifier: identifier, title: title)
        try addChild(content)
    }

    /// The content, while it is still this container's child.
    public override var currentChild: Controller? { content.parent === self ? content : nil }

    /// Installs the content's view, filling the container.
    public override func viewDidLoad() {
        super.viewDidLoad()
        guard content.parent === self else { return }
        content.view.frame = view.bounds
        view.addSubview(content.view)
        content.didMove(toParent: self)
    }

    /// Sizes the content's view to the container's bounds.
    public override func viewWillLayoutSubviews() {
        super.viewWillLayoutSubviews()
        if let scrollView { scrollView.frame = view.bounds }
    }

    /// Starts observing the keyboard notifications of the window's bus.
    /// - Parameter animated: Whether the view appears as part of an animated transition.
    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        // A cancelled disappearance sends viewWillAppear again: observe once, not twice.
        stopObservingKeyboard()
        keyboardObservers = [
            bus.addObserver(for: KeyboardWillShow.self) { [weak self] message in
                self?.keyboardWillChange(message)
            },
            bus.addObserver(for: KeyboardWillChangeFrame.self) { [weak self] message in
                self?.keyboardWillChange(message)
            },
            bus.addObserver(for: KeyboardWillHide.self) { [weak self] message in
                self?.restoreContent(duration: message.duration, curve: message.curve)
            },
        ]
    }

    /// Stops observing the keyboard: off screen, the keyboard covers nothing of this container.
    /// - Parameter animated: Whether the view disappears as part of an animated transition.
    public override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        stopObservingKeyboard()
    }

    /// Puts the content back as it was before the keyboard, at once: the `keyboard.willHide`
    /// that would have done it is not observed off screen, and the content must not come
    /// back still inset for a keyboard that is gone.
    /// - Parameter animated: Whether the view disappeared as part of an animated transition.
    public override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        restoreContent(duration: 0, curve: lastAdjustmentCurve)
    }

    /// Adds the keyboard overlap to the snapshot.
    /// - Parameter node: The snapshot being built for this controller.
    public override func describe(in node: inout NodeSnapshot) {
        super.describe(in: &node)
        node.keyboardOverlap = keyboardOverlap
    }

    /// The content's view while it is installed in this container's view.
    private var scrollView: View? {
        guard let containerView = loadedView, let contentView = content.loadedView,
            contentView.superview === containerView
        else { return nil }
        return contentView
    }

    private func stopObservingKeyboard() {
        for token in keyboardObservers { token.cancel() }
        keyboardObservers = []
    }

    private func keyboardWillChange(_ message: some KeyboardMessage) {
        // The bus decodes only finite frames, so the geometry below needs no checks.
        guard let scrollView else { return }
        let overlap = view.convert(message.frameEnd, from: nil).intersection(view.bounds)
        let saved = contentBeforeKeyboard ?? (scrollView.contentInset, scrollView.contentOffset)
        contentBeforeKeyboard = saved
        keyboardOverlap = overlap.isNull ? 0 : overlap.height
        // The content's own bottom inset still applies where the keyboard covers less.
        scrollView.contentInset.bottom = max(saved.inset.bottom, keyboardOverlap)
        scrollFocusedRectToVisible()
        lastAdjustmentDuration = message.duration
        lastAdjustmentCurve = message.curve
    }

    private func restoreContent(duration: Double, curve: AnimationCurve) {
        guard let saved = contentBeforeKeyboard else { return }
        contentBeforeKeyboard = nil
        keyboardOverlap = 0
        if let scrollView {
            scrollView.contentInset = saved.inset
            scrollView.contentOffset = saved.offset
        }
        lastAdjustmentDuration = duration
        lastAdjustmentCurve = curve
    }

    /// Scrolls as little as possible for ``focusedRect`` to lie between the content's top
    /// and bottom insets, its top edge first when it is taller than that, never above the
    /// content's origin.
    private func scrollFocusedRectToVisible() {
        guard let focusedRect, let scrollView else { return }
        let inset = scrollView.contentInset
        let visibleHeight = max(0, scrollView.bounds.height - inset.top - inset.bottom)
        var y = scrollView.contentOffset.y
        if focusedRect.maxY > y + inset.top + visibleHeight {
            y = focusedRect.maxY - inset.top - visibleHeight
        }
        if focusedRect.minY < y + inset.top {
            y = focusedRect.minY - inset.top
        }
        scrollView.contentOffset.y = max(0, y)
    }
}

extension KeyboardAwareController {
    /// `KeyboardAwareController` in a tree file: its content as its one child.
    public enum Kind: ControllerKind {
        /// `KeyboardAwareController`.
        public static let typeName = "KeyboardAwareController"
        /// Exactly one child: its content.
        public static let children = ChildRule(minimum: 1, maximum: 1, roles: "its content")

        /// Makes the container around its content.
        /// - Parameters:
        ///   - node: The node.
        ///   - children: The content.
        ///   - build: Not needed.
        /// - Returns: The container.
        /// - Throws: What ``KeyboardAwareController/init(identifier:content:title:)`` throws.
        public static func make(_ node: NodeSpec, children: [Controller], build: @escaping @MainActor (NodeSpec) -> Controller?) throws -> Controller
        {
            try KeyboardAwareController(identifier: node.id, content: children[0], title: node.title)
        }
    }
}
