extension Controller {
    /// The restoration identifiers from the root to this controller joined by `/`, or nil
    /// when this controller or an ancestor has none (it then takes no part in restoration).
    public var restorationPath: String? {
        guard let restorationIdentifier else { return nil }
        guard let parent else { return restorationIdentifier }
        return parent.restorationPath.map { "\($0)/\(restorationIdentifier)" }
    }

    /// Encodes the restorable state of this controller and its descendants.
    /// - Returns: The versioned document.
    public func encodeRestorableTree() -> RestorationDocument {
        var document = RestorationDocument()
        forEachInSubtree { controller in
            guard let path = controller.restorationPath else { return }
            let coder = RestorationCoder()
            controller.encodeRestorableState(with: coder)
            if !coder.values.isEmpty { document.controllers[path] = coder.values }
        }
        return document
    }

    /// Restores a document written by ``encodeRestorableTree()``, parents before children so
    /// that a container restores which children exist before they restore themselves.
    /// Controllers the document does not mention keep their state.
    /// - Parameter document: The saved state.
    /// - Throws: ``ContainmentError/invalidArgument`` for a document of another version.
    public func decodeRestorableTree(_ document: RestorationDocument) throws {
        guard document.version == RestorationDocument.currentVersion else {
            throw ContainmentError.invalidArgument.with("restoration document version \(document.version) is not \(RestorationDocument.currentVersion)")
        }
        decodeRestorableSubtree(document)
    }

    private func decodeRestorableSubtree(_ document: RestorationDocument) {
        if let path = restorationPath, let values = document.controllers[path] {
            decodeRestorableState(with: RestorationCoder(values: values))
        }
        for child in children { child.decodeRestorableSubtree(document) }
    }
}
