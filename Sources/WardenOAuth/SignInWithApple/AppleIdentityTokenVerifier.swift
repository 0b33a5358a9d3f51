import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE

/// Verifies a Sign in with Apple identity token on your server.
///
/// The app generates a random raw nonce, keeps it, and sends `SHA-256(raw nonce)` as lowercase hex in the
/// `ASAuthorizationAppleIDRequest.nonce`; Apple puts that hash in the token's `nonce` claim. The server receives
/// the raw nonce from the app, hashes it and compares in constant time. Checks: signature with Apple's JWKS
/// (`https://appleid.apple.com/auth/keys`, RS256), `iss` = `https://appleid.apple.com`, `aud` in the configured
/// client IDs (bundle ID or Services ID), `exp`/`iat`, and the nonce.
///
/// ```swift
/// let verifier = AppleIdentityTokenVerifier(clientIDs: ["com.example.app"], keys: appleJWKS)
/// let identity = try verifier.verify(identityToken, rawNonce: nonceFromApp)
/// identity.subject, identity.email, identity.emailVerified
/// ```
public struct AppleIdentityTokenVerifier: Sendable {
    /// Apple's issuer.
    public static let issuer = "https://appleid.apple.com"

    /// The client IDs (bundle IDs or Services IDs) the token's `aud` may name.
    public let clientIDs: Set<String>
    /// Apple's signing keys (from `https://appleid.apple.com/auth/keys`).
    public let keys: JWKSet
    /// The clock leeway on `exp` and `iat` (default 60 seconds).
    public let leeway: Leeway
    /// The expected `iss` (Apple's, unless a test emulates Apple on another origin).
    public let expectedIssuer: String
    let now: NowProvider

    /// A verifier accepting tokens for `clientIDs` signed by `keys`, with `leeway` on the time claims (default 60
    /// seconds) and `issuer` as the expected `iss` (default Apple's).
    public init(
        clientIDs: Set<String>, keys: JWKSet, leeway: Leeway = .standard, issuer: String = Self.issuer,
        now: @escaping NowProvider = systemNow
    ) {
        self.expectedIssuer = issuer
        self.clientIDs = clientIDs
        self.keys = keys
        self.leeway = leeway
        self.now = now
    }

    /// What the token says about the user.
    public struct Identity: Sendable {
        /// The stable user identifier (`sub`).
        public let subject: String
        /// The client ID the token was issued to.
        public let audience: String
        /// `email`: the user's address or a private relay address; nil when the token carries none.
        public let email: String?
        /// `email_verified`, given by Apple as a string or a boolean.
        public let emailVerified: Bool?
        /// `is_private_email` (a relay address), string or boolean.
        public let isPrivateEmail: Bool?
        /// `real_user_status`: 0 unsupported, 1 unknown, 2 likely real.
        public let realUserStatus: Int?
        /// All the token's claims, verified.
        public let claims: JWTClaims
    }

    /// The lowercase hex SHA-256 of a raw nonce: what the app puts in the request.
    public static func hashedNonce(_ rawNonce: String) -> String {
        HashFunction.sha256.hash(Array(rawNonce.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Verifies `identityToken`; `rawNonce` is the nonce before hashing, as kept by the app.
    ///
    /// The nonce is what makes a stolen identity token useless for another sign-in: without `rawNonce` every token is
    /// refused (``JOSEErrorDomain/Code/invalidConfiguration``) unless `withoutNonce: true` says the flow sends none (a web
    /// flow configured without one). A token naming several audiences must say which one it was issued to (`azp`,
    /// one of ``clientIDs``).
    public func verify(_ identityToken: String, rawNonce: String?, withoutNonce: Bool = false) throws(JOSEError)
        -> Identity
    {
        guard rawNonce != nil || withoutNonce else {
            throw JOSEError(
                .invalidConfiguration,
                "no raw nonce given: pass the nonce the app kept, or withoutNonce: true for a flow without one")
        }
        let clientIDs = self.clientIDs
        let policy = AllOf {
            IssuerPolicy(expectedIssuer)
            AudienceSetPolicy(allowed: clientIDs)
            AuthorizedPartyAmongPolicy(allowed: clientIDs)
            ExpirationPolicy(leeway: leeway)
            IssuedAtPolicy(required: true)
            if let rawNonce { NoncePolicy(Self.hashedNonce(rawNonce)) }
        }
        let verified = try JWTVerifier(keys: keys, allowedAlgorithms: [.rs256, .es256], policy: policy, now: now)
            .verify(identityToken)
        let claims = verified.claims
        guard let subject = try claims.subject, !subject.isEmpty else { throw JOSEError(.missingClaim, "no sub") }
        return Identity(
            subject: subject, audience: try claims.audience.first { clientIDs.contains($0) } ?? "",
            email: try claims.string("email"),
            emailVerified: try Self.flexibleBool(claims, "email_verified"),
            isPrivateEmail: try Self.flexibleBool(claims, "is_private_email"),
            realUserStatus: try Self.integer(claims, "real_user_status"), claims: claims)
    }

    /// Apple sends some booleans as `"true"`/`"false"` strings.
    static func flexibleBool(_ claims: JWTClaims, _ name: String) throws(JOSEError) -> Bool? {
        guard let value = claims[name] else { return nil }
        if let bool = value.boolValue { return bool }
        switch value.stringValue {
        case "true": return true
        case "false": return false
        default: throw JOSEError(.invalidClaim, "'\(name)' must be a boolean or \"true\"/\"false\"")
        }
    }

    static func integer(_ claims: JWTClaims, _ name: String) throws(JOSEError) -> Int? {
        guard let value = claims[name] else { return nil }
        guard let number = value.numberValue, number.isInteger, let int = number.int64 else {
            throw JOSEError(.invalidClaim, "'\(name)' must be an integer")
        }
        return Int(int)
    }
}
