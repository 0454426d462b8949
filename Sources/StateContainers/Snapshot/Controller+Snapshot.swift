import AppStateCore

extension Controller {
    /// Identifiers from the root to this controller joined by `/`.
    public var path: String {
        guard let parent else { return identifier }
        return "\(parent.path)/\(identifier)"
    }

    /// The controller at a path relative to this one (`home/pages`), or this one for an empty path.
    /// - Parameter relativePath: Child identifiers joined by `/`.
    public func descendant(at relativePath: String) -> Controller? {
        var controller: Controller? = self
        for segment in relativePath.split(separator: "/", omittingEmptySubsequences: true) {
            controller = controller?.child(named: String(segment))
        }
        return controller
    }

    /// The deepest chain of current children from this controller.
    public var deepestCurrent: Controller {
        var controller = self
        while let next = controller.currentChild { controller = next }
        return controller
    }

    /// The state of this controller and its subtree. Takes no view loads: an unloaded view
    /// reports a zero frame.
    public func snapshot() -> NodeSnapshot {
        snapshot(path: path)
    }

    private func snapshot(path: String) -> NodeSnapshot {
        var node = NodeSnapshot(
            path: path,
            identifier: identifier,
            type: String(describing: type(of: self)),
            title: title,
            appearance: appearance,
            frame: loadedView.map { $0.convert($0.bounds, to: nil) } ?? .zero,
            contentInset: loadedView?.contentInset ?? .zero,
            onScreen: loadedView?.isOnScreen ?? false,
            children: children.map { $0.snapshot(path: "\(path)/\($0.identifier)") }
        )
        describe(in: &node)
        return node
    }
}
