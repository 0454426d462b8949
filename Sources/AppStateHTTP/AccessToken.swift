/// The secret that lets a browser use an HTTP front-end of the daemon: 128 random bits,
/// written as 32 lowercase hexadecimal digits, as Jupyter's token is.
///
/// The daemon's socket keeps reads to root and group `appstate`; a TCP port on 127.0.0.1
/// is open to every local user, so without the token any of them could read (or, through
/// the gateway, change) what the socket would have refused them.
public struct AccessToken: Hashable, Sendable {
    /// The token as it appears in a URL, a header or a cookie.
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

    /// Takes a token written elsewhere, such as in a token file, when it is one a URL, a
    /// header and a cookie all carry unchanged: at least ``minimumLength`` characters, each
    /// an ASCII letter, digit, `-`, `_` or `.`.
    /// - Parameter text: The token.
    /// - Returns: `nil` when the text cannot be a token.
    public init?(text: String) {
        guard text.utf8.count >= Self.minimumLength,
            text.utf8.allSatisfy({ Self.allowed.contains($0) })
        else { return nil }
        self.text = text
    }

    /// The shortest token ``init(text:)`` takes: 16 characters, which even as digits alone
    /// cannot be guessed by trying.
    public static let minimumLength = 16

    private static let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.".utf8)

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
