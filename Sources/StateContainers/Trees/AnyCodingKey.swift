/// A coding key for any name: how the strict spec decoders list every key a mapping holds,
/// including the ones they do not know.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int? = nil

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    /// Spec mappings are keyed by names only; an integer key names nothing in them.
    init?(intValue: Int) {
        nil
    }
}
