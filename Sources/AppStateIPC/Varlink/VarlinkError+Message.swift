import AppStateCore

extension VarlinkError: CustomStringConvertible {
    /// The error as a sentence for people, e.g. `no node at session/nowhere`, built from the
    /// error's parameters as its ``ErrorCatalogue`` entry says; errors no catalogued interface
    /// declares are shown by name with their parameters as JSON.
    public var message: String {
        if let entry = ErrorCatalogue.entry(for: name) { return entry.sentence(for: self) }
        return parameters.isEmpty ? name : "\(name) \(JSONValue.object(parameters).jsonText)"
    }

    /// The sentence of ``message`` followed by the error's name, for logs.
    public var description: String { "\(message) [\(name)]" }
}
