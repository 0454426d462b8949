import AppStateCore

// The streamed replies of `Watch`, written straight to bytes: every change writes one for each
// subscription on its way from the call to the watchers, and building the members first, to
// sort them, took about as long as writing them.

extension Watch.Reply {
    /// The reply as one frame of a `Watch` stream, NUL-terminated: the bytes
    /// `VarlinkReply(parameters: parameters, continues: true).encoded` gives.
    public var streamedFrame: [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1024)
        buffer.append(contentsOf: #"{"parameters":"#.utf8)
        var object = JSONObjectWriter(opening: &buffer)
        if let changed {
            object.key("changed", into: &buffer)
            writeArray(changed, into: &buffer) { $0.writeJSON(into: &$1) }
        }
        if let event {
            object.key("event", into: &buffer)
            event.writeJSON(into: &buffer)
        }
        if let removed {
            object.key("removed", into: &buffer)
            writeArray(removed, into: &buffer) { JSONWriter.writeString($0, into: &$1) }
        }
        if let root {
            object.key("root", into: &buffer)
            root.writeJSON(into: &buffer)
        }
        object.close(into: &buffer)
        buffer.append(contentsOf: #","continues":true}"#.utf8)
        buffer.append(0)
        return buffer
    }
}

extension Event {
    /// Appends the event's JSON text: the bytes `JSONWriter` writes for ``parameters``.
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

extension NodeSnapshot {
    /// Appends the node's JSON text, children included: the bytes `JSONWriter` writes for
    /// ``parameters``.
    /// - Parameter buffer: The buffer to append to.
    public func writeJSON(into buffer: inout [UInt8]) {
        var object = JSONObjectWriter(opening: &buffer)
        object.key("appearance", into: &buffer)
        JSONWriter.writeString(appearance.rawValue, into: &buffer)
        object.key("children", into: &buffer)
        writeArray(children, into: &buffer) { $0.writeJSON(into: &$1) }
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
        if let keyboardOverlap {
            object.key("keyboardOverlap", into: &buffer)
            JSONWriter.writeNumber(keyboardOverlap, into: &buffer)
        }
        write("locked", locked, into: &buffer, &object)
        write("menuVisible", menuVisible, into: &buffer, &object)
        object.key("onScreen", into: &buffer)
        JSONWriter.write(.bool(onScreen), into: &buffer)
        if let pageCount {
            object.key("pageCount", into: &buffer)
            JSONWriter.writeNumber(Double(pageCount), into: &buffer)
        }
        if let pageIndex {
            object.key("pageIndex", into: &buffer)
            JSONWriter.writeNumber(Double(pageIndex), into: &buffer)
        }
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

private func writeArray<Element>(_ elements: [Element], into buffer: inout [UInt8], _ write: (Element, inout [UInt8]) -> Void) {
    buffer.append(UInt8(ascii: "["))
    for (position, element) in elements.enumerated() {
        if position > 0 { buffer.append(UInt8(ascii: ",")) }
        write(element, &buffer)
    }
    buffer.append(UInt8(ascii: "]"))
}
