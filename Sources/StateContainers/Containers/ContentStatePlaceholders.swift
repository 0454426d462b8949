extension ContentStateController {
    /// The child a ``ContentStateController`` shows for ``ContentState/loading``; its
    /// identifier is `loading`.
    public final class LoadingController: Controller {
        /// True: its title is all it adds, and setting the title marks it.
        public override class var marksSnapshotUpdates: Bool { true }

        /// Creates the loading child.
        public init() {
            super.init(identifier: "loading", title: "Loading")
        }
    }

    /// The child a ``ContentStateController`` shows for ``ContentState/failed(_:)``; its
    /// identifier is `error` and its title is the message, so that snapshots carry it.
    public final class ErrorController: Controller {
        /// True: its title is all it adds, and setting the title marks it.
        public override class var marksSnapshotUpdates: Bool { true }

        /// What went wrong, as given to ``ContentState/failed(_:)``.
        public internal(set) var message: String {
            didSet { title = message }
        }

        /// Creates the error child.
        /// - Parameter message: What went wrong; also the title.
        public init(message: String) {
            self.message = message
            super.init(identifier: "error", title: message)
        }
    }
}
