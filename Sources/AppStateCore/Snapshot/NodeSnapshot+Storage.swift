extension NodeSnapshot {
    /// A node's members, as they are encoded, compared and hashed (all derived).
    @usableFromInline struct Members: Codable, Hashable, Sendable {
        @usableFromInline var path: String
        @usableFromInline var type: String
        @usableFromInline var identifier: String
        @usableFromInline var title: String?
        @usableFromInline var appearance: Appearance
        @usableFromInline var frame: Rect
        @usableFromInline var contentInset: Insets
        @usableFromInline var onScreen: Bool
        @usableFromInline var current: String?
        @usableFromInline var pageIndex: Int?
        @usableFromInline var pageCount: Int?
        @usableFromInline var user: String?
        @usableFromInline var locked: Bool?
        @usableFromInline var menuVisible: Bool?
        @usableFromInline var keyboardOverlap: Double?
        @usableFromInline var contentState: String?
        @usableFromInline var children: [NodeSnapshot]
    }

    /// The box of a node's members. Changed only through a ``NodeSnapshot`` that holds the
    /// sole reference (`uniqueStorage()`), which is what makes sharing it between threads safe,
    /// and never while one of its members is being changed in place, which is why its members
    /// skip the runtime's exclusivity checks: those cost more than reading a member.
    @usableFromInline final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) @usableFromInline var members: Members

        @usableFromInline init(_ members: Members) {
            self.members = members
        }
    }
}
