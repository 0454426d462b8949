import AppStateIPC

/// The page argument of `appstatectl page`: `next`, `previous`, an index from 0, or a
/// page's identifier.
public enum PageTarget {
    /// The words that move one page, offered first by shell completion.
    public static let words = ["next", "previous"]

    /// Parses the argument. `next` and `previous` (or `prev`) win over pages named so;
    /// such a page is still reachable by its index.
    /// - Parameter text: The argument.
    /// - Returns: What to send to `SetPage`.
    /// - Throws: ``ArgumentError`` for an empty argument or a negative index.
    public static func parse(_ text: String) throws(ArgumentError) -> SetPage.Target {
        switch text {
        case "": throw ArgumentError("name a page: next, previous, an index or an identifier")
        case "next": return .step(1)
        case "previous", "prev": return .step(-1)
        default: break
        }
        if let index = Int(text) {
            guard index >= 0 else { throw ArgumentError("page indexes start at 0, so \(index) is not one") }
            return .index(index)
        }
        return .id(text)
    }
}
