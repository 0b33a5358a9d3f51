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
    /// The links that need no provider switches, against any provider that allows a loopback redirect.
    static func realProviderTour(
        issuer: String, clientID: String, arguments: ParsedArguments, io: CommandIO, ledger: SecretLedger,
        progress: Bool
    )
        async throws -> [Link]
    {
        var links: [Link] = []
        func step(_ text: String) { if progress { io.err("… \(text)") } }
        let transport = URLSessionTransport()
        let revocation = arguments.value("revocation-endpoint").flatMap(URL.init(string:))
        let store = InMemoryStore()
        let authClient = AuthClient(
            .init(
                issuer: issuer, clientID: clientID, redirectURI: try RedirectURI("http://127.0.0.1/callback"),
                scopes: ["openid"], store: store, service: "dev.warden.demo", account: "real", transport: transport,
                revocationEndpoint: revocation))
        let metadata: ProviderMetadata
        do { metadata = try await authClient.metadata() } catch {
            throw CLIError.usage("discovery failed: \(error.reason)", code: error.codeName)
        }
        step("OpenID provider \(metadata.issuer) (no provider switches: sign-in, refresh, attacks, sign-out)")
        let launcher: any BrowserLauncher =
            arguments.value("browser").map { CommandBrowser(command: $0) } ?? SystemBrowser()
        let signIn: AuthClient.SignIn
        do {
            signIn = try await authClient.signIn(with: LoopbackBrowser(launcher: launcher, timeout: .seconds(120)))
        } catch {
            return [Link(name: "sign-in (loopback, PKCE S256, state, nonce)", ok: false, evidence: "\(error)")]
        }
        let session = signIn.session
        guard let tokens = await session.currentTokens else { return links }
        ledger.add(tokens.accessToken.unredacted(), tokens.refreshToken?.unredacted(), tokens.idToken?.unredacted())
        links.append(
            Link(
                name: "sign-in (loopback, PKCE S256, state, nonce)", ok: true,
                evidence:
                    "AuthClient.signIn(with: LoopbackBrowser) — issuer \(metadata.issuer); authorization at \(metadata.authorizationEndpoint.absoluteString); redirect \(signIn.redirectURI); code exchanged at \(metadata.tokenEndpoint.absoluteString) with the PKCE verifier"
            ))
        links.append(
            Link(
                name: "ID token verified", ok: signIn.claims != nil,
                evidence:
                    "signature via \(metadata.jwksURI?.absoluteString ?? "?"); iss/aud/exp/iat/nonce/at_hash checked; sub=\((try? signIn.claims?.subject) ?? nil ?? "?")"
            ))
        let oldRefresh = tokens.refreshToken?.unredacted()
        let results = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<50 { group.addTask { try? await session.validAccessToken(minTTL: 1e9) } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        let fresh = await session.currentTokens
        ledger.add(fresh?.accessToken.unredacted(), fresh?.refreshToken?.unredacted())
        let stored = try? await store.load(service: "dev.warden.demo", account: "real").map {
            data throws(StorageError) in try TokenSet(encoded: data)
        }
        let refreshes = await session.refreshCount
        links.append(
            Link(
                name: "single-flight refresh, rotation persisted",
                ok: refreshes == 1 && Set(results.compactMap { $0 }).count == 1 && results.allSatisfy { $0 != nil }
                    && stored?.refreshToken == fresh?.refreshToken,
                evidence:
                    "50 concurrent callers forced a refresh → \(refreshes) refresh request(s) to \(metadata.tokenEndpoint.absoluteString); refresh token \(fresh?.refreshToken?.unredacted() == oldRefresh ? "kept (not rotated by this provider)" : "rotated") and stored"
            ))
        links.append(await attacks(metadata: metadata, clientID: clientID, transport: transport))
        await session.signOut()
        let purged = (try? await store.load(service: "dev.warden.demo", account: "real")) == .some(nil)
        links.append(
            Link(
                name: "sign-out revokes and deletes", ok: purged,
                evidence: metadata.revocationEndpoint == nil
                    ? "no revocation endpoint known; stored tokens deleted"
                    : "RFC 7009 revocation sent to \(metadata.revocationEndpoint!.absoluteString); stored tokens deleted"
            ))
        return links
    }
}
