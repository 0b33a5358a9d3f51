/// The header `typ` (RFC 7515 §4.1.9), compared as a media type: case-insensitive, `application/` optional
/// (e.g. `at+jwt` for RFC 9068 access tokens).
public struct TypePolicy: ClaimPolicy {
    /// The expected `typ`, e.g. `at+jwt`.
    public let type: String

    /// A policy requiring the header `typ` to be `type`; a token without `typ` is refused.
    public init(_ type: String) { self.type = type }

    static func normalise(_ value: String) -> String {
        let lower = value.lowercased()
        return lower.hasPrefix("application/") ? String(lower.dropFirst(12)) : lower
    }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        guard let typ = context.header.type, Self.normalise(typ) == Self.normalise(type) else {
            throw JOSEError(.typeMismatch, "the header typ is not \(type)")
        }
    }
}
