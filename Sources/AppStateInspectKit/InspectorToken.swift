/// The secret that lets a browser read the inspector: 128 random bits, written as 32
/// lowercase hexadecimal digits in the URL `appstate-inspect` prints, as Jupyter does.
///
/// The daemon's socket keeps reads to root and group `appstate`; a TCP port on 127.0.0.1
/// is open to every local user, so without the token any of them could read what the
/// socket would have refused them.
public struct InspectorToken: Hashable, Sendable {
    /// The token as it appears in the URL.
    public let text: String

    /// Draws a new token from the system's cryptographically secure generator.
    public init() {
        var generator = SystemRandomNumberGenerator()
        self.init(bytes: (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Creates the token that these bytes spell, for tests that need a known one.
    /// - Parameter bytes: The token's bytes.
    public init(bytes: [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        text = String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }

    /// Whether a presented value is this token. The comparison takes the same time
    /// wherever the first difference is, so that timing does not reveal a prefix.
    /// - Parameter presented: The value a request carried.
    public func matches(_ presented: Substring) -> Bool {
        let expected = Array(text.utf8)
        let given = Array(presented.utf8)
        guard expected.count == given.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(expected, given) { difference |= left ^ right }
        return difference == 0
    }
}
