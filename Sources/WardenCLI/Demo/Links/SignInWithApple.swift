import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenLocalProvider
import WardenOAuth
import WardenPasskeys
import WardenSession
import WardenStorage
import WardenTestSupport

extension DemoCommand {
    /// 8c. Sign in with Apple, server side, against the provider's emulation of Apple's endpoints.
    enum SignInWithApple: DemoLink {
        static let step: String? = "Sign in with Apple server calls"
        static func links(in world: DemoWorld) async -> [Link] {
            [await signInWithApple(provider: world.provider, transport: world.transport, ledger: world.ledger)]
        }
    }

    /// The server half of Sign in with Apple on the emulated endpoints: client secret, code exchange with the nonce
    /// required, revoke; a wrong nonce and a secret signed by another key are refused.
    static func signInWithApple(provider: LocalProvider, transport: any HTTPTransport, ledger: SecretLedger) async
        -> Link
    {
        let name = "Sign in with Apple server calls (client secret, exchange, revoke)"
        do {
            let key = try ECPrivateKey(curve: .p256)
            provider.registerAppleClient(
                teamID: "TEAM123456", clientID: "com.example.app", keyID: "KEY1234567", publicKey: key.publicKey)
            func server(_ key: ECPrivateKey) throws -> SignInWithAppleServer {
                SignInWithAppleServer(
                    secret: try AppleClientSecret(
                        teamID: "TEAM123456", clientID: "com.example.app", keyID: "KEY1234567", privateKey: key),
                    transport: transport, base: URL(string: provider.issuer)!, issuer: provider.issuer)
            }
            let apple = try server(key)
            let rawNonce = Base64URL.encode(try SecureRandom().bytes(count: 32))
            let result = try await apple.exchange(
                code: provider.appleAuthorizationCode(rawNonce: rawNonce), rawNonce: rawNonce)
            ledger.add(result.tokens.accessToken.unredacted(), result.tokens.refreshToken?.unredacted())
            func verdict(_ body: () async throws -> Void) async -> String {
                do {
                    try await body()
                    return "accepted"
                } catch { return (error as? any WardenError)?.codeName ?? "error" }
            }
            let wrongNonce = await verdict {
                _ = try await apple.exchange(code: provider.appleAuthorizationCode(rawNonce: rawNonce), rawNonce: "x")
            }
            let impostor = await verdict {
                _ = try await server(try ECPrivateKey(curve: .p256)).exchange(
                    code: provider.appleAuthorizationCode(rawNonce: rawNonce), rawNonce: rawNonce)
            }
            let revokesBefore = provider.count("apple.revoke")
            if let refresh = result.tokens.refreshToken?.unredacted() { try await apple.revoke(refreshToken: refresh) }
            let revoked = provider.count("apple.revoke") - revokesBefore
            let identity = result.identity
            return Link(
                name: name,
                ok: identity.isPrivateEmail == true && identity.realUserStatus == 2 && wrongNonce == "nonce_mismatch"
                    && impostor == "invalid_client" && revoked == 1,
                evidence:
                    "ES256 client secret (kid, iss=team, sub=client, aud=appleid) checked by the emulation; code exchanged, identity token verified with the nonce: sub=\(identity.subject), is_private_email=\(identity.isPrivateEmail ?? false), real_user_status=\(identity.realUserStatus ?? -1); wrong nonce → \(wrongNonce); secret from another key → \(impostor); refresh token revoked (\(revoked) /auth/revoke)"
            )
        } catch {
            return Link(name: name, ok: false, evidence: "\(error)")
        }
    }
}
