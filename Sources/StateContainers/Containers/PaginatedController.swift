import AppStateCore

/// Shows one page of several, as `UIPageViewController` does with a fixed list of pages.
///
/// Every page is a child from the start, so that `pages/settings` names a page whether or
/// not it is showing and every page takes part in snapshots and restoration; only the
/// current page's view is installed, filling the container. Changing page swaps the
/// installed view with ``Controller/transition(from:to:duration:animations:completion:)``:
/// the old page gets `viewWillDisappear`/`viewDidDisappear` and the new one
/// `viewWillAppear`/`viewDidAppear`. No `willMove`/`didMove` is sent then, as with the tabs
/// of `UITabBarController`, because no page joins or leaves the container.
public final class PaginatedController: Controller {
    /// True: every change to what this container reports marks it.
    public override class var marksSnapshotUpdates: Bool { true }

    /// The pages, in order. All of them are children of the container.
    public private(set) var pages: [Controller] {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// The index of the current page in ``pages``. It changes when a swap starts, so the
    /// arriving page reads itself as current in its `viewWillAppear`.
    public private(set) var currentIndex: Int = 0 {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// How long an animated page change takes on the window's clock; zero (the default)
    /// swaps at once.
    public var transitionDuration: Duration = .zero

    /// Creates a container showing its first page.
    /// - Parameters:
    ///   - identifier: The container's identifier.
    ///   - pages: The pages, in order; at least one.
    ///   - title: A human-readable name.
    /// - Throws: ``ContainmentError/invalidArgument`` for no pages or a page identifier that
    ///   is empty or contains `/`, ``ContainmentError/duplicateIdentifier`` when two pages
    ///   share an identifier.
    public init(identifier: String, pages: [Controller], title: String? = nil) throws {
        self.pages = pages
        super.init(identifier: identifier, title: title)
        if let problem = Kind.children.problem(count: pages.count, typeName: Kind.typeName) {
            throw ContainmentError.invalidArgument.with("\(identifier): \(problem)")
        }
        try adoptChildren(pages, noun: "page")
    }

    /// The page at ``currentIndex``.
    public var currentPage: Controller { pages[currentIndex] }

    /// The current page.
    public override var currentChild: Controller? { currentPage }

    /// Shows the page at `index`. The same index does nothing.
    /// - Parameters:
    ///   - index: The index of the page in ``pages``.
    ///   - animated: Whether the swap takes ``transitionDuration``.
    /// - Throws: ``ContainmentError/outOfRange`` for an index outside ``pages``,
    ///   ``ContainmentError/transitionInProgress`` while a transition runs in or below the
    ///   container or the container itself is appearing or disappearing.
    ///   Nothing changes then.
    public func setPage(_ index: Int, animated: Bool) throws {
        guard pages.indices.contains(index) else {
            throw ContainmentError.outOfRange.with("\(identifier) has \(pages.count) pages; \(index) is out of range")
        }
        guard index != currentIndex else { return }
        try checkReadyToSwap()
        show(index, duration: animated ? transitionDuration : .zero)
    }

    /// Shows the page with the given identifier.
    /// - Parameters:
    ///   - identifier: The page's identifier.
    ///   - animated: Whether the swap takes ``transitionDuration``.
    /// - Throws: ``ContainmentError/noSuchChild`` when no page has that identifier, else what
    ///   ``setPage(_:animated:)`` throws. Nothing changes then.
    public func setPage(identifier: String, animated: Bool) throws {
        guard let index = pages.firstIndex(where: { $0.identifier == identifier }) else {
            throw ContainmentError.noSuchChild.with("\(self.identifier) has no page named \(identifier)")
        }
        try setPage(index, animated: animated)
    }

    /// Shows the following page, animated, as a swipe does.
    /// - Throws: ``ContainmentError/outOfRange`` on the last page, else what
    ///   ``setPage(_:animated:)`` throws. Nothing changes then.
    public func next() throws {
        try setPage(currentIndex + 1, animated: true)
    }

    /// Shows the preceding page, animated, as a swipe does.
    /// - Throws: ``ContainmentError/outOfRange`` on the first page, else what
    ///   ``setPage(_:animated:)`` throws. Nothing changes then.
    public func previous() throws {
        try setPage(currentIndex - 1, animated: true)
    }

    /// Installs the current page's view, the only one this container shows.
    public override func viewDidLoad() {
        super.viewDidLoad()
        installCurrentChildView(currentPage)
    }

    /// Makes the current page's view fill the container.
    public override func viewWillLayoutSubviews() {
        super.viewWillLayoutSubviews()
        currentPage.view.frame = view.bounds
    }

    /// Saves the current page by identifier, and by index for a tree whose pages were renamed.
    /// - Parameter coder: Where to put the state.
    public override func encodeRestorableState(with coder: RestorationCoder) {
        super.encodeRestorableState(with: coder)
        coder.encode(currentPage.identifier, forKey: RestorationKey.page)
        coder.encode(currentIndex, forKey: RestorationKey.index)
    }

    /// Makes the saved page current again: by identifier, else by index when no page has the
    /// saved identifier. Before the tree appears this neither loads views nor sends
    /// appearance callbacks. Unknown pages and indices out of range are ignored.
    /// - Parameter coder: The saved state.
    public override func decodeRestorableState(with coder: RestorationCoder) {
        super.decodeRestorableState(with: coder)
        let saved =
            coder.decodeString(forKey: RestorationKey.page).flatMap { id in pages.firstIndex { $0.identifier == id } }
            ?? coder.decodeInteger(forKey: RestorationKey.index).flatMap { pages.indices.contains($0) ? $0 : nil }
        guard let saved, saved != currentIndex, swapBlocker == nil else { return }
        show(saved, duration: .zero)
    }

    /// Adds the page index and count to the snapshot.
    /// - Parameter node: The snapshot being built for this controller.
    public override func describe(in node: inout NodeSnapshot) {
        super.describe(in: &node)
        node.pageIndex = currentIndex
        node.pageCount = pages.count
    }

    private enum RestorationKey {
        static let page = "page"
        static let index = "index"
    }

    /// Makes a valid, different index current and swaps the installed view.
    private func show(_ index: Int, duration: Duration) {
        let old = currentPage
        currentIndex = index
        replaceCurrentChildView(old, with: currentPage, duration: duration) {}
    }
}

extension PaginatedController {
    /// `PaginatedController` in a tree file: its pages as its children, at least one, and
    /// `transitionMs`.
    public enum Kind: ControllerKind {
        /// `PaginatedController`.
        public static let typeName = "PaginatedController"
        /// At least one child: its pages, which the container itself requires too.
        public static let children = ChildRule(minimum: 1, maximum: nil, roles: "its pages")
        /// `transitionMs`.
        public static let keys = [NodeKey.transitionMs]

        /// Makes the container, showing its first page.
        /// - Parameters:
        ///   - node: The node.
        ///   - children: The pages.
        ///   - build: Not needed.
        /// - Returns: The container.
        /// - Throws: What ``PaginatedController/init(identifier:pages:title:)`` throws.
        public static func make(_ node: NodeSpec, children: [Controller], build: @escaping @MainActor (NodeSpec) -> Controller?) throws -> Controller
        {
            let controller = try PaginatedController(identifier: node.id, pages: children, title: node.title)
            if let duration = node.transitionDuration { controller.transitionDuration = duration }
            return controller
        }
    }
}
