import Foundation
import WardenCore
import WardenJOSE

/// The server side of Sign in with Apple: exchanges the authorization code the app sends (`/auth/token`),
/// validates the identity token that comes back (Apple's JWKS, `iss`, `aud`, `exp`/`iat`, and the nonce — required
/// here), refreshes, and revokes (`/auth/revoke`, which App Review requires for account deletion). Every call
/// authenticates with a fresh ``AppleClientSecret``.
///
/// ```swift
/// let apple = SignInWithAppleServer(secret: try AppleClientSecret(teamID: team, clientID: "com.example.app",
///                                                                keyID: keyID, privateKey: ECPrivateKey(pem: p8)),
///                                   transport: URLSessionTransport())
/// let result = try await apple.exchange(code: codeFromApp, rawNonce: rawNonceFromApp)
/// result.identity.subject; result.identity.isPrivateEmail; result.identity.realUserStatus
/// try await apple.revoke(refreshToken: result.tokens.refreshToken!.unredacted())   // on account deletion
/// ```
public struct SignInWithAppleServer: Sendable {
    /// What makes the client secret: each call signs a fresh one, valid for 300 seconds.
    public let secret: AppleClientSecret
    /// `https://appleid.apple.com` (a test can point at an emulation on loopback).
    public let base: URL
    /// The identity token issuer to expect (Apple's unless emulated).
    public let issuer: String
    let transport: any HTTPTransport
    let now: NowProvider
    let keys: JWKSCache

    /// The result of ``exchange(code:rawNonce:redirectURI:)``: Apple's tokens and the verified identity.
    public struct Exchange: Sendable {
        /// Apple's token response: access, refresh and identity tokens.
        public let tokens: TokenResponse
        /// The verified identity token's user.
        public let identity: AppleIdentityTokenVerifier.Identity
    }

    /// A server client authenticating with `secret`, calling Apple at `base` through `transport`, and expecting
    /// `issuer` in identity tokens; Apple's keys are fetched from `base`'s `auth/keys`.
    public init(
        secret: AppleClientSecret, transport: any HTTPTransport, base: URL = URL(string: "https://appleid.apple.com")!,
        issuer: String = AppleIdentityTokenVerifier.issuer, now: @escaping NowProvider = systemNow
    ) {
        self.secret = secret
        self.transport = transport
        self.base = base
        self.issuer = issuer
        self.now = now
        keys = JWKSCache(url: base.appendingPathComponent("auth/keys"), transport: transport, now: now)
    }

    private var metadata: ProviderMetadata {
        get throws(OAuthError) {
            try ProviderMetadata(
                issuer: issuer, authorizationEndpoint: base.appendingPathComponent("auth/authorize"),
                tokenEndpoint: base.appendingPathComponent("auth/token"),
                revocationEndpoint: base.appendingPathComponent("auth/revoke"))
        }
    }

    private func client() throws -> TokenClient {
        TokenClient(
            metadata: try metadata, clientID: secret.clientID,
            authentication: .clientSecretPost(try secret.make(ttl: 300)), transport: transport, now: now)
    }

    /// `grant_type=authorization_code`; the identity token must carry `SHA-256(rawNonce)`.
    public func exchange(code: String, rawNonce: String, redirectURI: String? = nil) async throws -> Exchange {
        let tokens = try await client().authorizationCode(code, redirectURI: redirectURI)
        guard let idToken = tokens.idToken?.unredacted() else {
            throw OAuthError(.invalidTokenResponse, "Apple's answer has no id_token")
        }
        let clientID = secret.clientID
        let issuer = issuer
        let now = now
        let identity = try await keys.verify(idToken) { keys throws(JOSEError) in
            try AppleIdentityTokenVerifier(clientIDs: [clientID], keys: keys, issuer: issuer, now: now)
                .verify(idToken, rawNonce: rawNonce)
        }
        return Exchange(tokens: tokens, identity: identity)
    }

    /// `grant_type=refresh_token` (Apple returns a new access and identity token, never a new refresh token).
    public func refresh(refreshToken: String) async throws -> TokenResponse {
        try await client().refresh(refreshToken: refreshToken)
    }

    /// Revokes a refresh or access token (`/auth/revoke`): the user's authorization for the app ends.
    public func revoke(refreshToken: String) async throws {
        try await client().revoke(token: refreshToken, hint: "refresh_token")
    }
}
