/// Where a controller's restorable state was last encoded: the entries of its subtree in the
/// kept document of `owner` are up to date while the controller is not marked.
struct RestorationRecord {
    /// The controller's restoration path then.
    let path: String
    /// The restoration identifiers of its restorable children then, in order.
    let children: [String]
    /// The number of the kept document the encoding updated.
    let owner: Int
}
