import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE

/// The client secret Sign in with Apple's REST API takes (`/auth/token`, `/auth/revoke`): an ES256 JWT signed with
/// the `.p8` key from the developer account, header `kid` = key ID, claims `iss` = team ID, `sub` = client ID
/// (Services ID or bundle ID), `aud` = `https://appleid.apple.com`, `iat`, and `exp` at most 180 days later
/// (Apple's "Generate and validate tokens").
///
/// ```swift
/// let secret = try AppleClientSecret(teamID: "TEAM123456", clientID: "com.example.app", keyID: "KEY1234567",
///                                    privateKey: ECPrivateKey(pem: p8Text)).make(ttl: 3600)
/// ```
public struct AppleClientSecret: Sendable {
    /// Apple's limit on a client secret's lifetime.
    public static let maximumLifetime: TimeInterval = 180 * 86_400
    /// The `aud` of every client secret: `https://appleid.apple.com`.
    public static let audience = "https://appleid.apple.com"

    /// The developer team ID, sent as `iss`.
    public let teamID: String
    /// The client ID (Services ID or bundle ID), sent as `sub`.
    public let clientID: String
    /// The key ID of the `.p8` key, sent as the header's `kid`.
    public let keyID: String
    let privateKey: ECPrivateKey
    let now: NowProvider

    /// A secret maker for `teamID`, `clientID` and `keyID` signing with `privateKey`; throws `JOSEError` when the key
    /// is not P-256, or an identifier is empty, over 255 bytes, or not printable ASCII without spaces, quotes or
    /// backslashes.
    public init(
        teamID: String, clientID: String, keyID: String, privateKey: ECPrivateKey,
        now: @escaping NowProvider = systemNow
    ) throws(JOSEError) {
        guard privateKey.curve == .p256 else {
            throw JOSEError(.keyAlgorithmMismatch, "Sign in with Apple keys are P-256 (ES256)")
        }
        for (name, value) in [("team ID", teamID), ("client ID", clientID), ("key ID", keyID)] {
            guard !value.isEmpty, value.utf8.count <= 255,
                value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" })
            else { throw JOSEError(.invalidClaim, "the \(name) must be printable ASCII without quotes") }
        }
        self.teamID = teamID
        self.clientID = clientID
        self.keyID = keyID
        self.privateKey = privateKey
        self.now = now
    }

    /// A secret valid for `ttl` seconds (1 s ... 180 days).
    public func make(ttl: TimeInterval = 3600) throws -> Redacted<String> {
        guard ttl >= 1, ttl <= Self.maximumLifetime else {
            throw JOSEError(.invalidClaim, "a client secret lives 1 s to 180 days")
        }
        let iat = Int64(now().timeIntervalSince1970.rounded(.down))
        let header = #"{"alg":"ES256","kid":"\#(keyID)"}"#
        let claims =
            #"{"aud":"\#(Self.audience)","exp":\#(iat + Int64(ttl)),"iat":\#(iat),"iss":"\#(teamID)","sub":"\#(clientID)"}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        return Redacted(input + "." + Base64URL.encode(try privateKey.signature(for: Array(input.utf8))))
    }
}

/// Checks a client secret the way Apple's token endpoint does (used by WardenLocalProvider's emulation, and by
/// tests): ES256 signature with the registered key, `kid`, `iss` = team, `sub` = client, `aud`, `iat` not in the
/// future, `exp` not passed and at most 180 days after `iat`.
public struct AppleClientSecretVerifier: Sendable {
    /// The team ID, which the secret's `iss` must equal.
    public let teamID: String
    /// The client ID (Services ID or bundle ID), which the secret's `sub` must equal.
    public let clientID: String
    /// The registered key's ID, which the secret's `kid` must equal.
    public let keyID: String
    /// The public half of the registered key: the only key a secret's signature may verify with (ES256).
    public let publicKey: PublicKey
    let now: NowProvider

    /// A verifier for secrets signed with `publicKey` under `keyID` for `teamID` and `clientID`.
    public init(
        teamID: String, clientID: String, keyID: String, publicKey: PublicKey, now: @escaping NowProvider = systemNow
    ) {
        self.teamID = teamID
        self.clientID = clientID
        self.keyID = keyID
        self.publicKey = publicKey
        self.now = now
    }

    /// Verifies `secret` with the checks above, allowing no leeway on `exp`; throws a `JOSEError` for the first that
    /// fails.
    public func verify(_ secret: String) throws(JOSEError) {
        let jwk = try JWK(publicKey: publicKey, keyID: keyID, algorithm: .es256)
        let teamID = teamID
        let clientID = clientID
        let noLeeway = try Leeway(seconds: 0)
        let policy = AllOf {
            IssuerPolicy(teamID)
            RequiredClaimsPolicy(["sub"])
            AudiencePolicy(AppleClientSecret.audience)
            ExpirationPolicy(leeway: noLeeway)
            IssuedAtPolicy(required: true)
        }
        let verified = try JWTVerifier(
            keys: try JWKSet(keys: [jwk]), allowedAlgorithms: [.es256], policy: policy, now: now
        )
        .verify(secret)
        guard verified.header.keyID == keyID else { throw JOSEError(.unknownKid, "kid is not the registered key") }
        guard try verified.claims.subject == clientID else {
            throw JOSEError(.invalidClaim, "sub is not the registered client ID")
        }
        let iat = try verified.claims.issuedAt
        let exp = try verified.claims.expiration
        guard let iat, let exp, exp.timeIntervalSince(iat) <= AppleClientSecret.maximumLifetime else {
            throw JOSEError(.invalidClaim, "a client secret may live at most 180 days")
        }
    }
}
