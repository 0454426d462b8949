/// A name in the `io.appstate` interface, fully qualified as the wire carries it.
public protocol AppStateQualifiedName: RawRepresentable<String> {}

extension AppStateQualifiedName {
    /// The name without the interface, as the interface file declares it, e.g. `GetTree`.
    public var shortName: String { String(rawValue.dropFirst(AppStateInterface.name.count + 1)) }
}
