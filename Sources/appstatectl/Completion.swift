import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// Shell completions that ask the daemon named on the command line being completed for
/// its tree, so that `page <TAB>` offers the real page identifiers. Without a daemon they
/// offer only what needs none (`next`, `previous`, notification names).
enum Completion {
    /// Tree names, from `GetStats`.
    static let trees = CompletionKind.custom { words, _, _ in
        (try? client(for: words)?.call(GetStats.self, .init()).trees) ?? []
    }

    /// The containers `current PATH` accepts.
    static let containers = CompletionKind.custom { words, _, _ in
        root(for: words).map { CompletionCandidates.paths(in: $0, ofType: nil) } ?? []
    }

    /// `next`, `previous` and the pages of the container `page` would change.
    static let pages = CompletionKind.custom { words, _, _ in
        PageTarget.words + children(ofType: "PaginatedController", words: words)
    }

    /// The items of the menu `menu select` would change.
    static let menuItems = CompletionKind.custom { words, _, _ in
        children(ofType: "MenuController", words: words)
    }

    /// The well-known bus notifications.
    static let notifications = CompletionKind.list(CompletionCandidates.notificationNames)

    /// The paths of the containers of one kind, for `--path`.
    static func paths(ofType type: String) -> CompletionKind {
        .custom { words, _, _ in
            root(for: words).map { CompletionCandidates.paths(in: $0, ofType: type) } ?? []
        }
    }

    private static func children(ofType type: String, words: [String]) -> [String] {
        guard let root = root(for: words) else { return [] }
        return CompletionCandidates.children(in: root, ofType: type, at: CompletionCandidates.optionValue("--path", in: words))
    }

    private static func root(for words: [String]) -> Node? {
        let tree = CompletionCandidates.optionValue("--tree", in: words)
        return try? client(for: words)?.call(GetTree.self, .init(tree: tree)).root
    }

    /// A connection with a short limit: a shell waiting on TAB must not hang.
    private static func client(for words: [String]) -> VarlinkClient? {
        guard
            let path = try? SocketLocation.resolve(
                option: CompletionCandidates.optionValue("--socket", in: words),
                environment: environment(SocketLocation.environmentVariable)
            )
        else { return nil }
        return try? VarlinkClient(path: path, timeout: .seconds(1))
    }
}
