import AppStateCore
import AppStateIPC

/// Draws a tree snapshot as an SVG wireframe of its window, to scale: one point of the
/// window is one unit of the drawing.
///
/// Every on-screen controller is an outline at its frame, labelled with its identifier,
/// kind, title and frame; the labels of nested controllers are stacked by depth so that
/// frames that coincide (a container filling its parent, as most do) stay readable. The
/// deepest current path is drawn in blue and bold, content insets are shaded, and the
/// keyboard is drawn where it overlaps a keyboard-aware container (the snapshot carries
/// that overlap, not the keyboard's own frame). A presented controller and its subtree are
/// drawn after everything it is presented over, on a backdrop that veils what stays on
/// screen underneath it. Controllers that are not on screen are listed beside the window,
/// indented by depth, rather than drawn over each other at a frame they do not have.
///
/// What tools and tests read is in attributes: each controller's element has
/// `data-path`, `data-type` and (when drawn) `data-frame="X Y WIDTH HEIGHT"`; those on the
/// current path have `data-current="true"`, those off screen `data-on-screen="false"`, a
/// presented one `data-presented="true"`, and its backdrop has `data-backdrop` (its path);
/// the keyboard's element has `data-keyboard="true"` and `data-frame`; the root element has
/// `data-current-path`.
///
/// The output depends on the snapshot only (no time, no randomness, attributes in a fixed
/// order, numbers written as ``Formatting/number(_:)`` writes them), so the same tree always
/// gives the same bytes.
public struct WireframeRenderer: Sendable {
    private static let margin = 16.0
    private static let top = 44.0
    private static let lineHeight = 18.0
    private static let panelGap = 24.0
    private static let panelWidth = 360.0
    private static let indent = 14.0

    private static let currentColor = "#1f6feb"
    private static let outlineColor = "#8c959f"
    private static let insetColor = "#f0a030"
    private static let keyboardColor = "#24292f"

    /// Creates a renderer.
    public init() {}

