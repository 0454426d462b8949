import AppStateCore

extension Event {
    /// Appends the event's JSON text: the bytes `JSONWriter` writes for ``parameters``, without
    /// building them (a `Watch` stream writes one for each change and subscription).
    /// - Parameter buffer: The buffer to append to.
    public func writeJSON(into buffer: inout [UInt8]) {
        var object = JSONObjectWriter(opening: &buffer)
        object.key("current", into: &buffer)
        JSONWriter.writeString(current, into: &buffer)
        object.key("name", into: &buffer)
        JSONWriter.writeString(name, into: &buffer)
        if let path {
            object.key("path", into: &buffer)
            JSONWriter.writeString(path, into: &buffer)
        }
        object.key("tree", into: &buffer)
        JSONWriter.writeString(tree, into: &buffer)
        if let userInfo {
            object.key("userInfo", into: &buffer)
            JSONWriter.writeObject(userInfo, into: &buffer)
        }
        object.close(into: &buffer)
    }
}
