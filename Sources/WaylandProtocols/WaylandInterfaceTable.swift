import CWaylandClient
import Glibc

/// The `wl_interface` tables of one protocol, laid out in memory as the C that wayland-scanner
/// writes would be: each interface with its requests and events, and one array of the
/// interfaces their arguments name. The generated Swift of each protocol makes one table
/// from what `wayland-scanner private-code` declared.
///
/// The memory is never freed: libwayland's proxies keep pointers into it, and a table is made
/// once per process, as the C would be a static. Nothing changes it after ``init(types:interfaces:)``,
/// so it may be read from any thread.
package final class WaylandInterfaceTable: @unchecked Sendable {
    /// What one slot of the types array points at.
    package enum TypeEntry {
        /// `NULL`: an argument that is no object.
        case none
        /// An interface of this table, by its index.
        case defined(Int)
        /// An interface of another protocol, at its library's own symbol.
        case external(UnsafePointer<wl_interface>)
    }

    /// One request or event.
    package struct Message {
        let name: String
        let signature: String
        let typesOffset: Int

        /// Describes a message as `struct wl_message` does.
        /// - Parameters:
        ///   - name: Its name.
        ///   - signature: Its arguments' signature, with the version it appeared in.
        ///   - typesOffset: Where its arguments' interfaces start in the types array.
        package init(_ name: String, _ signature: String, _ typesOffset: Int) {
            self.name = name
            self.signature = signature
            self.typesOffset = typesOffset
        }
    }

    /// One interface.
    package struct Interface {
        let name: String
        let version: Int32
        let requests: [Message]
        let events: [Message]

        /// Describes an interface as `struct wl_interface` does.
        /// - Parameters:
        ///   - name: Its name on the wire.
        ///   - version: The highest version the protocol declares.
        ///   - requests: Its requests, by opcode.
        ///   - events: Its events, by opcode.
        package init(name: String, version: Int32, requests: [Message], events: [Message]) {
            self.name = name
            self.version = version
            self.requests = requests
            self.events = events
        }
    }

    private let interfaces: [UnsafeMutablePointer<wl_interface>]

    /// Lays the tables out.
    /// - Parameters:
    ///   - types: The interfaces messages' arguments name.
    ///   - interfaces: The protocol's interfaces.
    package init(types: [TypeEntry], interfaces: [Interface]) {
        let made = interfaces.map { _ in UnsafeMutablePointer<wl_interface>.allocate(capacity: 1) }
        let typeArray = UnsafeMutablePointer<UnsafePointer<wl_interface>?>.allocate(capacity: max(types.count, 1))
        for (index, entry) in types.enumerated() {
            switch entry {
            case .none: typeArray[index] = nil
            case .defined(let defined): typeArray[index] = UnsafePointer(made[defined])
            case .external(let pointer): typeArray[index] = pointer
            }
        }
        func messages(_ messages: [Message]) -> UnsafePointer<wl_message>? {
            guard !messages.isEmpty else { return nil }
            let array = UnsafeMutablePointer<wl_message>.allocate(capacity: messages.count)
            for (index, message) in messages.enumerated() {
                array[index] = wl_message(
                    name: UnsafePointer(strdup(message.name)), signature: UnsafePointer(strdup(message.signature)),
                    types: typeArray + message.typesOffset)
            }
            return UnsafePointer(array)
        }
        for (pointer, interface) in zip(made, interfaces) {
            pointer.initialize(
                to: wl_interface(
                    name: UnsafePointer(strdup(interface.name)), version: interface.version,
                    method_count: Int32(interface.requests.count), methods: messages(interface.requests),
                    event_count: Int32(interface.events.count), events: messages(interface.events)))
        }
        self.interfaces = made
    }

    /// The interface at an index of the protocol's list.
    package func interface(_ index: Int) -> UnsafePointer<wl_interface> {
        UnsafePointer(interfaces[index])
    }
}
