import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An SVG document read back by a real XML parser (Foundation's), so that the tests check
/// what a browser or `rsvg-convert` would see, not the text the renderer meant to write.
struct ParsedSVG {
    /// One element: its name, attributes and the text directly inside it.
    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String
    }

    /// Every element in document order.
    let elements: [Element]

    /// Parses a document.
    /// - Parameter text: The SVG text.
    /// - Throws: The parser's error when the text is not well-formed XML.
    init(_ text: String) throws {
        let delegate = Collector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        guard parser.parse() else {
            throw parser.parserError ?? CocoaError(.propertyListReadCorrupt)
        }
        elements = delegate.elements
    }

    /// The elements that have `attribute`, in document order.
    func elements(with attribute: String) -> [Element] {
        elements.filter { $0.attributes[attribute] != nil }
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        private var open: [Int] = []

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            open.append(elements.count)
            elements.append(Element(name: elementName, attributes: attributes, text: ""))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let index = open.last { elements[index].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }
    }
}
