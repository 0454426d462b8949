/// A D-Bus signal as it arrived: who sent it, from which object and interface, and its
/// arguments, read but not yet checked against what the interface declares.
package struct BusSignal: Hashable, Sendable {
    /// The unique name of the sender (`:1.42`), as the bus daemon stamped it.
    package var sender: String
    /// The object path the signal is about.
    package var path: String
    /// The interface of the signal.
    package var interface: String
    /// The signal's name.
    package var member: String
    /// The arguments in order.
    package var arguments: [BusValue]

    /// Creates a signal.
    /// - Parameters:
    ///   - sender: The unique name of the sender.
    ///   - path: The object path.
    ///   - interface: The interface.
    ///   - member: The signal's name.
    ///   - arguments: The arguments in order.
    package init(sender: String, path: String, interface: String, member: String, arguments: [BusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// The interface of `org.freedesktop.DBus.Properties`, whose `PropertiesChanged` signal
    /// both followers read.
    package static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// For a `PropertiesChanged` signal of `interface`: the changed values and the names
    /// of the properties that changed without their value. Nil for any other signal, or
    /// one whose arguments are not `sa{sv}as`.
    /// - Parameter interface: The interface whose properties are asked for.
    package func changedProperties(of interface: String) -> (changed: [String: BusValue], invalidated: [String])? {
        guard self.interface == Self.propertiesInterface, member == "PropertiesChanged", arguments.count == 3,
            arguments[0].string == interface,
            let changed = arguments[1].properties,
            let invalidated = arguments[2].strings
        else { return nil }
        return (changed, invalidated)
    }
}
