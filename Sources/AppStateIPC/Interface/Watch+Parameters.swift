import AppStateCore

extension Watch.Reply {
    /// The reply's members, written by hand rather than derived, like ``Node``'s: every change
    /// encodes one for each subscription, on the way from the call to its watchers.
    public var parameters: [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        members["event"] = event.map { .object($0.parameters) }
        members["root"] = root.map { .object($0.parameters) }
        members["changed"] = changed.map { .array($0.map { .object($0.parameters) }) }
        members["removed"] = removed.map { .array($0.map(JSONValue.string)) }
        return members
    }
}