    /// Renders a tree as a standalone SVG document.
    /// - Parameter root: The snapshot's root, whose frame is the window's.
    /// - Returns: The SVG text, ending with a newline.
    public func render(_ root: Node) -> String {
        let currentPath = root.deepestCurrentPath
        let onPath = Set(Self.pathPrefixes(of: currentPath))
        var drawn: [(node: Node, depth: Int, layer: Int)] = []
        var listed: [(node: Node, depth: Int, isCurrentChild: Bool)] = []
        collect(root, depth: 0, layer: 0, isCurrentChild: false, drawn: &drawn, listed: &listed)

        // A full-screen presentation takes the root off screen; the controller presented over
        // it fills the window then.
        let window = (drawn.first { $0.node.path == root.path } ?? drawn.first { $0.node.presented == true })?.node.frame ?? .zero
        let panelX = Self.margin + window.width + Self.panelGap
        let listHeight = Self.lineHeight * Double(listed.count + 1)
        let width = panelX + Self.panelWidth + Self.margin
        let height = Self.top + max(window.height, listHeight) + Self.margin

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
            viewBox="0 0 \(n(width)) \(n(height))" font-family="DejaVu Sans, Verdana, sans-serif" \
            font-size="13" data-current-path="\(XMLText.escaped(currentPath))">

            """
        svg += "<rect width=\"\(n(width))\" height=\"\(n(height))\" fill=\"#ffffff\"/>\n"
        svg += "<text x=\"\(n(Self.margin))\" y=\"26\" font-size=\"15\" font-weight=\"bold\">"
        svg += "current \(XMLText.escaped(currentPath))</text>\n"
        svg += "<g transform=\"translate(\(n(Self.margin - window.minX)) \(n(Self.top - window.minY)))\">\n"
        svg += "<rect x=\"\(n(window.minX))\" y=\"\(n(window.minY))\" width=\"\(n(window.width))\" "
        svg += "height=\"\(n(window.height))\" fill=\"#f6f8fa\" stroke=\"#57606a\"/>\n"
        // Each presentation's layer over the one it is presented over; in each, the current
        // path last, so that no outline of a sibling hides its highlight.
        for layer in Set(drawn.map(\.layer)).sorted() {
            let nodes = drawn.filter { $0.layer == layer }
            for (node, _, _) in nodes where node.presented == true { svg += backdrop(node) }
            for (node, depth, _) in nodes where !onPath.contains(node.path) { svg += outline(node, depth: depth, isCurrent: false) }
            for (node, depth, _) in nodes where onPath.contains(node.path) { svg += outline(node, depth: depth, isCurrent: true) }
        }
        for (frame, owner) in keyboards(in: drawn.map(\.node)) { svg += keyboard(frame, overlapping: owner) }
        svg += "</g>\n"
        svg += "<g transform=\"translate(\(n(panelX)) \(n(Self.top)))\">\n"
        svg += "<text x=\"0\" y=\"14\" font-weight=\"bold\">off screen</text>\n"
        for (row, entry) in listed.enumerated() {
            svg += "<text x=\"\(n(Double(entry.depth) * Self.indent))\" y=\"\(n(14 + Self.lineHeight * Double(row + 1)))\" "
            svg += "fill=\"#57606a\" \(identity(entry.node)) data-on-screen=\"false\">"
            svg += XMLText.escaped(name(of: entry.node) + (entry.isCurrentChild ? " ◀ current" : ""))
            svg += "</text>\n"
        }
        svg += "</g>\n</svg>\n"
        return svg
    }

    /// Splits the tree into what is drawn (on screen, with a finite frame) and what is
    /// listed, both in document order; each drawn node with its layer, the number of
    /// presentations it is in.
    private func collect(
        _ node: Node, depth: Int, layer: Int, isCurrentChild: Bool,
        drawn: inout [(node: Node, depth: Int, layer: Int)], listed: inout [(node: Node, depth: Int, isCurrentChild: Bool)]
    ) {
        if node.onScreen && node.frame.isFinite && !node.frame.isNull {
            drawn.append((node, depth, layer))
        } else {
            listed.append((node, depth, isCurrentChild))
        }
        for child in node.children {
            collect(
                child, depth: depth + 1, layer: layer + (child.presented == true ? 1 : 0), isCurrentChild: child.identifier == node.current,
                drawn: &drawn, listed: &listed)
        }
    }

    private func outline(_ node: Node, depth: Int, isCurrent: Bool) -> String {
        let frame = node.frame
        var text = "<g \(identity(node)) data-frame=\"\(rectangle(frame))\""
        text += isCurrent ? " data-current=\"true\">\n" : ">\n"
        for (edge, area) in insetAreas(of: node) {
            text += "<rect data-inset=\"\(edge)\" x=\"\(n(area.minX))\" y=\"\(n(area.minY))\" width=\"\(n(area.width))\" "
            text += "height=\"\(n(area.height))\" fill=\"\(Self.insetColor)\" fill-opacity=\"0.3\"/>\n"
        }
        let color = isCurrent ? Self.currentColor : Self.outlineColor
        text += "<rect x=\"\(n(frame.minX))\" y=\"\(n(frame.minY))\" width=\"\(n(frame.width))\" height=\"\(n(frame.height))\" "
        text += "fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(isCurrent ? "3" : "1.5")\"/>\n"
        var label = name(of: node) + " " + Formatting.frame(frame)
        if let insets = Formatting.insets(node.contentInset) { label += ", " + insets }
        text += "<text x=\"\(n(frame.minX + 6))\" y=\"\(n(frame.minY + Self.lineHeight * Double(depth + 1)))\" "
        text += "fill=\"\(isCurrent ? Self.currentColor : "#424a53")\"\(isCurrent ? " font-weight=\"bold\"" : "")>"
        text += XMLText.escaped(label) + "</text>\n</g>\n"
        return text
    }

    /// What veils the layers under a presented controller, under its whole layer.
    private func backdrop(_ node: Node) -> String {
        let frame = node.frame
        var text = "<rect data-backdrop=\"\(XMLText.escaped(node.path))\" x=\"\(n(frame.minX))\" y=\"\(n(frame.minY))\" "
        text += "width=\"\(n(frame.width))\" height=\"\(n(frame.height))\" fill=\"#ffffff\" fill-opacity=\"0.85\"/>\n"
        return text
    }

    private func keyboard(_ frame: Rect, overlapping owner: String) -> String {
        var text = "<g data-keyboard=\"true\" data-overlaps=\"\(XMLText.escaped(owner))\" data-frame=\"\(rectangle(frame))\">\n"
        text += "<rect x=\"\(n(frame.minX))\" y=\"\(n(frame.minY))\" width=\"\(n(frame.width))\" height=\"\(n(frame.height))\" "
        text += "fill=\"\(Self.keyboardColor)\" fill-opacity=\"0.6\"/>\n"
        text += "<text x=\"\(n(frame.midX))\" y=\"\(n(frame.midY + 5))\" text-anchor=\"middle\" fill=\"#ffffff\" font-size=\"15\">"
        text += "keyboard " + XMLText.escaped(Formatting.frame(frame)) + "</text>\n</g>\n"
        return text
    }

    /// The keyboard's part over each on-screen keyboard-aware container: the bottom
    /// `keyboardOverlap` points of its frame, where the keyboard slides in. Containers that
    /// see the same rectangle give one keyboard.
    private func keyboards(in nodes: [Node]) -> [(frame: Rect, owner: String)] {
        var seen: Set<Rect> = []
        var result: [(frame: Rect, owner: String)] = []
        for node in nodes {
            guard let overlap = node.keyboardOverlap, overlap > 0, overlap.isFinite else { continue }
            let frame = node.frame
            let covered = min(overlap, frame.height)
            let rect = Rect(x: frame.minX, y: frame.maxY - covered, width: frame.width, height: covered)
            if seen.insert(rect).inserted { result.append((rect, node.path)) }
        }
        return result
    }

    /// The strips of a node's frame that its content inset takes, each clamped to the frame.
    private func insetAreas(of node: Node) -> [(edge: String, area: Rect)] {
        let frame = node.frame
        let inset = node.contentInset
        let top = clamp(inset.top, frame.height)
        let bottom = clamp(inset.bottom, frame.height - top)
        let middle = frame.height - top - bottom
        let left = clamp(inset.left, frame.width)
        let right = clamp(inset.right, frame.width - left)
        let areas: [(String, Rect)] = [
            ("top", Rect(x: frame.minX, y: frame.minY, width: frame.width, height: top)),
            ("left", Rect(x: frame.minX, y: frame.minY + top, width: left, height: middle)),
            ("bottom", Rect(x: frame.minX, y: frame.maxY - bottom, width: frame.width, height: bottom)),
            ("right", Rect(x: frame.maxX - right, y: frame.minY + top, width: right, height: middle)),
        ]
        return areas.filter { !$0.1.isEmpty }
    }

    private func clamp(_ value: Double, _ limit: Double) -> Double {
        value.isFinite ? min(max(value, 0), max(limit, 0)) : 0
    }

    private func identity(_ node: Node) -> String {
        "data-path=\"\(XMLText.escaped(node.path))\" data-type=\"\(XMLText.escaped(node.type))\""
            + (node.presented == true ? " data-presented=\"true\"" : "")
    }

    private func name(of node: Node) -> String {
        var text = node.identifier + " " + node.type
        if let title = node.title, !title.isEmpty { text += " \"\(title)\"" }
        if node.presented == true { text += " ▲ presented" }
        return text
    }

    private func rectangle(_ rect: Rect) -> String {
        "\(n(rect.minX)) \(n(rect.minY)) \(n(rect.width)) \(n(rect.height))"
    }

    private func n(_ value: Double) -> String {
        Formatting.number(value)
    }

    /// `a`, `a/b`, `a/b/c` for `a/b/c`: the paths of the nodes on a path.
    private static func pathPrefixes(of path: String) -> [String] {
        var prefixes: [String] = []
        var current = ""
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            current = current.isEmpty ? String(segment) : current + "/" + segment
            prefixes.append(current)
        }
        return prefixes
    }
}
