import Foundation

/// The claims of a JWT (RFC 7519 §4.1) with typed, strict accessors.
///
/// NumericDate claims must be JSON numbers (a string or boolean `exp` is ``JOSEErrorDomain/Code/invalidClaim``,
/// never silently ignored); `aud` is a string or an array of strings.
public struct JWTClaims: Sendable {
    /// Every claim.
    public let object: JSONObject

    /// Wraps a claims object.
    public init(object: JSONObject) { self.object = object }

    /// Any claim by name.
    public subscript(name: String) -> JSONValue? { object[name] }

    /// A string claim; throws when present but not a string.
    public func string(_ name: String) throws(JOSEError) -> String? {
        guard let value = object[name] else { return nil }
        guard let text = value.stringValue else { throw JOSEError(.invalidClaim, "'\(name)' must be a string") }
        return text
    }

    /// A NumericDate claim (seconds since the epoch as a JSON number); throws when present but not a number.
    public func date(_ name: String) throws(JOSEError) -> Date? {
        guard let value = object[name] else { return nil }
        guard let number = value.numberValue, number.double.isFinite else {
            throw JOSEError(.invalidClaim, "'\(name)' must be a NumericDate (a JSON number)")
        }
        return Date(timeIntervalSince1970: number.double)
    }

    /// `iss`.
    public var issuer: String? { get throws(JOSEError) { try string("iss") } }
    /// `sub`.
    public var subject: String? { get throws(JOSEError) { try string("sub") } }
    /// `jti`.
    public var jwtID: String? { get throws(JOSEError) { try string("jti") } }
    /// `nonce` (OpenID Connect).
    public var nonce: String? { get throws(JOSEError) { try string("nonce") } }
    /// `exp`.
    public var expiration: Date? { get throws(JOSEError) { try date("exp") } }
    /// `nbf`.
    public var notBefore: Date? { get throws(JOSEError) { try date("nbf") } }
    /// `iat`.
    public var issuedAt: Date? { get throws(JOSEError) { try date("iat") } }

    /// `aud` as a list (a single string becomes a one-element list); empty when absent.
    public var audience: [String] {
        get throws(JOSEError) {
            guard let value = object["aud"] else { return [] }
            if let single = value.stringValue { return [single] }
            guard let array = value.arrayValue, !array.isEmpty else {
                throw JOSEError(.invalidClaim, "'aud' must be a string or a non-empty array of strings")
            }
            var result: [String] = []
            for element in array {
                guard let text = element.stringValue else {
                    throw JOSEError(.invalidClaim, "'aud' must be a string or a non-empty array of strings")
                }
                result.append(text)
            }
            return result
        }
    }
}
