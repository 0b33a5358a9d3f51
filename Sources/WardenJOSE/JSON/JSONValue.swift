/// A JSON value read by the strict ``JSONReader``.
///
/// Objects keep their members in document order and never hold duplicate names (the reader rejects them);
/// numbers keep their source text and whether they were written as integers.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, with its source text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array, elements in document order.
    case array([JSONValue])
    /// An object, members in document order.
    case object(JSONObject)

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The object, if this is one.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The array, if this is one.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The number, if this is one.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// This value as a Foundation-compatible object (`NSNull`, `Bool`, `Int64`/`Double`, `String`, arrays,
    /// dictionaries), for printing with `JSONSerialization`.
    public var foundationObject: Any {
        switch self {
        case .null: return Optional<Int>.none as Any
        case .bool(let value): return value
        case .number(let number): return number.int64.map { $0 as Any } ?? number.double
        case .string(let value): return value
        case .array(let values): return values.map(\.foundationObject)
        case .object(let object):
            var dictionary: [String: Any] = [:]
            for member in object.members { dictionary[member.name] = member.value.foundationObject }
            return dictionary
        }
    }
}

/// A JSON number with its source text.
public struct JSONNumber: Sendable, Equatable, CustomStringConvertible {
    /// The number exactly as written.
    public let text: String
    /// `true` when written without fraction or exponent.
    public let isInteger: Bool
    /// The integer value, computed while parsing when it fits in 64 bits.
    public let int64: Int64?

    init(text: String, isInteger: Bool, int64: Int64? = nil) {
        self.text = text
        self.isInteger = isInteger
        self.int64 = isInteger ? (int64 ?? Int64(text)) : nil
    }

    /// The value as a double (may round).
    public var double: Double {
        if let int64 { return Double(int64) }
        return Double(text) ?? .nan
    }

    public var description: String { text }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The member's name.
    public let name: String
    /// The member's value.
    public let value: JSONValue
}

/// A JSON object: members in document order, names unique.
public struct JSONObject: Sendable, Equatable {
    /// The members in document order.
    public let members: [JSONMember]

    /// The value of member `name`, if present.
    public subscript(name: String) -> JSONValue? {
        for member in members where member.name == name { return member.value }
        return nil
    }

    /// Whether member `name` is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// The member names.
    public var names: [String] { members.map(\.name) }
}
