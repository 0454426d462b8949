import AppStateIPC
import StateContainers

extension VarlinkError {
    /// The declared error for a model error that an operation did not map more precisely.
    /// - Parameters:
    ///   - error: What the model threw.
    ///   - path: The container the operation was on.
    init(containment error: any Error, path: String) {
        if let error = error as? ContainmentError, error == .transitionInProgress {
            self = .transitionInProgress(path: path)
        } else {
            self = .invalidTransition(path: path, reason: "\(error)")
        }
    }

    /// The declared error for what the model threw when a tree's root was asked to present
    /// the presentation `id`.
    /// - Parameters:
    ///   - error: What the model threw.
    ///   - root: The tree's root, which presents.
    ///   - tree: The tree's name.
    ///   - id: The presentation asked for.
    @MainActor init(presenting error: any Error, root: Controller, tree: String, id: String) {
        switch error as? ContainmentError {
        case .noSuchChild?: self = .noSuchPresentation(tree: tree, id: id)
        case .alreadyPresenting?: self = .alreadyPresenting(path: root.path, presented: root.presentedViewController?.path ?? "")
        default: self.init(containment: error, path: root.path)
        }
    }
}
