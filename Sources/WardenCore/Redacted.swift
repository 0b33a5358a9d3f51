/// A wrapper that never shows its value.
///
/// `description`, `debugDescription`, string interpolation, `dump` and `Mirror` all print `<redacted>`, and
/// encoding writes the string `"<redacted>"`: a secret can only leave through an explicit ``unredacted()``
/// call, which is easy to find in review.
///
/// ```swift
/// let token = Redacted("eyJhbGciOi...")
/// print("token: \(token)")            // token: <redacted>
/// request.setValue("Bearer " + token.unredacted(), forHTTPHeaderField: "Authorization")
/// ```
///
/// Thread-safety: a value type; `Sendable` when the wrapped value is.
public struct Redacted<Value>: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let value: Value

    /// Wraps a secret.
    public init(_ value: Value) { self.value = value }

    /// The secret itself. Call this only at the point of use (a header, a signature, a store).
    public func unredacted() -> Value { value }

    /// Applies a transformation to the secret without ever exposing it in between.
    public func map<T>(_ transform: (Value) throws -> T) rethrows -> Redacted<T> { Redacted<T>(try transform(value)) }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension Redacted: Sendable where Value: Sendable {}

extension Redacted: Equatable where Value: Equatable {
    /// Equality of the wrapped values. For comparing attacker-controlled input against a secret use
    /// `ConstantTime.equals` from WardenCrypto instead.
    public static func == (lhs: Redacted, rhs: Redacted) -> Bool { lhs.value == rhs.value }
}

extension Redacted: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

extension Redacted: Encodable {
    /// Encodes `"<redacted>"`. To persist a secret, encode `unredacted()` explicitly.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("<redacted>")
    }
}

extension Redacted: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(Value.self))
    }
}
