import AppStateCore
import AppStateIPC

/// What shell completion offers, computed from a snapshot of the tree that the completing
/// `appstatectl` fetches from the daemon (no daemon, no candidates).
public enum CompletionCandidates {
    /// The well-known bus notifications (the `NotificationName` constants of StateContainers),
    /// offered for `post NAME`.
    public static let notificationNames = [
        NotificationName.keyboardWillShow, .keyboardDidShow, .keyboardWillHide, .keyboardDidHide,
        .keyboardWillChangeFrame, .sessionDidLogIn, .sessionDidLogOut,
    ].map(\.rawValue)

    /// The paths of the controllers of one kind, e.g. every `PaginatedController` for
    /// `page --path`; with no kind, every container that shows one child at a time (what
    /// `current PATH` accepts).
    /// - Parameters:
    ///   - root: The tree's root.
    ///   - type: The kind, e.g. `MenuController`.
    /// - Returns: The paths, in tree order.
    public static func paths(in root: Node, ofType type: String?) -> [String] {
        nodes(in: root).filter { node in
            type.map { node.type == $0 } ?? (node.current != nil)
        }.map(\.path)
    }

    /// The identifiers of a container's children: pages for `page`, items for
    /// `menu select`.
    /// - Parameters:
    ///   - root: The tree's root.
    ///   - type: The container's kind, e.g. `PaginatedController`.
    ///   - path: The container's path from `--path`; without one, the first container of
    ///     that kind in tree order, which is the one the daemon picks.
    /// - Returns: The identifiers, in order.
    public static func children(in root: Node, ofType type: String, at path: String?) -> [String] {
        let container = path.flatMap(root.node(at:)) ?? nodes(in: root).first { $0.type == type }
        return container?.children.map(\.identifier) ?? []
    }

    /// The value of an option among the words of a command line being completed, as
    /// `--name value` or `--name=value`, so that completion asks the daemon the user is
    /// talking to.
    /// - Parameters:
    ///   - name: The option, e.g. `--socket`.
    ///   - words: The shell words.
    /// - Returns: The last value given, or `nil`.
    public static func optionValue(_ name: String, in words: [String]) -> String? {
        var value: String?
        for (position, word) in words.enumerated() {
            if word == name, position + 1 < words.count {
                value = words[position + 1]
            } else if word.hasPrefix(name + "=") {
                value = String(word.dropFirst(name.count + 1))
            }
        }
        return value
    }

    /// Every node of the tree, depth first, parents before children.
    private static func nodes(in root: Node) -> [Node] {
        [root] + root.children.flatMap(nodes(in:))
    }
}
