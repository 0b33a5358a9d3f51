import WardenCore
import WardenCrypto

/// OIDC Core §12.2: a refreshed ID token continues the original — same `iss` (besides equal to the configured
/// issuer), same `sub`, same `aud` set, same `azp` (absent if it was absent), `auth_time` never earlier, a `nonce`
/// (when present) equal to the original's.
public struct RefreshContinuityPolicy: ClaimPolicy {
    /// The claims of the original ID token, which the refreshed one must continue.
    public let original: JWTClaims

    /// A policy checking a refreshed ID token against the claims of the original.
    public init(original: JWTClaims) { self.original = original }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        let claims = context.claims
        func same(_ a: String?, _ b: String?) -> Bool {
            switch (a, b) {
            case (nil, nil): true
            case (let a?, let b?): CodePoints.equal(a, b)
            default: false
            }
        }
        guard try same(claims.issuer, original.issuer) else {
            throw JOSEError(.issuerMismatch, "the refreshed ID token's iss differs from the original's")
        }
        guard try same(claims.subject, original.subject) else {
            throw JOSEError(.subjectMismatch, "the refreshed ID token names another subject")
        }
        guard CodePoints.sameSet(try claims.audience, try original.audience) else {
            throw JOSEError(.audienceMismatch, "the refreshed ID token has other audiences than the original")
        }
        guard try same(claims.string("azp"), original.string("azp")) else {
            throw JOSEError(.azpMismatch, "the refreshed ID token's azp differs from the original's")
        }
        if let before = try original.date("auth_time"), let after = try claims.date("auth_time"), after < before {
            throw JOSEError(.authTimeRegressed, "the refreshed ID token's auth_time is earlier than the original's")
        }
        if let nonce = try claims.nonce {
            guard let first = try original.nonce, ConstantTime.equals(nonce, first) else {
                throw JOSEError(.nonceMismatch, "the refreshed ID token carries another nonce")
            }
        }
    }
}
