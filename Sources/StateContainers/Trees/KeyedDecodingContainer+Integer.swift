extension KeyedDecodingContainer {
    /// An integer, read as a number first: Foundation's JSONDecoder reports `1.5` where an
    /// `Int` is expected as "not valid JSON" with no location, so the check is done here,
    /// with the key's path.
    /// - Parameter key: The key of the integer.
    /// - Returns: The integer, or nil when the key is absent or null.
    /// - Throws: `DecodingError.typeMismatch` for anything but a whole number that fits an `Int`.
    package func decodeIntegerIfPresent(forKey key: Key) throws -> Int? {
        let mismatch = DecodingError.typeMismatch(Int.self, .init(codingPath: codingPath + [key], debugDescription: "expected an integer"))
        let number: Double?
        do {
            number = try decodeIfPresent(Double.self, forKey: key)
        } catch DecodingError.typeMismatch {
            throw mismatch
        }
        guard let number else { return nil }
        guard let integer = Int(exactly: number) else { throw mismatch }
        return integer
    }
}
