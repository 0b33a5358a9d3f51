import Foundation
import WardenCore
import WardenCrypto

/// Verifies an OpenID Connect ID token as a client must (OpenID Connect Core 1.0 §3.1.3.7).
///
/// Checks, in order: the signature with the provider's JWKS and an allowed algorithm; `iss` exactly equal to the
/// issuer; `sub` present (a non-empty string of at most 255 ASCII characters, Core §2); `aud` containing the client
/// ID and naming no audience besides it that is not in ``trustedAudiences`` (Core §3.1.3.7 step 3), and when there
/// are several audiences an `azp` equal to the client ID (an `azp` that is present must always equal it); `exp`
/// with leeway; `iat` not in the future; `nonce` equal (constant time) to the one sent; `at_hash` and `c_hash` when
/// present; `auth_time` within `max_age` when one was requested; `acr` among the requested `acr_values` when both
/// are there.
///
/// An ID token from a **refresh** goes through ``verifyRefreshed(_:original:accessToken:)``: the same checks
/// plus Core §12.2's continuity with the sign-in's token.
///
/// "Now" is the provider's time when the caller knows it (see `ProviderTime` in WardenOAuth): `iat` is then never
/// given a positive leeway, and a device clock that is off still verifies.
///
/// ```swift
/// let verifier = IDTokenVerifier(issuer: "https://id.example.com", clientID: "app", keys: jwks)
/// let claims = try verifier.verify(idToken, nonce: pending.nonce, accessToken: tokens.accessToken)
/// ```
public struct IDTokenVerifier: Sendable {
    /// The provider's issuer, which `iss` must equal exactly (unless ``issuerTemplate`` is set).
    public let issuer: String
    /// This client's ID: `aud` must contain it, and `azp`, when present, must equal it.
    public let clientID: String
    /// Audiences besides the client ID that an `aud` may also name (e.g. the API an Auth0 `audience` asked for).
    /// Any other audience is refused.
    public let trustedAudiences: Set<String>
    /// The provider's key set, which the signature is verified with.
    public let keys: JWKSet
    /// The algorithms a token's `alg` may name; ``JWSAlgorithm/asymmetric`` by default.
    public let allowedAlgorithms: Set<JWSAlgorithm>
    /// The clock-skew allowance for `exp`, `nbf` and `auth_time`; ``Leeway/standard`` (60 s) by default.
    public let leeway: Leeway
    /// Opt-in: instead of ``issuer``, `iss` must be this multi-tenant template filled with the token's own `tid`
    /// (``TenantIssuerPolicy``). Nil (the default): `iss` equals ``issuer`` exactly.
    public let issuerTemplate: TenantIssuerTemplate?
    let now: NowProvider

    /// A verifier; `allowedAlgorithms` defaults to every asymmetric algorithm (OIDC providers sign ID tokens
    /// with their private key; HS256 ID tokens signed with the client secret are not accepted by default).
    public init(
        issuer: String, clientID: String, keys: JWKSet, trustedAudiences: Set<String> = [],
        allowedAlgorithms: Set<JWSAlgorithm> = JWSAlgorithm.asymmetric, leeway: Leeway = .standard,
        issuerTemplate: TenantIssuerTemplate? = nil, now: @escaping NowProvider = systemNow
    ) {
        self.issuer = issuer
        self.issuerTemplate = issuerTemplate
        self.clientID = clientID
        self.trustedAudiences = trustedAudiences
        self.keys = keys
        self.allowedAlgorithms = allowedAlgorithms
        self.leeway = leeway
        self.now = now
    }

    /// Verifies `idToken` (its signature, then its claims) and returns its claims.
    ///
    /// - Parameters:
    ///   - nonce: the nonce sent in the authorization request (required when one was sent).
    ///   - accessToken: when given, `at_hash` is checked if present.
    ///   - authorizationCode: when given, `c_hash` is checked if present.
    ///   - maxAge: the `max_age` that was requested, if any; `auth_time` is then required.
    ///   - acrValues: the `acr_values` that were requested, if any; an `acr` in the token must be one of them.
    public func verify(
        _ idToken: String, nonce: String?, accessToken: String? = nil, authorizationCode: String? = nil,
        maxAge: TimeInterval? = nil, acrValues: [String]? = nil
    ) throws(JOSEError) -> JWTClaims {
        let policy = AllOf {
            identityPolicy(audiences: trustedAudiences)
            timePolicy
            if let nonce { NoncePolicy(nonce) }
            if let maxAge { AuthTimePolicy(maximumAge: maxAge, leeway: leeway) }
            if let acrValues { AuthenticationContextPolicy(acrValues) }
        }
        return try verify(idToken, policy: policy, accessToken: accessToken, authorizationCode: authorizationCode)
    }

