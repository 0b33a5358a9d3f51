import WardenCore

/// `aud` (RFC 7519 §4.1.3): a string or array that contains the expected value.
public struct AudiencePolicy: ClaimPolicy {
    /// The audience `aud` must contain, compared code point for code point.
    public let audience: String

    /// A policy requiring `aud` to contain `audience`; a token without `aud` fails with
    /// ``JOSEErrorDomain/Code/missingClaim``.
    public init(_ audience: String) { self.audience = audience }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        let audiences = try context.claims.audience
        guard !audiences.isEmpty else { throw JOSEError(.missingClaim, "the token has no aud") }
        guard CodePoints.contains(audiences, audience) else {
            throw JOSEError(.audienceMismatch, "aud does not contain the expected audience")
        }
    }
}
