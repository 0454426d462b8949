/// Where a controller's restorable state was last encoded: the entries of its subtree in the
/// kept document of `owner` are up to date while the controller is not marked. A class, so
/// that the walk reads a child's record with one retain.
final class RestorationRecord {
    /// The controller's restoration path then.
    let path: String
    /// The restoration path of the controller's parent then, nil for the root encoded: a
    /// container's unmarked children are checked at every change below it by comparing this
    /// and ``identifier`` with the container's path, rather than joining a path for each.
    let parentPath: String?
    /// The controller's restoration identifier then, which `path` ends with.
    let identifier: String
    /// The restoration identifiers of its restorable children then, in order.
    let children: [String]
    /// The number of the kept document the encoding updated.
    let owner: Int

    init(path: String, parentPath: String?, identifier: String, children: [String], owner: Int) {
        self.path = path
        self.parentPath = parentPath
        self.identifier = identifier
        self.children = children
        self.owner = owner
    }
}
