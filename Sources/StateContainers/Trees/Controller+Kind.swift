extension Controller {
    /// `Controller` in a tree file: a leaf screen, with no children.
    public enum Kind: ControllerKind {
        /// `Controller`.
        public static let typeName = "Controller"
        /// No children.
        public static let children = ChildRule.none

        /// Makes the screen.
        /// - Parameters:
        ///   - node: The node.
        ///   - children: None.
        ///   - build: Not needed.
        /// - Returns: A plain controller with the node's identifier and title.
        public static func make(_ node: NodeSpec, children: [Controller], build: @escaping @MainActor (NodeSpec) -> Controller?) -> Controller {
            Controller(identifier: node.id, title: node.title)
        }
    }
}
