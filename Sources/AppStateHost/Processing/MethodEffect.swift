/// What a call of a method does, which decides who may make it, where it is answered and
/// whether its reply waits for a write.
package enum MethodEffect: Sendable {
    /// Reads what the host publishes after every change (the trees): answerable on any
    /// thread from the latest publication.
    case readsPublished
    /// Reads the host's own state (statistics), on the main actor where it lives.
    case readsLive
    /// Streams replies: the connection carries only them from then on.
    case streams
    /// Changes restorable state (who is logged in, pages, menus, stacks): the reply waits
    /// until the change is on disk.
    case changesDurably
    /// Changes transient state (the keyboard, the window size), which is not saved.
    case changesTransiently

    /// Whether it changes a tree, and so needs the caller to be allowed to mutate.
    package var isMutation: Bool {
        switch self {
        case .readsPublished, .readsLive, .streams: false
        case .changesDurably, .changesTransiently: true
        }
    }
}
