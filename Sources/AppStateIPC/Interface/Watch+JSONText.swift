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
            JSONWriter.writeArray(changed, into: &buffer) { $0.writeJSON(into: &$1) }
        }
        if let event {
            object.key("event", into: &buffer)
            event.writeJSON(into: &buffer)
        }
        if let removed {
            object.key("removed", into: &buffer)
            JSONWriter.writeArray(removed, into: &buffer) { JSONWriter.writeString($0, into: &$1) }
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
