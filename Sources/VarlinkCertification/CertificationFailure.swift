import Varlink

/// Why a certification run failed on the client's side: a reply differs from what the step
/// answers, or the run broke off.
package struct CertificationFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in words.
    package let description: String

    /// Creates a failure.
    /// - Parameter description: What went wrong, in words.
    package init(_ description: String) {
        self.description = description
    }
}
