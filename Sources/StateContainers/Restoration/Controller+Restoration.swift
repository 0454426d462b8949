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
        encodeKeptRestorableTree().document
    }

    /// Encodes the restorable state as ``encodeRestorableTree()`` does, and says which
    /// controllers' entries differ from an earlier document. As snapshots do, it encodes again
    /// only the controllers marked since the last encoding (``setNeedsSnapshotUpdate()``) and
    /// their ancestors, into the document of that encoding, so that when `earlier` is that
    /// document the changes cost what they touch, not the size of the tree; from any other
    /// document the two are compared whole.
    /// - Parameter earlier: The document to compare with, usually the one this method
    ///   returned last time.
    /// - Returns: The document, and each entry that differs from `earlier` by restoration
    ///   path: the new values, or nil where a controller no longer saves anything.
    public func encodeRestorableChanges(since earlier: RestorationDocument) -> (
        document: RestorationDocument, changes: [String: [String: JSONValue]?]
    ) {
        let continues = keptRestorationDocument?.document == earlier
        let (document, changes) = encodeKeptRestorableTree()
        guard continues, let changes else { return (document, document.changes(since: earlier)) }
        return (document, changes)
    }

    /// Brings the kept document up to date.
    /// - Returns: The document, and the entries changed since the last encoding, nil when
    ///   there was none at this path.
    private func encodeKeptRestorableTree() -> (document: RestorationDocument, changes: [String: [String: JSONValue]?]?) {
        guard let path = restorationPath else {
            keptRestorationDocument = nil
            return (RestorationDocument(), nil)
        }
        let owner: Int
        var document: RestorationDocument
        let isFirst: Bool
        if let kept = keptRestorationDocument, kept.path == path {
            (owner, document, isFirst) = (kept.owner, kept.document, false)
        } else {
            Controller.restorationDocumentCount += 1
            (owner, document, isFirst) = (Controller.restorationDocumentCount, RestorationDocument(), true)
        }
        keptRestorationDocument = nil
        var changes: [String: [String: JSONValue]?] = [:]
        _ = encodeRestorableSubtree(
            path: path, parentPath: nil, identifier: restorationIdentifier ?? "", owner: owner, afresh: isFirst, into: &document,
            changes: &changes, with: RestorationCoder())
        keptRestorationDocument = (owner, path, document)
        return (document, isFirst ? nil : changes)
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

    /// Brings this subtree's entries in `document` up to date, and whether the subtree can be
    /// left alone next time without a visit. A subtree not marked since it was encoded into
    /// the same document at the same path is left alone; one encoded elsewhere or never has
    /// its entries dropped and is encoded afresh. One coder, emptied for each controller,
    /// encodes them all.
    /// - Parameters:
    ///   - parentPath: The path of the parent, which `path` continues with `identifier`; nil
    ///     for the controller the encoding starts at.
    ///   - afresh: Whether `document` holds nothing under this path, so every controller of
    ///     the subtree is encoded.
    ///   - changes: Where each entry changed goes, nil for one removed.
    private func encodeRestorableSubtree(
        path: String, parentPath: String?, identifier: String, owner: Int, afresh: Bool, into document: inout RestorationDocument,
        changes: inout [String: [String: JSONValue]?], with coder: RestorationCoder
    ) -> Bool {
        var record = restorationRecord
        if let kept = record, kept.path != path || kept.owner != owner { record = nil }
        if !afresh, !needsRestorationUpdate, record != nil { return true }
        // The recorded path, equal to the one given, is the string the children's records
        // keep: comparing them with it then compares two references to one buffer.
        let path = record?.path ?? path
        // Entries under this path that no encoding into this document made from this subtree
        // are another subtree's: dropped, so that the subtree's own take their place.
        if !afresh, record == nil { removeEntries(under: path, keeping: [], from: &document, changes: &changes) }
        // One plain loop, no closures: a container of many children is visited at each change
        // of one of them, so a change costs what it touched only if each child is passed over
        // once, uncopied, and without a closure (which checks its actor at each call).
        let treeChildren = self.treeChildren
        var children: [String] = []
        children.reserveCapacity(treeChildren.count)
        // Children that were not here last time have no entries in the document, even when
        // their own records say so: those of a child that went away went with it. Until a
        // child differs from the recorded one at its place, none was added.
        var sameChildren = record != nil
        var earlierChildren: Set<String>?
        var childrenKept = true
        for child in treeChildren {
            guard let identifier = child.restorationIdentifier else { continue }
            var added = false
            if let record {
                if sameChildren, children.count >= record.children.count || record.children[children.count] != identifier {
                    sameChildren = false
                    earlierChildren = Set(record.children)
                }
                if let earlierChildren { added = !earlierChildren.contains(identifier) }
            }
            children.append(identifier)
            let childAfresh = afresh || record == nil || added
            if !childAfresh, child.keepsRestorationEntries(under: path, as: identifier, owner: owner) { continue }
            let kept = child.encodeRestorableSubtree(
                path: "\(path)/\(identifier)", parentPath: path, identifier: identifier, owner: owner, afresh: childAfresh,
                into: &document, changes: &changes, with: coder)
            childrenKept = childrenKept && kept
        }
        if let record {
            if sameChildren, children.count == record.children.count {
                children = record.children
            } else {
                removeEntries(under: path, keeping: Set(children), from: &document, changes: &changes)
            }
        }
        coder.removeAllValues()
        encodeRestorableState(with: coder)
        encodePresentation(with: coder)
        let values = coder.values
        if values.isEmpty {
            if document.controllers.removeValue(forKey: path) != nil { changes[path] = .some(nil) }
        } else if document.controllers[path] != values {
            document.controllers[path] = values
            changes[path] = values
        }
        restorationRecord = RestorationRecord(path: path, parentPath: parentPath, identifier: identifier, children: children, owner: owner)
        needsRestorationUpdate = !(childrenKept && type(of: self).marksSnapshotUpdates)
        return !needsRestorationUpdate
    }

    /// Whether this controller is unmarked and its subtree's entries in the kept document
    /// `owner` were made at `parentPath/identifier`, so that encoding it again would keep them
    /// all: the check of a child left alone, which joins no path.
    private func keepsRestorationEntries(under parentPath: String, as identifier: String, owner: Int) -> Bool {
        guard !needsRestorationUpdate, let record = restorationRecord else { return false }
        return record.owner == owner && record.identifier == identifier && record.parentPath == parentPath
    }

    /// Removes the entries below `path` but those under the children named in `kept`: a walk
    /// of the whole document, made only when the restorable children change.
    private func removeEntries(
        under path: String, keeping kept: Set<String>, from document: inout RestorationDocument, changes: inout [String: [String: JSONValue]?]
    ) {
        let prefix = path + "/"
        let removed = document.controllers.keys.filter {
            $0.hasPrefix(prefix) && !kept.contains(String($0.dropFirst(prefix.count).prefix { $0 != "/" }))
        }
        for key in removed {
            document.controllers[key] = nil
            changes[key] = .some(nil)
        }
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
