import Foundation
import Testing
import WardenCore
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// The sign-in façade end to end on the in-process provider, through the same code the Apple agent and the
/// desktop loopback drive: only the browser differs.
@Suite("AuthClient", .serialized)
struct AuthClientTests {
    /// Rewrites the token endpoint's `id_token` (flips a signature character), as a tampering network would.
    struct TamperingTransport: HTTPTransport {
        let inner = URLSessionTransport()
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let response = try await inner.send(request)
            guard request.url.path.hasSuffix("/token"), var text = String(data: response.body, encoding: .utf8),
                let range = text.range(of: #""id_token":""#)
            else { return response }
            let end = text[range.upperBound...].firstIndex(of: "\"")!
            let last = text.index(before: end)
            text.replaceSubrange(last...last, with: text[last] == "A" ? "B" : "A")
            return HTTPResponse(status: response.status, headers: response.headers, body: Data(text.utf8))
        }
    }

    /// A browser whose callback carries a forged state.
    struct ForgingBrowser: AuthorizationBrowser {
        func authorize(_ request: AuthorizationRequest, requireIssuer: Bool) async throws -> AuthorizationCode {
            let (_, pending) = try request.make()
            return try pending.validate(pending.redirect + "?code=stolen&state=forged")
        }
    }

    func client(
        _ provider: LocalProvider, store: any CredentialStore, transport: any HTTPTransport = URLSessionTransport()
    )
        throws -> AuthClient
    {
        AuthClient(
            .init(
                issuer: provider.issuer, clientID: provider.clientID,
                redirectURI: try RedirectURI("com.example.app:/oauth/callback"), scopes: ["openid", "offline_access"],
                store: store, service: "svc", account: "alice", transport: transport))
    }

    @Test func signInRefreshAndSignOutWithTheScriptedBrowser() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: ["com.example.app:/oauth/callback"])
        defer { provider.stop() }
        let store = InMemoryStore()
        let client = try client(provider, store: store)
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(try signIn.claims?.subject == "demo-user-1")
        #expect(signIn.redirectURI == "com.example.app:/oauth/callback")
        let stored = try TokenSet(encoded: try #require(await store.load(service: "svc", account: "alice")))
        #expect(stored.refreshToken != nil && stored.idToken != nil)
        // A later launch restores it, refreshes once, and signs out with revocation and purge.
        let restored = try #require(await client.restoreSession())
        provider.expireAccessTokens()
        let before = provider.count("token.refresh_token")
        _ = try await restored.validAccessToken(minTTL: 1e9)
        #expect(provider.count("token.refresh_token") == before + 1)
        let api = client.authorizedClient(for: restored)
        #expect(try await api.send(HTTPRequest(url: URL(string: provider.issuer + "/api/resource")!)).status == 200)
        let revocations = provider.count("revoke")
        await restored.signOut()
        #expect(provider.count("revoke") > revocations)
        #expect(try await store.load(service: "svc", account: "alice") == nil)
        #expect(try await client.restoreSession() == nil)
    }

    @Test func theLoopbackBrowserRunsTheSameChain() async throws {
        let provider = try LocalProvider(clientID: "desktop")
        defer { provider.stop() }
        let client = AuthClient(
            .init(
                issuer: provider.issuer, clientID: provider.clientID,
                redirectURI: try RedirectURI("http://127.0.0.1/callback"), store: InMemoryStore(), service: "svc"))
        let signIn = try await client.signIn(
            with: LoopbackBrowser(launcher: CommandBrowser(command: "curl -s -L -o /dev/null"), timeout: .seconds(20)))
        #expect(signIn.redirectURI.hasPrefix("http://127.0.0.1:"))
        #expect(try signIn.claims?.subject == "demo-user-1")
    }

    @Test func aTamperedIDTokenIsRefusedAndNothingIsStored() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: ["com.example.app:/oauth/callback"])
        defer { provider.stop() }
        let store = InMemoryStore()
        let client = try client(provider, store: store, transport: TamperingTransport())
        let error = await #expect(throws: OAuthError.self) {
            try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        }
        #expect(error?.code == .invalidIDToken)
        #expect(try await store.accounts(service: "svc").isEmpty)
    }

    @Test func aForgedStateNeverReachesTheTokenEndpoint() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: ["com.example.app:/oauth/callback"])
        defer { provider.stop() }
        let store = InMemoryStore()
        await #expect(throws: OAuthError(.stateMismatch)) {
            try await client(provider, store: store).signIn(with: ForgingBrowser())
        }
        #expect(provider.count("token.authorization_code") == 0)
        #expect(try await store.accounts(service: "svc").isEmpty)
    }
}
