import AppStateIPC

/// Draws a tree snapshot as `tree(1)` draws directories, one controller per line:
///
/// ```
/// session LoginStateController 1280×800+0+0, user ada
/// ├── login KeyboardAwareController off screen
/// │   └── login-form Controller off screen
/// ├── home MenuController "Overview" 1280×800+0+0, menu hidden ◀ current
/// │   └── pages PaginatedController 1280×800+0+0, index 0 of 3 ◀ current
/// └── notice Controller 1280×800+0+0 ▲ presented
/// ```
///
/// Each line gives the identifier, the kind, the title when there is one, the frame in
/// window coordinates (or `off screen`), non-zero insets, the container's own state, the
/// node's url (`url https://…`) when it has one and, on the root, the tree's offline page
/// (`offline file://…`) and `blanked` while the screen is blanked;
/// `◀ current` marks the child its parent shows, and `▲ presented` the controller presented
/// over it, listed after its children. With colour, what is off screen is dimmed so that the
/// visible chain stands out.
public struct TreeRenderer: Sendable {
    /// How to colour the lines.
    public var style: TerminalStyle

    /// Creates a renderer.
    /// - Parameter style: How to colour the lines; plain by default.
    public init(style: TerminalStyle = .plain) {
        self.style = style
    }

    /// Renders a tree.
    /// - Parameter root: The snapshot's root.
    /// - Returns: The lines, joined by newlines, without a final newline.
    public func render(_ root: Node) -> String {
        var lines: [String] = []
        append(root, isCurrent: false, branch: "", indent: "", to: &lines)
        return lines.joined(separator: "\n")
    }

    /// The description of one controller, without the branch drawing.
    /// - Parameters:
    ///   - node: The controller.
    ///   - isCurrent: Whether its parent shows it as its current child.
    /// - Returns: The line's text, marked when the controller is presented over its parent.
    public func describe(_ node: Node, isCurrent: Bool) -> String {
        // Inside a dimmed line the inner codes would end the dimming early, so an
        // off-screen line is dimmed as a whole and nothing in it is coloured.
        let inner = node.onScreen ? style : .plain
        var text = inner.bold(node.identifier) + " " + inner.cyan(node.type)
        if let title = node.title, !title.isEmpty { text += " \"\(title)\"" }
        text += " " + (node.onScreen ? Formatting.frame(node.frame) : "off screen")
        var details: [String] = []
        if let insets = Formatting.insets(node.contentInset) { details.append(inner.yellow(insets)) }
        details += stateDetails(of: node, style: inner)
        if let url = node.url { details.append("url \(url)") }
        if let offline = node.offline { details.append("offline \(offline)") }
        if node.blanked == true { details.append(inner.yellow("blanked")) }
        if !details.isEmpty { text += ", " + details.joined(separator: ", ") }
        if isCurrent { text += " " + inner.green("◀ current") }
        if node.presented == true { text += " " + inner.green("▲ presented") }
        return node.onScreen ? text : style.dim(text)
    }

    private func append(_ node: Node, isCurrent: Bool, branch: String, indent: String, to lines: inout [String]) {
        lines.append(branch + describe(node, isCurrent: isCurrent))
        for (position, child) in node.children.enumerated() {
            let isLast = position == node.children.count - 1
            append(
                child,
                isCurrent: child.identifier == node.current,
                branch: indent + (isLast ? "└── " : "├── "),
                indent: indent + (isLast ? "    " : "│   "),
                to: &lines
            )
        }
    }

    /// The container-specific state a person asks about: who is logged in (and whether the
    /// session is locked), which page, whether the menu or the keyboard is showing, whether
    /// content is loading, whether a split shows both its children.
    private func stateDetails(of node: Node, style: TerminalStyle) -> [String] {
        var details: [String] = []
        if let user = node.user {
            details.append(node.locked == true ? "user \(user), locked" : "user \(user)")
        } else if node.type == "LoginStateController" {
            details.append("logged out")
        }
        if let index = node.pageIndex, let count = node.pageCount { details.append("index \(index) of \(count)") }
        if let visible = node.menuVisible { details.append(visible ? "menu shown" : "menu hidden") }
        if let overlap = node.keyboardOverlap, overlap > 0 {
            details.append(style.yellow("keyboard overlap \(Formatting.number(overlap))"))
        }
        if let state = node.contentState { details.append(state) }
        if let collapsed = node.collapsed { details.append(collapsed ? "collapsed" : "expanded") }
        switch node.appearance {
        case .appearing, .disappearing: details.append(node.appearance.rawValue)
        case .appeared, .disappeared: break
        }
        return details
    }
}
