import AppStateCore

/// What the clients of the daemon make of one declared error: the sentence people read, the
/// status `appstatectl` exits with, the status `appstate-gateway` answers a page with, and an
/// example of the error for the documentation and the tests.
///
/// ``ErrorCatalogue`` holds an entry for every error the daemon's interfaces declare.
public struct ErrorCatalogueEntry: Sendable {
    /// The status `appstatectl` exits with when the daemon answers with the error.
    public let exitStatus: ExitStatus
    /// The HTTP status `appstate-gateway` answers a page's call with.
    public let httpStatus: Int
    /// The error with typical parameters, as its factory builds it.
    public let example: VarlinkError
    private let words: @Sendable (ErrorParameters) -> String

    init(
        exit: ExitStatus = .failure, http: Int, example: VarlinkError, sentence: @escaping @Sendable (ErrorParameters) -> String
    ) {
        exitStatus = exit
        httpStatus = http
        self.example = example
        words = sentence
    }

    /// The error as a sentence for people, built from its parameters, e.g. `no node at
    /// session/nowhere`; a parameter that is missing is shown as `?`.
    /// - Parameter error: An error of this entry's name.
    /// - Returns: The sentence, without a program-name prefix.
    public func sentence(for error: VarlinkError) -> String {
        words(ErrorParameters(values: error.parameters))
    }
}

/// An error's parameters as the words of its sentence.
struct ErrorParameters: Sendable {
    let values: [String: JSONValue]

    /// The parameter as text: a string as it is, anything else as JSON, `?` when it is missing.
    subscript(_ key: String) -> String {
        switch values[key] {
        case .string(let text)?: text
        case let value?: value.jsonText
        case nil: "?"
        }
    }

    /// Whether the error carries the parameter.
    func has(_ key: String) -> Bool { values[key] != nil }

    /// The parameter with its article: "a MenuController", "an InputController".
    func withArticle(_ key: String) -> String {
        let noun = self[key]
        return ("AEIOUaeiou".contains(noun.first ?? "x") ? "an " : "a ") + noun
    }

    /// The count held by the parameter with its noun, singular for one: "1 page", "3 pages".
    func count(_ key: String, _ noun: String) -> String {
        let text = self[key]
        return "\(text) \(noun)\(text == "1" ? "" : "s")"
    }
}
