extension AppStateMethod {
    /// What a call of a method does, which decides who may make it, where it is answered
    /// and whether its reply waits for a write.
    public enum Effect: Sendable {
        /// Reads what the daemon publishes after every change (the trees): answerable on any
        /// thread from the latest publication.
        case readsPublished
        /// Reads the daemon's own state (statistics), where it lives.
        case readsLive
        /// Streams replies: the connection carries only them from then on.
        case streams
        /// Changes restorable state (who is logged in, pages, menus, stacks): the reply waits
        /// until the change is on disk. `Post` counts, since it may log in or out.
        case changesDurably
        /// Changes transient state (the keyboard, the window size), which is not saved.
        case changesTransiently

        /// Whether it changes a tree, and so needs the caller to be allowed to mutate.
        public var isMutation: Bool {
            switch self {
            case .readsPublished, .readsLive, .streams: false
            case .changesDurably, .changesTransiently: true
            }
        }
    }

    /// What a call of this method does.
    public var effect: Effect {
        switch self {
        case .getTree, .getCurrent: .readsPublished
        case .getStats, .getMetrics: .readsLive
        case .watch: .streams
        case .post, .login, .logout, .lock, .unlock, .setPage, .selectMenuItem, .push, .pop: .changesDurably
        case .showKeyboard, .hideKeyboard, .resize: .changesTransiently
        }
    }

    /// Whether the method changes a tree, and so needs the caller to be allowed to mutate.
    public var isMutation: Bool { effect.isMutation }
}
