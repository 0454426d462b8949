/// Text made safe to place in XML character data and in double-quoted attribute values.
enum XMLText {
    /// Escapes the five characters XML reserves, and replaces the control characters XML 1.0
    /// cannot carry at all (a title may hold any string the daemon accepted) with U+FFFD, so
    /// that no title can end an element, an attribute or the document.
    /// - Parameter text: The text to escape.
    /// - Returns: The escaped text.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
