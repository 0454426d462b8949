import AppStateCore
import StateContainers

extension Controller {
    /// This subtree's snapshot with every controller in it described again, whatever was
    /// marked: what a snapshot that reuses unmarked subtrees must equal.
    func snapshotDescribedAfresh() -> NodeSnapshot {
        var seen = Set<ObjectIdentifier>()
        markSubtree(seen: &seen)
        return snapshot()
    }

    /// This subtree's restorable state with every controller in it encoded again, whatever
    /// was marked: what an encoding that reuses unmarked subtrees must equal.
    func restorableTreeEncodedAfresh() -> RestorationDocument {
        var seen = Set<ObjectIdentifier>()
        markSubtree(seen: &seen)
        return encodeRestorableTree()
    }

    private func markSubtree(seen: inout Set<ObjectIdentifier>) {
        guard seen.insert(ObjectIdentifier(self)).inserted else { return }
        setNeedsSnapshotUpdate()
        for child in configuredChildren { child.markSubtree(seen: &seen) }
        presentedViewController?.markSubtree(seen: &seen)
    }
}
