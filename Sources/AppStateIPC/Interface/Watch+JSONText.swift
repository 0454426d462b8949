import AppStateCore

extension Watch.Reply {
    /// The reply as one frame of a `Watch` stream, NUL-terminated: the bytes
    /// `VarlinkReply(parameters: parameters, continues: true).encoded` gives, with the members
    /// written straight to bytes (every change writes one for each subscription on its way
    /// from the call to the watchers).
    public var streamedFrame: [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1024)
        buffer.append(contentsOf: #"{"parameters":"#.utf8)
        writeJSON(into: &buffer)
        buffer.append(contentsOf: #","continues":true}"#.utf8)
        buffer.append(0)
        return buffer
    }
}
