/// Why a client of the compositor's outputs is not connected to it: no socket, a refused or
/// broken connection, or a protocol error. ``description`` is the sentence its status and log show.
package struct OutputError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
