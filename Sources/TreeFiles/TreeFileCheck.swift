import StateContainers

/// `appstated --check FILE`: loads a tree file, validates it and builds each tree once, and
/// reports every problem by its place in the file.
package struct TreeFileCheck: Sendable {
    /// Whether the file can be hosted.
    package let isValid: Bool
    /// What to print: a one-line summary, or one line per problem.
    package let text: String

    /// Checks a tree file.
    /// - Parameter path: The YAML or JSON file.
    @MainActor package init(path: String) {
        do {
            let file = try TreeFileLoader.load(path: path).model
            try TreeBuilder.check(file)
            isValid = true
            text = "\(path): ok, \(file.trees.count) tree(s): \(file.trees.map(\.name).joined(separator: ", "))"
        } catch {
            isValid = false
            text = error.description
        }
    }
}
