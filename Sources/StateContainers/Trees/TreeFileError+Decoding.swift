extension TreeFileError.Issue {
    /// A decoding error as an issue at its coding path, worded the same whichever decoder
    /// (Foundation's JSON, the service's YAML) threw it.
    /// - Parameter error: The error.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            self.init(path: .init(context.codingPath), message: "expected \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            self.init(path: .init(context.codingPath), message: "expected \(Self.describe(type)), found null")
        case .keyNotFound(let key, let context):
            self.init(path: .init(context.codingPath), message: "missing key \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            self.init(path: .init(context.codingPath), message: context.debugDescription)
        @unknown default:
            self.init(path: [], message: "\(error)")
        }
    }

    /// A type as a file's author knows it: "a string", "a list"; decoders name the list and
    /// mapping types differently (`Array<Any>` for Foundation, `Sequence` for the service's YAML decoder).
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Double.Type: return "a number"
        case is Int.Type: return "an integer"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") || name == "Sequence" { return "a list" }
            if name.hasPrefix("Dictionary") || name == "Mapping" { return "a mapping" }
            if name == "Scalar" { return "a single value" }
            return "a value of type \(name)"
        }
    }
}
