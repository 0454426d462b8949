extension Controller {
    /// The restoration identifiers from the root to this controller joined by `/`, or nil
    /// when this controller or an ancestor has none (it then takes no part in restoration).
    public var restorationPath: String? {
        guard let restorationIdentifier else { return nil }
        guard let container = pathParent else { return restorationIdentifier }
        return container.restorationPath.map { "\($0)/\(restorationIdentifier)" }
    }

    /// Encodes the restorable state of this controller and its descendants, the hidden
    /// ones (``configuredChildren``) included, each under the path it has when shown, and
    /// which restorable controller each presentation context presents, with that controller's
    /// own state under its path.
    /// - Returns: The versioned document.
    public func encodeRestorableTree() -> RestorationDocument {
        var document = RestorationDocument()
        if let path = restorationPath { document.controllers = encodeRestorableSubtree(path: path, with: RestorationCoder()).entries }
        return document
    }

    /// Restores a document written by ``encodeRestorableTree()``, parents before children so
    /// that a container restores which children exist (and which it shows) before they
    /// restore themselves. A presentation context presents again, without animation, what
    /// its ``Controller/makePresentedController`` makes for the identifier saved, or dismisses
    /// what it presents when the saved state presents nothing restorable; the presented
    /// controller then restores itself. Controllers the document does not mention keep their
    /// state.
    /// - Parameter document: The saved state.
    /// - Throws: ``ContainmentError/invalidArgument`` for a document of another version.
    public func decodeRestorableTree(_ document: RestorationDocument) throws {
        guard document.version == RestorationDocument.currentVersion else {
            throw ContainmentError.invalidArgument.with(
                "restoration document version \(document.version) is not \(RestorationDocument.currentVersion)")
        }
        if let path = restorationPath { decodeRestorableSubtree(path: path, from: document) }
    }

    /// This subtree's saved state by restoration path, and whether it can be reused next time
    /// without a visit. As snapshots do, it reuses what it encoded last time for every subtree
    /// not marked since (``setNeedsSnapshotUpdate()``) at the same path: every durable change
    /// encodes the tree. One coder, emptied for each controller, encodes them all.
    private func encodeRestorableSubtree(path: String, with coder: RestorationCoder) -> (entries: [String: [String: JSONValue]], kept: Bool) {
        if !needsRestorationUpdate, let saved = restorationEntries, saved.path == path { return (saved.controllers, true) }
        var entries: [String: [String: JSONValue]] = [:]
        var childrenKept = true
        for child in treeChildren {
            guard let identifier = child.restorationIdentifier else { continue }
            let (saved, kept) = child.encodeRestorableSubtree(path: "\(path)/\(identifier)", with: coder)
            childrenKept = childrenKept && kept
            if entries.isEmpty {
                entries = saved
            } else {
                entries.merge(saved) { _, new in new }
            }
        }
        coder.removeAllValues()
        encodeRestorableState(with: coder)
        encodePresentation(with: coder)
        if !coder.values.isEmpty { entries[path] = coder.values }
        restorationEntries = (path, entries)
        needsRestorationUpdate = !(childrenKept && type(of: self).marksSnapshotUpdates)
        return (entries, !needsRestorationUpdate)
    }

    private func decodeRestorableSubtree(path: String, from document: RestorationDocument) {
        if let values = document.controllers[path] {
            let coder = RestorationCoder(values: values)
            decodeRestorableState(with: coder)
            decodePresentation(with: coder)
        }
        for child in treeChildren {
            if let identifier = child.restorationIdentifier {
                child.decodeRestorableSubtree(path: "\(path)/\(identifier)", from: document)
            }
        }
    }

    /// Saves which controller this presentation context presents, when it presents or could
    /// (it has a ``makePresentedController``): its identifier and style, or null when it
    /// presents nothing restorable, or is dismissing it.
    private func encodePresentation(with coder: RestorationCoder) {
        guard presentation != nil || makePresentedController != nil else { return }
        guard let presentation, !presentation.isEnding, presentation.presented.restorationIdentifier != nil else {
            coder.encode(JSONValue.null, forKey: PresentationKey.presented)
            return
        }
        coder.encode(presentation.presented.identifier, forKey: PresentationKey.presented)
        coder.encode(presentation.style.rawValue, forKey: PresentationKey.style)
    }

    /// Presents what ``encodePresentation(with:)`` saved, unless it is presented already, or
    /// dismisses what is presented when nothing was. A presentation in transition keeps its course.
    private func decodePresentation(with coder: RestorationCoder) {
        guard coder.containsValue(forKey: PresentationKey.presented), presentation?.phase ?? .presented == .presented,
            presentation?.pendingDismissal == nil
        else { return }
        let saved = coder.decodeString(forKey: PresentationKey.presented)
        let style = coder.decodeString(forKey: PresentationKey.style).flatMap(ModalPresentationStyle.init(rawValue:)) ?? .fullScreen
        if let presentation {
            if presentation.presented.identifier == saved, presentation.style == style { return }
            dismiss(animated: false)
            guard self.presentation == nil else { return }
        }
        guard let saved else { return }
        do {
            try present(identifier: saved, style: style, animated: false)
        } catch {
            ContainmentWarning.emit("could not present \(saved) again: \(error)", on: identifier)
        }
    }

    private enum PresentationKey {
        static let presented = "presented"
        static let style = "presentationStyle"
    }
}