    /// Verifies an ID token that a **refresh** returned (OpenID Connect Core §12.2) against `original`, the claims
    /// of the session's verified ID token: every check of ``verify(_:nonce:accessToken:authorizationCode:maxAge:acrValues:)``
    /// (its `aud` may name exactly the original's audiences), plus `sub` equal to the original's, the same `aud`
    /// set and the same `azp` (absent if it was), `auth_time` never earlier than the original's, and a `nonce`,
    /// when present, equal to the original's.
    ///
    /// Identity decides before time: continuity and every other check come first, the time claims last, so a token
    /// that names another `sub` and is also expired fails as `subject_mismatch`, never as `expired` (which a
    /// session may treat as "could not check now").
    public func verifyRefreshed(_ idToken: String, original: JWTClaims, accessToken: String? = nil)
        throws(JOSEError) -> JWTClaims
    {
        try verifyRefreshed(idToken, original: original, accessToken: accessToken, checkingTime: true)
    }

    /// ``verifyRefreshed(_:original:accessToken:)`` with `exp`, `iat` and `nbf` left out and everything else kept
    /// (signature, continuity, audience, `at_hash`): whether a refreshed token whose times failed is otherwise the
    /// session's own.
    package func verifyRefreshedIgnoringTime(_ idToken: String, original: JWTClaims, accessToken: String? = nil)
        throws(JOSEError) -> JWTClaims
    {
        try verifyRefreshed(idToken, original: original, accessToken: accessToken, checkingTime: false)
    }

    private func verifyRefreshed(_ idToken: String, original: JWTClaims, accessToken: String?, checkingTime: Bool)
        throws(JOSEError) -> JWTClaims
    {
        let originalAudiences = try original.audience
        let policy = AllOf {
            identityPolicy(audiences: Set(originalAudiences))
            RefreshContinuityPolicy(original: original)
            if checkingTime { timePolicy }
        }
        return try verify(idToken, policy: policy, accessToken: accessToken, authorizationCode: nil)
    }

    /// Who the token is about and for: checked before ``timePolicy``, so an identity failure is never reported as
    /// a time failure.
    private func identityPolicy(audiences trusted: Set<String>) -> AllOf {
        let clientID = self.clientID
        return AllOf {
            if let issuerTemplate { TenantIssuerPolicy(issuerTemplate) } else { IssuerPolicy(issuer) }
            SubjectPolicy()
            AuthorizedPartyPolicy(clientID: clientID)
            ClientAudiencePolicy(clientID: clientID, trusted: trusted)
        }
    }

    /// When: `exp` with leeway, `iat` required and never in the future, `nbf` with leeway.
    private var timePolicy: AllOf {
        AllOf {
            ExpirationPolicy(leeway: leeway)
            IssuedAtPolicy(required: true)
            NotBeforePolicy(leeway: leeway)
        }
    }

    private func verify(_ idToken: String, policy: AllOf, accessToken: String?, authorizationCode: String?)
        throws(JOSEError) -> JWTClaims
    {
        let verifier = JWTVerifier(keys: keys, allowedAlgorithms: allowedAlgorithms, policy: policy, now: now)
        let verified = try verifier.verify(idToken)
        let algorithm = verified.header.algorithm
        if let accessToken, let atHash = try verified.claims.string("at_hash") {
            guard Self.halfHash(accessToken, algorithm) == atHash else {
                throw JOSEError(.accessTokenHashMismatch, "at_hash does not match the access token")
            }
        }
        if let authorizationCode, let cHash = try verified.claims.string("c_hash") {
            guard Self.halfHash(authorizationCode, algorithm) == cHash else {
                throw JOSEError(.codeHashMismatch, "c_hash does not match the authorization code")
            }
        }
        return verified.claims
    }

    /// base64url of the left half of the hash of `value` (OIDC Core §3.1.3.6 / §3.3.2.11).
    public static func halfHash(_ value: String, _ algorithm: JWSAlgorithm) -> String {
        let digest = algorithm.claimHash.hash(Array(value.utf8))
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }
}
