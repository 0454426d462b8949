import AppStateCore

extension NodeSnapshot {
    /// Appends the node's JSON text, children included: the bytes `JSONWriter` writes for
    /// ``parameters``, without building them (a `Watch` stream writes every node a change
    /// touched, for each subscription).
    /// - Parameter buffer: The buffer to append to.
    public func writeJSON(into buffer: inout [UInt8]) {
        var object = JSONObjectWriter(opening: &buffer)
        object.key("appearance", into: &buffer)
        JSONWriter.writeString(appearance.rawValue, into: &buffer)
        object.key("children", into: &buffer)
        JSONWriter.writeArray(children, into: &buffer) { $0.writeJSON(into: &$1) }
        object.key("contentInset", into: &buffer)
        writeNumbers(("bottom", contentInset.bottom), ("left", contentInset.left),
                     ("right", contentInset.right), ("top", contentInset.top), into: &buffer)
        write("contentState", contentState, into: &buffer, &object)
        write("current", current, into: &buffer, &object)
        object.key("frame", into: &buffer)
        writeNumbers(("height", frame.size.height), ("width", frame.size.width),
                     ("x", frame.origin.x), ("y", frame.origin.y), into: &buffer)
        object.key("identifier", into: &buffer)
        JSONWriter.writeString(identifier, into: &buffer)
        write("keyboardOverlap", keyboardOverlap, into: &buffer, &object)
        write("locked", locked, into: &buffer, &object)
        write("menuVisible", menuVisible, into: &buffer, &object)
        object.key("onScreen", into: &buffer)
        JSONWriter.write(.bool(onScreen), into: &buffer)
        write("pageCount", pageCount.map(Double.init), into: &buffer, &object)
        write("pageIndex", pageIndex.map(Double.init), into: &buffer, &object)
        object.key("path", into: &buffer)
        JSONWriter.writeString(path, into: &buffer)
        write("title", title, into: &buffer, &object)
        object.key("type", into: &buffer)
        JSONWriter.writeString(type, into: &buffer)
        write("user", user, into: &buffer, &object)
        object.close(into: &buffer)
    }

    private func write(_ key: StaticString, _ text: String?, into buffer: inout [UInt8], _ object: inout JSONObjectWriter) {
        guard let text else { return }
        object.key(key, into: &buffer)
        JSONWriter.writeString(text, into: &buffer)
    }

    private func write(_ key: StaticString, _ flag: Bool?, into buffer: inout [UInt8], _ object: inout JSONObjectWriter) {
        guard let flag else { return }
        object.key(key, into: &buffer)
        JSONWriter.write(.bool(flag), into: &buffer)
    }

    private func write(_ key: StaticString, _ number: Double?, into buffer: inout [UInt8], _ object: inout JSONObjectWriter) {
        guard let number else { return }
        object.key(key, into: &buffer)
        JSONWriter.writeNumber(number, into: &buffer)
    }

    /// `{"a":1,"b":2,"c":3,"d":4}` for four members given in order of their keys: a frame or
    /// an inset.
    private func writeNumbers(_ first: (StaticString, Double), _ second: (StaticString, Double),
                              _ third: (StaticString, Double), _ fourth: (StaticString, Double), into buffer: inout [UInt8]) {
        var object = JSONObjectWriter(opening: &buffer)
        for (key, number) in [first, second, third, fourth] {
            object.key(key, into: &buffer)
            JSONWriter.writeNumber(number, into: &buffer)
        }
        object.close(into: &buffer)
    }
}
