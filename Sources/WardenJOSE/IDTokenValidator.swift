import Foundation
import WardenCore
import WardenCrypto

/// Validates an OpenID Connect ID token as a client must (OpenID Connect Core 1.0 §3.1.3.7).
///
/// Checks, in order: the signature with the provider's JWKS and an allowed algorithm; `iss` exactly equal to the
/// issuer; `sub` present (a non-empty string of at most 255 ASCII characters, Core §2); `aud` containing the client
/// ID and naming no audience besides it that is not in ``trustedAudiences`` (Core §3.1.3.7 step 3), and when there
/// are several audiences an `azp` equal to the client ID (an `azp` that is present must always equal it); `exp`
/// with leeway; `iat` not in the future; `nonce` equal (constant time) to the one sent; `at_hash` and `c_hash` when
/// present; `auth_time` within `max_age` when one was requested; `acr` among the requested `acr_values` when both
/// are there.
///
/// An ID token from a **refresh** goes through ``validateRefreshed(_:original:accessToken:)``: the same checks
/// plus Core §12.2's continuity with the sign-in's token.
///
/// "Now" is the provider's time when the caller knows it (see `ProviderTime` in WardenOAuth): `iat` is then never
/// given a positive leeway, and a device clock that is off still validates.
///
/// ```swift
/// let validator = IDTokenValidator(issuer: "https://id.example.com", clientID: "app", keys: jwks)
/// let claims = try validator.validate(idToken, nonce: pending.nonce, accessToken: tokens.accessToken)
/// ```
public struct IDTokenValidator: Sendable {
    public let issuer: String
    public let clientID: String
    /// Audiences besides the client ID that an `aud` may also name (e.g. the API an Auth0 `audience` asked for).
    /// Any other audience is refused.
    public let trustedAudiences: Set<String>
    public let keys: JWKSet
    public let allowedAlgorithms: Set<JWSAlgorithm>
    public let leeway: Leeway
    /// Opt-in: instead of ``issuer``, `iss` must be this multi-tenant template filled with the token's own `tid`
    /// (``TenantIssuerPolicy``). Nil (the default): `iss` equals ``issuer`` exactly.
    public let issuerTemplate: TenantIssuerTemplate?
    let now: NowProvider

    /// A validator; `allowedAlgorithms` defaults to every asymmetric algorithm (OIDC providers sign ID tokens
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

    /// Validates `idToken` and returns its claims.
    ///
    /// - Parameters:
    ///   - nonce: the nonce sent in the authorization request (required when one was sent).
    ///   - accessToken: when given, `at_hash` is checked if present.
    ///   - authorizationCode: when given, `c_hash` is checked if present.
    ///   - maxAge: the `max_age` that was requested, if any; `auth_time` is then required.
    ///   - acrValues: the `acr_values` that were requested, if any; an `acr` in the token must be one of them.
    public func validate(
        _ idToken: String, nonce: String?, accessToken: String? = nil, authorizationCode: String? = nil,
        maxAge: TimeInterval? = nil, acrValues: [String]? = nil
    ) throws(JOSEError) -> JWTClaims {
        let policy = AllOf {
            basePolicy(audiences: trustedAudiences)
            if let nonce { NoncePolicy(nonce) }
            if let maxAge { AuthTimePolicy(maximumAge: maxAge, leeway: leeway) }
            if let acrValues { AuthenticationContextPolicy(acrValues) }
        }
        return try verify(idToken, policy: policy, accessToken: accessToken, authorizationCode: authorizationCode)
    }

    /// Validates an ID token that a **refresh** returned (OpenID Connect Core §12.2) against `original`, the claims
    /// of the session's validated ID token: every check of ``validate(_:nonce:accessToken:authorizationCode:maxAge:acrValues:)``
    /// (its `aud` may name exactly the original's audiences), plus `sub` equal to the original's, the same `aud`
    /// set and the same `azp` (absent if it was), `auth_time` never earlier than the original's, and a `nonce`,
    /// when present, equal to the original's.
    public func validateRefreshed(_ idToken: String, original: JWTClaims, accessToken: String? = nil)
        throws(JOSEError) -> JWTClaims
    {
        let originalAudiences = try original.audience
        let policy = AllOf {
            basePolicy(audiences: Set(originalAudiences))
            RefreshContinuityPolicy(original: original)
        }
        return try verify(idToken, policy: policy, accessToken: accessToken, authorizationCode: nil)
    }

