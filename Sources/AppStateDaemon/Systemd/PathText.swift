/// The two path operations the daemon needs on path strings, as `NSString` does them, without
/// Foundation.
enum PathText {
    /// `directory` and `component` joined by one `/`: `/run/user/1000/` + `appstate` is
    /// `/run/user/1000/appstate`.
    static func appending(_ component: String, to directory: String) -> String {
        directory.hasSuffix("/") ? directory + component : directory + "/" + component
    }

    /// The path without its last component and trailing slashes: `/run/appstate/io.appstate`
    /// gives `/run/appstate`, `/io.appstate` gives `/`, and a bare name gives the empty string.
    static func parent(of path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        guard let slash = text.lastIndex(of: "/") else { return "" }
        let parent = text[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }
}
