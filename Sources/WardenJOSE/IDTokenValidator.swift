import Foundation
import WardenCore
import WardenCrypto

/// Validates an OpenID Connect ID token as a client must (OpenID Connect Core 1.0 §3.1.3.7).
///
/// Checks, in order: the signature with the provider's JWKS and an allowed algorithm; `iss` exactly equal to the
/// issuer; `aud` containing the client ID, and when there are several audiences an `azp` equal to the client ID
/// (an `azp` that is present must always equal it); `exp` with leeway; `iat` not in the future; `nonce` equal
/// (constant time) to the one sent; `at_hash` and `c_hash` when present (or required); `auth_time` within
/// `max_age` when one was requested.
///
/// ```swift
/// let validator = IDTokenValidator(issuer: "https://id.example.com", clientID: "app", keys: jwks)
/// let claims = try validator.validate(idToken, nonce: pending.nonce, accessToken: tokens.accessToken)
/// ```
public struct IDTokenValidator: Sendable {
    public let issuer: String
    public let clientID: String
    public let keys: JWKSet
    public let allowedAlgorithms: Set<JWSAlgorithm>
    public let leeway: Leeway
    let now: NowProvider

    /// A validator; `allowedAlgorithms` defaults to every asymmetric algorithm (OIDC providers sign ID tokens
    /// with their private key; HS256 ID tokens signed with the client secret are not accepted by default).
    public init(
        issuer: String, clientID: String, keys: JWKSet, allowedAlgorithms: Set<JWSAlgorithm> = JWSAlgorithm.asymmetric,
        leeway: Leeway = .standard, now: @escaping NowProvider = systemNow
    ) {
        self.issuer = issuer
        self.clientID = clientID
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
    public func validate(
        _ idToken: String, nonce: String?, accessToken: String? = nil, authorizationCode: String? = nil,
        maxAge: TimeInterval? = nil
    ) throws(JOSEError) -> JWTClaims {
        let clientID = self.clientID
        let policy = AllOf {
            IssuerPolicy(issuer)
            AudiencePolicy(clientID)
            AuthorizedPartyPolicy(clientID: clientID)
            ExpirationPolicy(leeway: leeway)
            IssuedAtPolicy(required: true)
            NotBeforePolicy(leeway: leeway)
            if let nonce { NoncePolicy(nonce) }
            if let maxAge { AuthTimePolicy(maximumAge: maxAge, leeway: leeway) }
        }
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
            if let azp, azp != clientID { throw JOSEError(.azpMismatch, "azp is not this client") }
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
