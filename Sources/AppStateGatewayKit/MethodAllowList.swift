/// The daemon's methods a gateway lets pages call: `--allow`, by name (`GetTree`) or by
/// full name (`io.appstate.GetTree`). Anything else is refused 403 before it reaches the
/// daemon, so that a page, or anyone holding the token, can do through the gateway only
/// what the kiosk needs.
public struct MethodAllowList: Hashable, Sendable {
    /// The interface the names belong to.
    public static let interface = "io.appstate"

    /// What a gateway allows when not told otherwise: reading the tree, reporting activity
    /// (a daemon without the method answers `MethodNotFound`), moving the keyboard, asking
    /// the on-screen keyboard the daemon follows to show or hide itself when a field gains or
    /// loses focus, which changes no more than moving the keyboard does, and reporting the
    /// page as a front-end of its tree, which the gateway lets through only as a page
    /// (``DaemonCaller``), so that no page can pose as the kiosk whose socket `GetKiosk` hands out.
    public static let defaultNames = [
        "GetTree", "GetCurrent", "ReportActivity", "ShowKeyboard", "HideKeyboard", "RequestKeyboard", "ReportFrontEnd",
    ]

    /// The allowed methods' full names, e.g. `io.appstate.GetTree`.
    public let methods: Set<String>

    /// Creates a list.
    /// - Parameter names: Method names, short or full; short ones are `io.appstate`'s.
    /// - Throws: ``GatewayError`` when a name is not a method of `io.appstate`.
    public init(_ names: [String] = MethodAllowList.defaultNames) throws(GatewayError) {
        methods = Set(
            try names.map { name throws(GatewayError) in
                let full = name.contains(".") ? name : "\(Self.interface).\(name)"
                guard full.hasPrefix(Self.interface + "."), Self.isMethodName(full.dropFirst(Self.interface.count + 1)) else {
                    throw GatewayError("--allow takes a method of \(Self.interface), such as GetTree or \(Self.interface).GetTree, not \"\(name)\"")
                }
                return full
            })
    }

    /// Whether a method may be called.
    /// - Parameter method: The full name, e.g. `io.appstate.Login`.
    public func allows(_ method: String) -> Bool {
        methods.contains(method)
    }

    /// Whether a name is one a Varlink interface may declare: a capital letter, then letters
    /// and digits.
    private static func isMethodName(_ name: Substring) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }
}
