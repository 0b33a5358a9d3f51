import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenLocalProvider

@_spi(Fuzzing) @testable import WardenOAuth

/// Sign in with Apple on the server: the client secret Apple's REST API takes, and the exchange / refresh /
/// revoke calls against the local provider's emulation of Apple's endpoints (which checks the secret as Apple does).
@Suite("Sign in with Apple, server side", .serialized)
struct SignInWithAppleServerTests {
    static let team = "TEAM123456"
    static let client = "com.example.app"
    static let keyID = "KEY1234567"

    @Test func theClientSecretHasAppleShape() throws {
        let key = try ECPrivateKey(curve: .p256)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let secret = try AppleClientSecret(
            teamID: Self.team, clientID: Self.client, keyID: Self.keyID, privateKey: key, now: { now }
        ).make(ttl: 86_400)
        let (header, payload) = try JWSCompact.decodeUnverified(secret.unredacted())
        #expect(header["alg"]?.stringValue == "ES256" && header["kid"]?.stringValue == Self.keyID)
        let claims = try #require(payload?.objectValue)
        #expect(claims["iss"]?.stringValue == Self.team && claims["sub"]?.stringValue == Self.client)
        #expect(claims["aud"]?.stringValue == "https://appleid.apple.com")
        #expect(claims["iat"]?.numberValue?.int64 == 1_800_000_000)
        #expect(claims["exp"]?.numberValue?.int64 == 1_800_086_400)
        let verifier = AppleClientSecretVerifier(
            teamID: Self.team, clientID: Self.client, keyID: Self.keyID, publicKey: key.publicKey, now: { now })
        try verifier.verify(secret.unredacted())
        // Apple's limits.
        let maker = try AppleClientSecret(teamID: Self.team, clientID: Self.client, keyID: Self.keyID, privateKey: key)
        #expect(throws: JOSEError.self) { try maker.make(ttl: 180 * 86_400 + 1) }
        #expect(throws: JOSEError.self) { try maker.make(ttl: 0) }
        #expect(throws: JOSEError.self) {
            try AppleClientSecret(
                teamID: Self.team, clientID: Self.client, keyID: Self.keyID, privateKey: ECPrivateKey(curve: .p384))
        }
        #expect(throws: JOSEError.self) {
            try AppleClientSecret(teamID: "TEAM\"1", clientID: Self.client, keyID: Self.keyID, privateKey: key)
        }
    }

    @Test func theVerifierRefusesWhatAppleRefuses() throws {
        let key = try ECPrivateKey(curve: .p256)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let verifier = AppleClientSecretVerifier(
            teamID: Self.team, clientID: Self.client, keyID: Self.keyID, publicKey: key.publicKey, now: { now })
        func secret(
            key: ECPrivateKey = key, keyID: String = Self.keyID, client: String = Self.client, at: Date = now,
            ttl: TimeInterval = 600
        )
            throws -> String
        {
            try AppleClientSecret(teamID: Self.team, clientID: client, keyID: keyID, privateKey: key, now: { at })
                .make(ttl: ttl).unredacted()
        }
        #expect(throws: JOSEError.self) { try verifier.verify(try secret(key: ECPrivateKey(curve: .p256))) }
        #expect(throws: JOSEError.self) { try verifier.verify(try secret(keyID: "OTHER")) }
        #expect(throws: JOSEError.self) { try verifier.verify(try secret(client: "com.attacker.app")) }
        #expect(throws: JOSEError.self) { try verifier.verify(try secret(at: now - 3600, ttl: 600)) }  // expired
        // A lifetime over 180 days, forged (the maker refuses to make one).
        let claims =
            #"{"aud":"https://appleid.apple.com","exp":\#(1_800_000_000 + 200 * 86_400),"iat":1800000000,"iss":"\#(Self.team)","sub":"\#(Self.client)"}"#
        let input =
            Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(Self.keyID)"}"#.utf8)) + "."
            + Base64URL.encode(Array(claims.utf8))
        let long = input + "." + Base64URL.encode(try key.signature(for: Array(input.utf8)))
        #expect(throws: JOSEError(.invalidClaim)) { try verifier.verify(long) }
    }

    @Test func exchangeRefreshAndRevokeAgainstTheEmulation() async throws {
        let provider = try LocalProvider(clientID: "unused")
        defer { provider.stop() }
        let key = try ECPrivateKey(curve: .p256)
        provider.registerAppleClient(
            teamID: Self.team, clientID: Self.client, keyID: Self.keyID, publicKey: key.publicKey)
        let apple = SignInWithAppleServer(
            secret: try AppleClientSecret(teamID: Self.team, clientID: Self.client, keyID: Self.keyID, privateKey: key),
            transport: URLSessionTransport(), base: URL(string: provider.issuer)!, issuer: provider.issuer)
        let rawNonce = "raw-nonce-from-the-app"
        let code = provider.appleAuthorizationCode(rawNonce: rawNonce)
        let result = try await apple.exchange(code: code, rawNonce: rawNonce)
        #expect(result.identity.subject == "001234.apple-user")
        #expect(result.identity.isPrivateEmail == true && result.identity.realUserStatus == 2)
        #expect(result.identity.emailVerified == true)
        // The code is one-time; a wrong nonce is refused.
        await #expect(throws: OAuthError(.invalidGrant)) { try await apple.exchange(code: code, rawNonce: rawNonce) }
        let other = provider.appleAuthorizationCode(rawNonce: rawNonce)
        await #expect(throws: JOSEError(.nonceMismatch)) { try await apple.exchange(code: other, rawNonce: "forged") }
        // Refresh, revoke (account deletion), and the revoked token is dead.
        let refresh = try #require(result.tokens.refreshToken?.unredacted())
        _ = try await apple.refresh(refreshToken: refresh)
        try await apple.revoke(refreshToken: refresh)
        #expect(provider.count("apple.revoke") == 1)
        await #expect(throws: OAuthError(.invalidGrant)) { try await apple.refresh(refreshToken: refresh) }
        // A secret signed by another key is invalid_client, as at Apple.
        let impostor = SignInWithAppleServer(
            secret: try AppleClientSecret(
                teamID: Self.team, clientID: Self.client, keyID: Self.keyID, privateKey: ECPrivateKey(curve: .p256)),
            transport: URLSessionTransport(), base: URL(string: provider.issuer)!, issuer: provider.issuer)
        await #expect(throws: OAuthError(.invalidClient)) {
            try await impostor.exchange(code: provider.appleAuthorizationCode(rawNonce: rawNonce), rawNonce: rawNonce)
        }
        #expect(provider.count("apple.client_secret_refused") == 1)
    }
}
