import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// PAR (RFC 9126) and DPoP-bound tokens (RFC 9449) end to end on the in-process provider, through AuthClient.
@Suite("PAR and DPoP through AuthClient", .serialized)
struct DPoPAndPARTests {
    static let redirect = "com.example.app:/oauth/callback"

    func client(
        _ provider: LocalProvider, store: any CredentialStore = InMemoryStore(), dpop: DPoPBinding? = nil,
        pushed: Bool? = nil, transport: any HTTPTransport = URLSessionTransport()
    ) throws -> AuthClient {
        var configuration = AuthClient.Configuration(
            issuer: provider.issuer, clientID: provider.clientID, redirectURI: try RedirectURI(Self.redirect),
            store: store, service: "svc", account: "alice", transport: transport)
        configuration.dpop = dpop
        configuration.pushedAuthorization = pushed
        return AuthClient(configuration)
    }

    @Test func aPushedRequestSendsOnlyClientIDAndRequestURIThroughTheBrowser() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: [Self.redirect])
        defer { provider.stop() }
        provider.requirePushedAuthorizationRequests = true
        let metadata = try await ProviderMetadata.discover(issuer: provider.issuer, transport: URLSessionTransport())
        #expect(metadata.requirePushedAuthorizationRequests && metadata.pushedAuthorizationRequestEndpoint != nil)
        var request = try AuthorizationRequest(
            metadata: metadata, clientID: "app", redirectURI: try RedirectURI(Self.redirect))
        request.transport = URLSessionTransport()
        let (url, _) = try await request.prepare()
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.map(\.name).sorted() == ["client_id", "request_uri"], "no state, PKCE or nonce in the URL")
        // The whole sign-in works pushed; a non-pushed request is refused by provider and client alike.
        let signIn = try await client(provider).signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(try signIn.claims?.subject == "demo-user-1")
        #expect(provider.count("authorize.pushed") == 1)
        await #expect(throws: OAuthError(.invalidConfiguration)) {
            try await client(provider, pushed: false).signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        }
    }

    @Test func dpopBoundTokensWorkOnlyWithTheirKey() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: [Self.redirect])
        defer { provider.stop() }
        provider.requireDPoPNonce = true
        let store = InMemoryStore()
        let dpop = DPoPBinding(key: try SoftwareDPoPKey())
        let auth = try client(provider, store: store, dpop: dpop)
        let signIn = try await auth.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(provider.count("dpop.refused.use_dpop_nonce") >= 1, "the nonce challenge was met and answered")
        let tokens = try #require(await signIn.session.currentTokens)
        #expect(tokens.dpopThumbprint == dpop.thumbprint)
        let api = URL(string: provider.issuer + "/api/resource")!
        // With its key: accepted, with `Authorization: DPoP`.
        #expect(try await auth.authorizedClient(for: signIn.session).send(HTTPRequest(url: api)).status == 200)
        // Without its key (as Bearer), with a replayed proof, with a proof for another URL: refused.
        let token = tokens.accessToken.unredacted()
        let transport = URLSessionTransport()
        let bearer = try await transport.send(HTTPRequest(url: api, headers: ["Authorization": "Bearer " + token]))
        #expect(bearer.status == 401)
        let proof = try dpop.proof(method: "GET", url: api, accessToken: token)
        let headers = ["Authorization": "DPoP " + token, "DPoP": proof]
        #expect(try await transport.send(HTTPRequest(url: api, headers: headers)).status == 200)
        #expect(try await transport.send(HTTPRequest(url: api, headers: headers)).status == 401, "replayed")
        let elsewhere = try dpop.proof(
            method: "GET", url: URL(string: provider.issuer + "/userinfo")!, accessToken: token)
        let wrongURL = try await transport.send(
            HTTPRequest(url: api, headers: ["Authorization": "DPoP " + token, "DPoP": elsewhere]))
        #expect(wrongURL.status == 401)
        // A DPoP-bound refresh, after a nonce rotation.
        provider.expireAccessTokens()
        provider.rotateDPoPNonce()
        _ = try await signIn.session.validAccessToken(minTTL: 1e9)
        #expect(await signIn.session.currentTokens?.dpopThumbprint == dpop.thumbprint)
        // Restoring without the key: the tokens are unusable; the session signs out and purges, no Bearer fallback.
        #expect(try await client(provider, store: store).restoreSession() == nil)
        #expect(try await store.load(service: "svc", account: "alice") == nil)
    }

    /// Rewrites `token_type` to Bearer, as a downgrading intermediary would.
    struct DowngradingTransport: HTTPTransport {
        let inner = URLSessionTransport()
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let response = try await inner.send(request)
            guard request.url.path.hasSuffix("/token") else { return response }
            let text = String(decoding: response.body, as: UTF8.self)
                .replacingOccurrences(of: #""token_type":"DPoP""#, with: #""token_type":"Bearer""#)
            return HTTPResponse(status: response.status, headers: response.headers, body: Data(text.utf8))
        }
    }

    @Test func aBearerAnswerToADPoPRequestIsRefused() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: [Self.redirect])
        defer { provider.stop() }
        let store = InMemoryStore()
        let auth = try client(
            provider, store: store, dpop: DPoPBinding(key: try SoftwareDPoPKey()), transport: DowngradingTransport())
        await #expect(throws: OAuthError(.tokenTypeMismatch)) {
            try await auth.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        }
        #expect(try await store.accounts(service: "svc").isEmpty)
    }
}
