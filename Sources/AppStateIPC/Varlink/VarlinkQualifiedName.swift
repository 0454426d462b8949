/// A name in a Varlink interface, fully qualified as the wire carries it, e.g.
/// `io.appstate.GetTree`.
public protocol VarlinkQualifiedName: RawRepresentable<String> {}

extension VarlinkQualifiedName {
    /// The name without the interface, as the interface file declares it, e.g. `GetTree`.
    public var shortName: String {
        // Sliced rather than split: every change's event is named so.
        rawValue.lastIndex(of: ".").map { String(rawValue[rawValue.index(after: $0)...]) } ?? rawValue
    }
}
