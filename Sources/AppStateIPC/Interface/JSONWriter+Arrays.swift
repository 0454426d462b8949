import AppStateCore

extension JSONWriter {
    /// Appends a JSON array whose elements `write` appends, for the types that write their own
    /// JSON text.
    /// - Parameters:
    ///   - elements: The array's elements.
    ///   - buffer: The buffer to append to.
    ///   - write: Appends one element's JSON text.
    static func writeArray<Element>(_ elements: [Element], into buffer: inout [UInt8], _ write: (Element, inout [UInt8]) -> Void) {
        buffer.append(UInt8(ascii: "["))
        for (position, element) in elements.enumerated() {
            if position > 0 { buffer.append(UInt8(ascii: ",")) }
            write(element, &buffer)
        }
        buffer.append(UInt8(ascii: "]"))
    }
}