    private func basePolicy(audiences trusted: Set<String>) -> AllOf {
        let clientID = self.clientID
        return AllOf {
            if let issuerTemplate { TenantIssuerPolicy(issuerTemplate) } else { IssuerPolicy(issuer) }
            SubjectPolicy()
            AuthorizedPartyPolicy(clientID: clientID)
            ClientAudiencePolicy(clientID: clientID, trusted: trusted)
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

/// `azp` (OIDC Core §2): required to equal the client when there are several audiences; when present it must
/// equal the client in any case.
public struct AuthorizedPartyPolicy: ClaimPolicy {
    public let clientID: String

    public init(clientID: String) { self.clientID = clientID }

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
            let azp = try context.claims.string("azp")
            if try context.claims.audience.count > 1, azp == nil {
                throw JOSEError(.azpMismatch, "several audiences and no azp")
            }
            if let azp, !CodePoints.equal(azp, clientID) { throw JOSEError(.azpMismatch, "azp is not this client") }
        }
    }
}

/// `sub` (OIDC Core §2): REQUIRED, a non-empty string of at most 255 ASCII characters.
public struct SubjectPolicy: ClaimPolicy {
    public init() {}

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
            guard let sub = try context.claims.subject else { throw JOSEError(.missingClaim, "the token has no sub") }
            guard !sub.isEmpty, sub.utf8.count <= 255, sub.utf8.allSatisfy({ $0 < 0x80 }) else {
                throw JOSEError(.invalidClaim, "sub must be 1 to 255 ASCII characters")
            }
        }
    }
}

/// An ID token's `aud` (OIDC Core §3.1.3.7 step 3): it must contain the client ID, and a token that also names an
/// audience the client does not trust is refused — `azp` does not make it acceptable.
public struct ClientAudiencePolicy: ClaimPolicy {
    public let clientID: String
    public let trusted: Set<String>

    public init(clientID: String, trusted: Set<String> = []) {
        self.clientID = clientID
        self.trusted = trusted
    }

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
            let audiences = try context.claims.audience
            guard !audiences.isEmpty else { throw JOSEError(.missingClaim, "the token has no aud") }
            guard CodePoints.contains(audiences, clientID) else {
                throw JOSEError(.audienceMismatch, "aud does not contain this client")
            }
            let untrusted = audiences.filter { !CodePoints.equal($0, clientID) && !CodePoints.contains(trusted, $0) }
            guard untrusted.isEmpty else {
                throw JOSEError(
                    .audienceMismatch,
                    "aud also names \(untrusted.count) audience(s) this client does not trust (configure trusted audiences)"
                )
            }
        }
    }
}

/// `acr` against the requested `acr_values` (OIDC Core §3.1.2.1, §2): a returned `acr` must be one of them.
public struct AuthenticationContextPolicy: ClaimPolicy {
    public let requested: [String]

    public init(_ requested: [String]) { self.requested = requested }

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
            guard let acr = try context.claims.string("acr") else { return }
            guard requested.contains(acr) else {
                throw JOSEError(.acrMismatch, "acr is not one of the requested acr_values")
            }
        }
    }
}

/// OIDC Core §12.2: a refreshed ID token continues the original — same `iss` (besides equal to the configured
/// issuer), same `sub`, same `aud` set, same `azp` (absent if it was absent), `auth_time` never earlier, a `nonce`
/// (when present) equal to the original's.
public struct RefreshContinuityPolicy: ClaimPolicy {
    public let original: JWTClaims

    public init(original: JWTClaims) { self.original = original }

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
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
}

/// `auth_time` with a requested `max_age` (OIDC Core §3.1.2.1): required, and not older than `max_age`.
public struct AuthTimePolicy: ClaimPolicy {
    public let maximumAge: TimeInterval
    public let leeway: Leeway

    public init(maximumAge: TimeInterval, leeway: Leeway = .standard) {
        self.maximumAge = maximumAge
        self.leeway = leeway
    }

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
            guard let authTime = try context.claims.date("auth_time") else {
                throw JOSEError(.missingClaim, "max_age was requested but the token has no auth_time")
            }
            if context.now.timeIntervalSince(authTime) > maximumAge + leeway.seconds {
                throw JOSEError(.authTimeTooOld, "the user authenticated longer ago than max_age")
            }
        }
    }
}
