/// One token of the C that wayland-scanner writes: all the generator needs to read its
/// declarations, with comments and preprocessor lines already left out.
enum CToken: Hashable {
    /// A name, e.g. `zxdg_output_v1_interface` or `static`.
    case identifier(String)
    /// A decimal integer.
    case integer(Int)
    /// A string literal's text (wayland-scanner writes names and signatures without escapes).
    case string(String)
    /// One punctuation character: `{`, `}`, `[`, `]`, `=`, `,`, `;`, `*`, `&`, `+`.
    case punctuation(Character)

    /// Splits C source into tokens.
    /// - Parameter source: The text of a `private-code` file.
    /// - Throws: ``ScannerCodeError`` for a character wayland-scanner does not write.
    static func tokens(of source: String) throws(ScannerCodeError) -> [CToken] {
        var tokens: [CToken] = []
        var characters = Substring(withoutPreprocessorLines(source))
        while let first = characters.first {
            if first.isWhitespace {
                characters.removeFirst()
            } else if characters.hasPrefix("/*") {
                guard let end = characters.range(of: "*/") else { throw ScannerCodeError("an unterminated comment") }
                characters = characters[end.upperBound...]
            } else if characters.hasPrefix("//") {
                characters = characters.drop { $0 != "\n" }
            } else if first == "\"" {
                let body = characters.dropFirst()
                guard let end = body.firstIndex(of: "\"") else { throw ScannerCodeError("an unterminated string") }
                let text = body[..<end]
                if text.contains("\\") { throw ScannerCodeError("a string with an escape: \(text)") }
                tokens.append(.string(String(text)))
                characters = body[body.index(after: end)...]
            } else if first.isLetter || first == "_" {
                let name = characters.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                tokens.append(.identifier(String(name)))
                characters = characters.dropFirst(name.count)
            } else if first.isNumber {
                let digits = characters.prefix { $0.isNumber }
                guard let value = Int(digits) else { throw ScannerCodeError("a number out of range: \(digits)") }
                tokens.append(.integer(value))
                characters = characters.dropFirst(digits.count)
            } else if "{}[]=,;*&+".contains(first) {
                tokens.append(.punctuation(first))
                characters.removeFirst()
            } else {
                throw ScannerCodeError("an unexpected character \"\(first)\"")
            }
        }
        return tokens
    }

    /// The source without its preprocessor lines (`#include`, `#define`, `#if`…), each with
    /// the lines a trailing backslash continues it on.
    private static func withoutPreprocessorLines(_ source: String) -> String {
        var kept: [Substring] = []
        var continuing = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let directive = continuing || line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#")
            continuing = directive && line.hasSuffix("\\")
            kept.append(directive ? "" : line)
        }
        return kept.joined(separator: "\n")
    }
}

extension CToken {
    /// The name of an identifier, else nil.
    var identifier: String? {
        if case .identifier(let name) = self { return name }
        return nil
    }
}
