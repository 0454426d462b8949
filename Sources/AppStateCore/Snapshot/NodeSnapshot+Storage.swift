extension NodeSnapshot {
    /// The members of a node. Changed only through a ``NodeSnapshot`` that holds the sole
    /// reference (`uniqueStorage()`), which is what makes sharing it between threads safe,
    /// and never while one of its members is being changed in place, which is why its
    /// members skip the runtime's exclusivity checks: those cost more than reading a member.
    @usableFromInline final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) @usableFromInline var path: String
        @exclusivity(unchecked) @usableFromInline var type: String
        @exclusivity(unchecked) @usableFromInline var identifier: String
        @exclusivity(unchecked) @usableFromInline var title: String?
        @exclusivity(unchecked) @usableFromInline var appearance: Appearance
        @exclusivity(unchecked) @usableFromInline var frame: Rect
        @exclusivity(unchecked) @usableFromInline var contentInset: Insets
        @exclusivity(unchecked) @usableFromInline var onScreen: Bool
        @exclusivity(unchecked) @usableFromInline var current: String?
        @exclusivity(unchecked) @usableFromInline var pageIndex: Int?
        @exclusivity(unchecked) @usableFromInline var pageCount: Int?
        @exclusivity(unchecked) @usableFromInline var user: String?
        @exclusivity(unchecked) @usableFromInline var locked: Bool?
        @exclusivity(unchecked) @usableFromInline var menuVisible: Bool?
        @exclusivity(unchecked) @usableFromInline var keyboardOverlap: Double?
        @exclusivity(unchecked) @usableFromInline var contentState: String?
        @exclusivity(unchecked) @usableFromInline var children: [NodeSnapshot]

        init(
            path: String, type: String, identifier: String, title: String?, appearance: Appearance, frame: Rect,
            contentInset: Insets, onScreen: Bool, current: String?, pageIndex: Int?, pageCount: Int?, user: String?,
            locked: Bool?, menuVisible: Bool?, keyboardOverlap: Double?, contentState: String?, children: [NodeSnapshot]
        ) {
            self.path = path
            self.type = type
            self.identifier = identifier
            self.title = title
            self.appearance = appearance
            self.frame = frame
            self.contentInset = contentInset
            self.onScreen = onScreen
            self.current = current
            self.pageIndex = pageIndex
            self.pageCount = pageCount
            self.user = user
            self.locked = locked
            self.menuVisible = menuVisible
            self.keyboardOverlap = keyboardOverlap
            self.contentState = contentState
            self.children = children
        }

        /// A box of its own with the same members, for a node about to change.
        @usableFromInline func copy() -> Storage {
            Storage(
                path: path, type: type, identifier: identifier, title: title, appearance: appearance, frame: frame,
                contentInset: contentInset, onScreen: onScreen, current: current, pageIndex: pageIndex,
                pageCount: pageCount, user: user, locked: locked, menuVisible: menuVisible,
                keyboardOverlap: keyboardOverlap, contentState: contentState, children: children
            )
        }
    }
}
