import AppStateCore

extension GetTree.Reply {
    /// Appends the reply's JSON text, byte for byte what `writeJSON(into:)` writes, from the
    /// text each node of the tree keeps of its own members
    /// (`NodeSnapshot.writeJSONReusingEncodings(into:)`): after a change, the tree is written
    /// afresh only where the change made new nodes.
    /// - Parameter buffer: The buffer to append to.
    public func writeJSONReusingEncodings(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"root":"#.utf8)
        root.writeJSONReusingEncodings(into: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }
}
