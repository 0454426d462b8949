/// Why the output follower is not following the compositor: no socket, a refused or broken
/// connection, or a protocol error. ``description`` is the sentence its status and log show.
package struct OutputError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
