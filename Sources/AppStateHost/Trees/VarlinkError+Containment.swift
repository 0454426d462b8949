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
}
