extension NodeSnapshot {
    /// A node's JSON text without its children, split where they go: kept in the node's box
    /// so that encoding a tree again after a change writes afresh only the nodes the change
    /// made, and copies the text of every other.
    final class OwnEncoding: Sendable {
        /// The text up to the children's array, opened: `{"appearance":…,"children":[`.
        let head: [UInt8]
        /// The text after the children: `],"contentInset":…}`.
        let tail: [UInt8]

        /// The text of `node`'s members but its children, as ``writeJSON(into:)`` writes them.
        init(of node: NodeSnapshot) {
            var childless = node
            childless.children = []
            var text: [UInt8] = []
            childless.writeJSON(into: &text)
            // The children's key is the only place where this text can hold it: a string that
            // held these characters would have its quotes escaped.
            let marker = Array(#""children":["#.utf8)
            let end = Self.end(of: marker, in: text)
            head = Array(text[..<end])
            tail = Array(text[end...])
        }

        /// Where the first occurrence of `marker` in `text` ends.
        private static func end(of marker: [UInt8], in text: [UInt8]) -> Int {
            var start = 0
            while start + marker.count <= text.count, !text[start..<(start + marker.count)].elementsEqual(marker) { start += 1 }
            return start + marker.count
        }
    }

    /// Appends the JSON text of the node and its subtree, byte for byte what
    /// ``writeJSON(into:)`` writes, from the text each node keeps of its own members: a node
    /// writes its members once, the first time any thread asks, and copies them every time
    /// after, for as long as it is unchanged (a snapshot carries unchanged nodes over).
    /// - Parameter buffer: The buffer to append to.
    public func writeJSONReusingEncodings(into buffer: inout [UInt8]) {
        let own = storage.ownEncoding.load() ?? storage.ownEncoding.storeIfNil(OwnEncoding(of: self))
        buffer.append(contentsOf: own.head)
        for (position, child) in children.enumerated() {
            if position > 0 { buffer.append(UInt8(ascii: ",")) }
            child.writeJSONReusingEncodings(into: &buffer)
        }
        buffer.append(contentsOf: own.tail)
    }
}
