import StateContainers

/// A YAML tree file's document as `node(_:depth:)` reads it: each shape as
/// ``YAMLNodeDecoder`` reads it, and nil for a mapping whose keys it would look up otherwise
/// than by their text (a key named twice, by itself or through `<<`, or one that is not a
/// string), so that the decoder reads it.
extension YAMLDocument: SpecDocument {
    func members(of value: Int) -> [String: Int]? {
        guard case .mapping(let mapping) = self[value].content else { return nil }
        var members: [String: Int] = [:]
        for pair in pairsMerged(of: mapping) {
            guard let key = self[pair.key].scalar, isKey(pair.key, named: key.text), members.updateValue(pair.value, forKey: key.text) == nil
            else { return nil }
        }
        return members
    }

    func elements(of value: Int) -> [Int]? {
        guard case .sequence(let sequence) = self[value].content else { return nil }
        return sequence.items
    }

    func string(_ value: Int) -> String? {
        guard let scalar = self[value].scalar, !scalar.isNull else { return nil }
        return scalar.text
    }

    func number(_ value: Int) -> Double? {
        self[value].scalar?.floatingPoint(Double.self)
    }

    func isNull(_ value: Int) -> Bool {
        self[value].scalar?.isNull ?? false
    }
}
