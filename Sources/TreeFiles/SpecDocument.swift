/// A parsed tree file as `node(_:depth:)` reads it: the shape of each
/// value exactly as the format's `Decoder` reads it, or nil wherever that decoder would do
/// more than hand the value over (convert it, merge keys, pick one of two, report a problem).
/// Nil is never wrong: the reader then leaves the node to the decoder, which says what is
/// the matter in the words of every other problem.
package protocol SpecDocument {
    /// A value of the document: the value itself, or its place in the document.
    associatedtype Value

    /// The members of a mapping, each key once, as the decoder looks them up.
    /// - Parameter value: A value of the document.
    func members(of value: Value) -> [String: Value]?

    /// The elements of a list.
    /// - Parameter value: A value of the document.
    func elements(of value: Value) -> [Value]?

    /// The value as the decoder reads a `String`.
    /// - Parameter value: A value of the document.
    func string(_ value: Value) -> String?

    /// The value as the decoder reads a `Double`.
    /// - Parameter value: A value of the document.
    func number(_ value: Value) -> Double?

    /// Whether the decoder reads the value as null.
    /// - Parameter value: A value of the document.
    func isNull(_ value: Value) -> Bool
}
