/// One argument of a method call a follower sends, as ``BusConnection`` appends it: the few
/// types the followers' calls need.
enum BusArgument: Hashable, Sendable {
    /// `s`.
    case string(String)
    /// `b`.
    case boolean(Bool)
    /// `v`: a variant holding the value, as `org.freedesktop.DBus.Properties.Set` takes one.
    indirect case variant(BusArgument)

    /// The argument's D-Bus type signature, e.g. `b`.
    var signature: String {
        switch self {
        case .string: "s"
        case .boolean: "b"
        case .variant: "v"
        }
    }
}
