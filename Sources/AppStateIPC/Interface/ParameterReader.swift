import AppStateCore

/// Reads typed members out of a received Varlink object, turning every problem into the
/// error ``VarlinkObject`` promises.
struct ParameterReader {
    private let values: [String: JSONValue]

    /// Rejects undeclared members first, so that a misspelt optional parameter is reported
    /// rather than silently taken as absent. When several are undeclared the
    /// alphabetically first is named, so the answer does not depend on hashing.
    init(_ values: [String: JSONValue], declared: [String]) throws(VarlinkError) {
        var undeclared: String?
        for key in values.keys where !declared.contains(key) {
            if let found = undeclared, found < key { continue }
            undeclared = key
        }
        if let undeclared { throw .invalidParameter(undeclared) }
        self.values = values
    }

    private func present(_ key: String) -> JSONValue? {
        switch values[key] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    private func required(_ key: String) throws(VarlinkError) -> JSONValue {
        guard let value = present(key) else { throw .invalidParameter(key) }
        return value
    }

    func string(_ key: String) throws(VarlinkError) -> String {
        guard let text = try optionalString(key) else { throw .invalidParameter(key) }
        return text
    }

    func optionalString(_ key: String) throws(VarlinkError) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let text) = value else { throw .invalidParameter(key) }
        return text
    }

    func bool(_ key: String) throws(VarlinkError) -> Bool {
        guard case .bool(let flag) = try required(key) else { throw .invalidParameter(key) }
        return flag
    }

    func optionalBool(_ key: String) throws(VarlinkError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard case .bool(let flag) = value else { throw .invalidParameter(key) }
        return flag
    }

    func int(_ key: String) throws(VarlinkError) -> Int {
        guard let number = try optionalInt(key) else { throw .invalidParameter(key) }
        return number
    }

    func optionalInt(_ key: String) throws(VarlinkError) -> Int? {
        guard let value = present(key) else { return nil }
        guard case .number(let number) = value, let integer = Int(exactly: number) else { throw .invalidParameter(key) }
        return integer
    }

    func float(_ key: String) throws(VarlinkError) -> Double {
        guard let number = try optionalFloat(key) else { throw .invalidParameter(key) }
        return number
    }

    func optionalFloat(_ key: String) throws(VarlinkError) -> Double? {
        guard let value = present(key) else { return nil }
        guard case .number(let number) = value, number.isFinite else { throw .invalidParameter(key) }
        return number
    }

    /// A size in points: finite, not above ``AppStateLimits/maximumLength``, and above zero
    /// unless `allowingZero`.
    func length(_ key: String, allowingZero: Bool) throws(VarlinkError) -> Double {
        let value = try float(key)
        let limit = Int(AppStateLimits.maximumLength)
        if allowingZero {
            guard value >= 0, value <= AppStateLimits.maximumLength else {
                throw .invalidValue(parameter: key, reason: "must be from 0 to \(limit) points, not \(value)")
            }
        } else {
            guard value > 0, value <= AppStateLimits.maximumLength else {
                throw .invalidValue(parameter: key, reason: "must be above 0 and at most \(limit) points, not \(value)")
            }
        }
        return value
    }

    /// An animation duration in seconds, from 0 to ``AppStateLimits/maximumDuration``.
    func optionalDuration(_ key: String) throws(VarlinkError) -> Double? {
        guard let value = try optionalFloat(key) else { return nil }
        guard value >= 0, value <= AppStateLimits.maximumDuration else {
            let limit = Int(AppStateLimits.maximumDuration)
            throw .invalidValue(parameter: key, reason: "must be from 0 to \(limit) seconds, not \(value)")
        }
        return value
    }

    func optionalObject(_ key: String) throws(VarlinkError) -> [String: JSONValue]? {
        guard let value = present(key) else { return nil }
        guard case .object(let members) = value else { throw .invalidParameter(key) }
        return members
    }

    func stringArray(_ key: String) throws(VarlinkError) -> [String] {
        guard case .array(let elements) = try required(key) else { throw .invalidParameter(key) }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else { throw .invalidParameter("\(key)[\(index)]") }
            strings.append(text)
        }
        return strings
    }

    func enumeration<Value: RawRepresentable<String>>(_ key: String, as type: Value.Type) throws(VarlinkError) -> Value {
        guard case .string(let text) = try required(key), let value = Value(rawValue: text) else {
            throw .invalidParameter(key)
        }
        return value
    }

    func object<Object: VarlinkObject>(_ key: String, as type: Object.Type) throws(VarlinkError) -> Object {
        guard let object = try optionalObject(key, as: type) else { throw .invalidParameter(key) }
        return object
    }

    func optionalObject<Object: VarlinkObject>(_ key: String, as type: Object.Type) throws(VarlinkError) -> Object? {
        guard let members = try optionalObject(key) else { return nil }
        return try ParameterReader.decode(members, as: type, at: key)
    }

    func array<Object: VarlinkObject>(_ key: String, of type: Object.Type) throws(VarlinkError) -> [Object] {
        guard case .array(let elements) = try required(key) else { throw .invalidParameter(key) }
        var objects: [Object] = []
        objects.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let place = "\(key)[\(index)]"
            guard case .object(let members) = element else { throw .invalidParameter(place) }
            objects.append(try ParameterReader.decode(members, as: type, at: place))
        }
        return objects
    }

    private static func decode<Object: VarlinkObject>(
        _ members: [String: JSONValue], as type: Object.Type, at place: String
    ) throws(VarlinkError) -> Object {
        do {
            return try Object(parameters: members)
        } catch {
            throw error.nested(under: place)
        }
    }
}

fileprivate extension VarlinkError {
    /// The same error with the parameter it names moved under a containing member.
    func nested(under place: String) -> VarlinkError {
        guard case .string(let parameter)? = parameters["parameter"] else { return self }
        var copy = self
        copy.parameters["parameter"] = .string("\(place).\(parameter)")
        return copy
    }
}
