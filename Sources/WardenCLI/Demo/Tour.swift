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
    /// The links after the sign-in, in order; each is one file in `Links/`.
    static let links: [any DemoLink.Type] = [
        StoredTokens.self, SingleFlightRefresh.self, Offline.self, RateLimit.self, RateLimitBeyondBudget.self,
        RevokedGrant.self, Logout.self, SessionLife.self, Attacks.self, PARAndDPoP.self, SignInWithApple.self,
        Passkeys.self,
    ]

    static func tour(io: CommandIO, ledger: SecretLedger, progress: Bool) async throws -> [Link] {
        var links: [Link] = []
        func step(_ text: String) { if progress { io.err("… \(text)") } }
        let provider = try LocalProvider(clientID: "warden-demo")
        defer { provider.stop() }
        let transport = URLSessionTransport()
        step("local OpenID provider on \(provider.issuer)")

        // Storage first: the Secret Service when reachable, otherwise memory (the sign-in stores into it).
        let service = "dev.warden.demo.\(UUID().uuidString.prefix(8))"
        let account = "demo-user"
        let (store, storeName) = await demoStore(io: io, service: service)

        // 1–2. Sign-in through AuthClient and the loopback browser, ID token verified, session stored.
        // The session reads time through an injected clock, so the demo can step past a backoff without waiting.
        let demoClock = DemoClock()
        var authConfiguration = AuthClient.Configuration(
            issuer: provider.issuer, clientID: provider.clientID,
            redirectURI: try RedirectURI("http://127.0.0.1/callback"), scopes: ["openid", "profile"],
            store: store, service: service, account: account, transport: transport, now: demoClock.now)
        authConfiguration.postLogoutRedirectURI = try RedirectURI("http://127.0.0.1/logged-out")
        let authClient = AuthClient(authConfiguration)
        step("signing in through the system-browser loopback flow")
        let signIn: AuthClient.SignIn
        do {
            signIn = try await authClient.signIn(
                with: LoopbackBrowser(launcher: ScriptedUserAgent(), timeout: .seconds(20)))
        } catch {
            links.append(
                Link(name: "sign-in (loopback, PKCE S256, state, nonce, iss)", ok: false, evidence: "\(error)"))
            return links
        }
        let metadata = try await authClient.metadata()
        let session = signIn.session
        guard let tokens = await session.currentTokens else { return links }
        ledger.add(tokens.accessToken.unredacted(), tokens.refreshToken?.unredacted(), tokens.idToken?.unredacted())
        // What the provider itself observed, not what the client claims to have sent.
        let seen = provider.observations
        links.append(
            Link(
                name: "sign-in (loopback, PKCE S256, state, nonce, iss)",
                // (iss is printed, not judged: the provider always sends its own, so that comparison could not fail.)
                ok: seen.codeChallengeMethod == "S256" && seen.verifierMatched == true && (seen.stateBytes ?? 0) >= 16
                    && seen.nonceEmbedded,
                evidence:
                    "AuthClient.signIn(with: LoopbackBrowser) — redirect \(signIn.redirectURI); the provider observed: code_challenge_method=\(seen.codeChallengeMethod ?? "none"), code_verifier matched: \(seen.verifierMatched.map(String.init) ?? "not sent"), state of \((seen.stateBytes ?? 0) * 8) bits, iss sent: \(seen.issuerSent ?? "none"), nonce embedded in the ID token: \(seen.nonceEmbedded), request pushed (PAR): \(seen.pushed); the client matched state in constant time and required iss"
            ))
        let claims = signIn.claims
        links.append(
            Link(
                name: "ID token verified", ok: claims != nil,
                evidence:
                    "ES256 signature via \(metadata.jwksURI?.absoluteString ?? "?"); iss=\((try? claims?.issuer) ?? nil ?? "?"), aud=\(provider.clientID), exp/iat checked, nonce and at_hash matched, sub=\((try? claims?.subject) ?? nil ?? "?")"
            ))

        let world = DemoWorld(
            provider: provider, transport: transport, store: store, storeName: storeName, service: service,
            account: account, authClient: authClient, session: session, metadata: metadata, tokens: tokens,
            demoClock: demoClock, api: URL(string: provider.issuer + "/api/resource")!, ledger: ledger)
        for link in Self.links {
            if let text = link.step { step(text) }
            links += await link.links(in: world)
        }
        try? await store.deleteAll(service: service)
        return links
    }
}
