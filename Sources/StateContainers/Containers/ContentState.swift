/// What a ``ContentStateController`` shows: a loading screen, an error, or the content.
public enum ContentState: Sendable, Equatable {
    /// The content is being fetched; a loading child is shown.
    case loading
    /// Fetching the content failed; an error child carrying the message is shown.
    case failed(String)
    /// The content is ready; the given controller is shown.
    case render(Controller)

    /// The case's name as snapshots report it: `loading`, `failed` or `render`.
    public var name: String {
        switch self {
        case .loading: "loading"
        case .failed: "failed"
        case .render: "render"
        }
    }

    /// Whether two states are the same case with the same message, or render the same
    /// controller instance (controllers compare by identity).
    /// - Parameters:
    ///   - lhs: A state.
    ///   - rhs: Another state.
    public static func == (lhs: ContentState, rhs: ContentState) -> Bool {
        switch (lhs, rhs) {
        case (.loading, .loading): true
        case (.failed(let left), .failed(let right)): left == right
        case (.render(let left), .render(let right)): left === right
        default: false
        }
    }
}
