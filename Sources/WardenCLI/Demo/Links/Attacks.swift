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
    /// 8. The attack round: what the client refuses, and a replayed authorization code the provider refuses.
    enum Attacks: DemoLink {
        static let step: String? = "attack round"
        static func links(in world: DemoWorld) async -> [Link] {
            [
                await attacks(
                    provider: world.provider, metadata: world.metadata, transport: world.transport, ledger: world.ledger
                )
            ]
        }
    }

    /// The attack round that needs no provider cooperation.
    static func attacks(metadata: ProviderMetadata, clientID: String, transport: any HTTPTransport) async -> Link {
        var results: [String] = []
        var ok = true
        // Only a pending state is needed (nothing is sent): a plain request, also where the provider requires PAR.
        let plain =
            metadata.pushedAuthorizationRequestEndpoint.flatMap {
                try? metadata.withPushedAuthorizationRequestEndpoint($0, required: false)
            } ?? metadata
        guard let redirect = try? RedirectURI("http://127.0.0.1/callback"),
            let request = try? AuthorizationRequest(metadata: plain, clientID: clientID, redirectURI: redirect),
            let (_, pending) = try? request.make(redirectOverride: "http://127.0.0.1:1/callback")
        else { return Link(name: "attack round", ok: false, evidence: "setup failed") }
        func record(_ name: String, _ expected: String, _ body: () async throws -> Void) async {
            do {
                try await body()
                ok = false
                results.append("\(name): ACCEPTED")
            } catch {
                let code = (error as? any WardenError)?.codeName ?? "error"
                if code != expected { ok = false }
                results.append("\(name) → \(code)")
            }
        }
        await record("forged state", "state_mismatch") {
            _ = try pending.validate("http://127.0.0.1:1/callback?code=x&state=forged")
        }
        await record("wrong redirect", "redirect_mismatch") {
            _ = try pending.validate("http://127.0.0.1:1/evil?code=x&state=\(pending.state.unredacted())")
        }
        await record("alg none token", "alg_none") {
            let keys = try JWKSet(json: Array(try await transport.send(HTTPRequest(url: metadata.jwksURI!)).body))
            let token =
                Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array(#"{"iss":"x"}"#.utf8))
                + "."
            _ = try IDTokenVerifier(issuer: metadata.issuer, clientID: clientID, keys: keys).verify(
                token, nonce: nil)
        }
        return Link(name: "attack round", ok: ok, evidence: results.joined(separator: "; "))
    }

    /// The shared attack round plus a replayed authorization code (the local provider can issue a fresh code).
    static func attacks(
        provider: LocalProvider, metadata: ProviderMetadata, transport: any HTTPTransport, ledger: SecretLedger
    ) async -> Link {
        let shared = await attacks(metadata: metadata, clientID: provider.clientID, transport: transport)
        let replay = await { () -> String in
            do {
                let request = try AuthorizationRequest(
                    metadata: metadata, clientID: provider.clientID,
                    redirectURI: try RedirectURI("http://127.0.0.1/callback"))
                let listener = try LoopbackRedirectListener()
                let (url, fresh) = try request.make(redirectOverride: listener.redirectURI)
                try ScriptedUserAgent().open(url)
                let code = try fresh.validate(try await listener.waitForCallback(timeout: .seconds(10)))
                listener.respond(.signedIn)
                ledger.add(code.code.unredacted())
                let client = TokenClient(metadata: metadata, clientID: provider.clientID, transport: transport)
                let first = try await client.exchange(code)
                ledger.add(
                    first.accessToken.unredacted(), first.refreshToken?.unredacted(), first.idToken?.unredacted())
                _ = try await client.exchange(code)
                return "ACCEPTED"
            } catch { return (error as? any WardenError)?.codeName ?? "error" }
        }()
        return Link(
            name: shared.name, ok: shared.ok && replay == "invalid_grant",
            evidence: shared.evidence + "; replayed code → \(replay)")
    }
}
