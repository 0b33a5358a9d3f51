import Foundation
import WardenCore
import WardenJOSE

/// The ID-token check every sign-in path runs after the code exchange (OpenID Connect Core §3.1.3.7): signature
/// with the provider's JWKS (the key decides the algorithm), `iss`, `aud`/`azp`, `exp`/`iat`, the request's
/// `nonce`, and `at_hash` against the access token that came with it. `AuthClient` and ``LoopbackSignIn`` use it.
///
/// ```swift
/// let claims = try await IDTokenVerification.verify(tokens, metadata: metadata, clientID: "app",
///                                                   nonce: code.pending.nonce?.unredacted(), transport: transport, now: systemNow)
/// ```
public enum IDTokenVerification {
    public static func verify(
        _ tokens: TokenResponse, metadata: ProviderMetadata, clientID: String, nonce: String?,
        transport: any HTTPTransport, now: @escaping NowProvider
    ) async throws(OAuthError) -> JWTClaims {
        guard let idToken = tokens.idToken else {
            throw OAuthError(.invalidTokenResponse, "openid was requested but no id_token came back")
        }
        guard let jwksURI = metadata.jwksURI else { throw OAuthError(.invalidMetadata, "the provider has no jwks_uri") }
        let cache = JWKSCache(url: jwksURI, transport: transport, now: now)
        let access = tokens.accessToken.unredacted()
        let issuer = metadata.issuer
        do {
            return try await cache.verify(idToken.unredacted()) { keys throws(JOSEError) in
                try IDTokenValidator(issuer: issuer, clientID: clientID, keys: keys, now: now)
                    .validate(idToken.unredacted(), nonce: nonce, accessToken: access)
            }
        } catch {
            throw OAuthError(.invalidIDToken, "the ID token was rejected: \(error.codeName): \(error.reason)")
        }
    }
}
