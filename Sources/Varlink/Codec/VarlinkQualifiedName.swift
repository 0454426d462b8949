/// A name in a Varlink interface, fully qualified as the wire carries it, e.g.
/// `org.varlink.service.GetInfo`.
public protocol VarlinkQualifiedName: RawRepresentable<String> {}

extension VarlinkQualifiedName {
    /// The name without the interface, as the interface file declares it, e.g. `GetTree`.
    public var shortName: String {
        // Sliced at a byte rather than split at a character: every change's event is named
        // so, and a search by character breaks graphemes all the way along.
        let name = rawValue
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return name }
        return String(name[name.utf8.index(after: dot)...])
    }
}
