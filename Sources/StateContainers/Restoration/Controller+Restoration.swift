extension Controller {
    /// The restoration identifiers from the root to this controller joined by `/`, or nil
    /// when this controller or an ancestor has none (it then takes no part in restoration).
    public var restorationPath: String? {
        guard let restorationIdentifier else { return nil }
        guard let container = parent ?? keeper else { return restorationIdentifier }
        return container.restorationPath.map { "\($0)/\(restorationIdentifier)" }
    }

    /// Encodes the restorable state of this controller and its descendants, the hidden
    /// ones (``configuredChildren``) included, each under the path it has when shown.
    /// - Returns: The versioned document.
    public func encodeRestorableTree() -> RestorationDocument {
        var document = RestorationDocument()
        if let path = restorationPath { encodeRestorableSubtree(path: path, into: &document) }
        return document
    }

    /// Restores a document written by ``encodeRestorableTree()``, parents before children so
    /// that a container restores which children exist (and which it shows) before they
    /// restore themselves. Controllers the document does not mention keep their state.
    /// - Parameter document: The saved state.
    /// - Throws: ``ContainmentError/invalidArgument`` for a document of another version.
    public func decodeRestorableTree(_ document: RestorationDocument) throws {
        guard document.version == RestorationDocument.currentVersion else {
            throw ContainmentError.invalidArgument.with(
                "restoration document version \(document.version) is not \(RestorationDocument.currentVersion)")
        }
        if let path = restorationPath { decodeRestorableSubtree(path: path, from: document) }
    }

    private func encodeRestorableSubtree(path: String, into document: inout RestorationDocument) {
        let coder = RestorationCoder()
        encodeRestorableState(with: coder)
        if !coder.values.isEmpty { document.controllers[path] = coder.values }
        for child in configuredChildren {
            if let identifier = child.restorationIdentifier {
                child.encodeRestorableSubtree(path: "\(path)/\(identifier)", into: &document)
            }
        }
    }

    private func decodeRestorableSubtree(path: String, from document: RestorationDocument) {
        if let values = document.controllers[path] {
            decodeRestorableState(with: RestorationCoder(values: values))
        }
        for child in configuredChildren {
            if let identifier = child.restorationIdentifier {
                child.decodeRestorableSubtree(path: "\(path)/\(identifier)", from: document)
            }
        }
    }
}
