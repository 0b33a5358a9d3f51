import WardenCore

/// `aud` (RFC 7519 §4.1.3): a string or array that contains the expected value.
public struct AudiencePolicy: ClaimPolicy {
    public let audience: String

    public init(_ audience: String) { self.audience = audience }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        let audiences = try context.claims.audience
        guard !audiences.isEmpty else { throw JOSEError(.missingClaim, "the token has no aud") }
        guard CodePoints.contains(audiences, audience) else {
            throw JOSEError(.audienceMismatch, "aud does not contain the expected audience")
        }
    }
}
