import Foundation
import WardenCore

/// Verifies a JWT: the signature through ``JWSVerifier``, then the claims through a ``ClaimPolicy``.
///
/// ```swift
/// let verifier = JWTVerifier(
///     keys: jwks, allowedAlgorithms: [.rs256, .es256],
///     policy: AllOf {
///         ExpirationPolicy()
///         IssuedAtPolicy()
///         IssuerPolicy("https://id.example.com")
///         AudiencePolicy("my-api")
///     })
/// let jwt = try verifier.verify(token)
/// let subject = try jwt.claims.subject
/// ```
///
/// "Now" is read once per verification through the injected clock. Thread-safety: `Sendable`.
public struct JWTVerifier: Sendable {
    /// The signature check, with the keys, allowed algorithms and size cap the verifier was created with.
    public let signatureVerifier: JWSVerifier
    /// The policy the claims must meet once the signature verifies.
    public let policy: any ClaimPolicy
    let now: NowProvider

    /// A verifier with the system clock.
    public init(
        keys: JWKSet, allowedAlgorithms: Set<JWSAlgorithm>, policy: any ClaimPolicy,
        maximumBytes: Int = JWSCompact.defaultMaximumBytes, now: @escaping NowProvider = systemNow
    ) {
        signatureVerifier = JWSVerifier(keys: keys, allowedAlgorithms: allowedAlgorithms, maximumBytes: maximumBytes)
        self.policy = policy
        self.now = now
    }

    /// The default policy: `exp` required with the leeway, `nbf`, `iat` never in the future, `iss` when
    /// given, and `aud` **always**: a token minted for another service must not pass here (RFC 7519 §4.1.3). Without
    /// an `audience` every token is refused (``JOSEErrorDomain/Code/invalidConfiguration``) unless the caller opts out
    /// with `acceptingAnyAudience: true`, e.g. for tokens that carry none by design.
    public static func standardPolicy(
        issuer: String? = nil, audience: String? = nil, acceptingAnyAudience: Bool = false,
        leeway: Leeway = .standard, maximumAge: TimeInterval? = nil
    ) -> AllOf {
        AllOf {
            ExpirationPolicy(leeway: leeway)
            NotBeforePolicy(leeway: leeway)
            IssuedAtPolicy(maximumAge: maximumAge)
            if let issuer { IssuerPolicy(issuer) }
            if let audience {
                AudiencePolicy(audience)
            } else if !acceptingAnyAudience {
                AudienceConfiguredPolicy()
            }
        }
    }

    /// A verified JWT.
    public struct Verified: Sendable {
        /// The token's protected header.
        public let header: JOSEHeader
        /// The token's claims, which met the policy.
        public let claims: JWTClaims
        /// The key of the set that verified the signature.
        public let key: JWK
    }

    /// Verifies `token` (signature first, then claims).
    public func verify(_ token: String) throws(JOSEError) -> Verified {
        let jws = try signatureVerifier.verify(token)
        let object: JSONObject
        do {
            object = try JSONReader(maximumBytes: signatureVerifier.maximumBytes).parseObject(jws.payload)
        } catch {
            throw JOSEError(error.code == .invalidJSON ? .malformed : error.code, "payload: \(error.reason)")
        }
        let claims = JWTClaims(object: object)
        try policy.check(ClaimContext(header: jws.header, claims: claims, now: now()))
        return Verified(header: jws.header, claims: claims, key: jws.key)
    }
}
