extension NodeSpec {
    /// The schemes a node's ``url`` may have: what a kiosk browser shows as a page. Others
    /// (`javascript:`, `data:`, `ftp:`…) would let a tree file run code in the browser or name
    /// something it cannot show.
    static let urlSchemes = ["http", "https", "file"]

    /// What is wrong with a node's ``url``: it must be an `http:`, `https:` or `file:` URL
    /// (the scheme in any case) with something after the scheme, and an `http:` or `https:`
    /// one must name a host (`https://kiosk.example/`); no URL holds spaces or control
    /// characters. Only the shape is checked, so that nothing is fetched or resolved. A tree's
    /// `offline` page is checked by the same rule.
    /// - Parameters:
    ///   - url: The url as the file gives it.
    ///   - key: The key the file gives it under, which the sentence names: `url` or `offline`.
    /// - Returns: A sentence naming the problem, or nil for a url a node may have.
    public static func urlProblem(_ url: String, key: String = "url") -> String? {
        let quoted = String(reflecting: url)
        guard let colon = url.firstIndex(of: ":"), urlSchemes.contains(url[..<colon].lowercased()) else {
            return "\(key) \(quoted) is not an http, https or file URL"
        }
        let scheme = url[..<colon].lowercased()
        let rest = url[url.index(after: colon)...]
        if rest.isEmpty {
            return "\(key) \(quoted) has nothing after \"\(scheme):\""
        }
        if url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "\(key) \(quoted) must not contain spaces or control characters"
        }
        if scheme != "file", host(after: rest).isEmpty {
            return "\(key) \(quoted) names no host (as in \(scheme)://kiosk.example/)"
        }
        return nil
    }

    /// The host of a URL's authority (`//user@host:port`), from what follows its scheme;
    /// empty when there is no authority or it names no host.
    private static func host(after rest: Substring) -> Substring {
        guard rest.hasPrefix("//") else { return "" }
        let afterSlashes = rest.dropFirst(2)
        var authority = afterSlashes.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        // An IPv6 literal holds colons of its own.
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "" }
            return authority.index(after: authority.startIndex) == close ? "" : authority[...close]
        }
        return authority.prefix { $0 != ":" }
    }
}
