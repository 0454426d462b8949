/// A method call a follower makes on a bus, as a value: which service, object, interface and
/// method, with which arguments. ``BusConnection/call(_:)`` sends it.
struct BusMethodCall: Hashable, Sendable, CustomStringConvertible {
    /// The bus name of the service, e.g. `sm.puri.OSK0`.
    var destination: String
    /// The object path.
    var path: String
    /// The interface.
    var interface: String
    /// The method.
    var member: String
    /// The arguments, in order.
    var arguments: [BusArgument] = []

    /// The call for the log: its interface, method and arguments, as `sm.puri.OSK0.SetVisible(true)`.
    var description: String {
        "\(interface).\(member)(\(arguments.map(Self.text).joined(separator: ", ")))"
    }

    private static func text(_ argument: BusArgument) -> String {
        switch argument {
        case .string(let text): String(reflecting: text)
        case .boolean(let value): String(value)
        case .variant(let inner): "<\(text(inner))>"
        }
    }
}
