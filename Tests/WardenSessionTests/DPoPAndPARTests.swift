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

@Suite("DPoP key storage")
struct DPoPKeyStorageTests {
    @Test func theSoftwareKeyIsCreatedOnceAndReadBack() async throws {
        let store = InMemoryStore()
        let first = try await DPoPKeys.software(store: store, service: "dpop", account: "alice")
        let again = try await DPoPKeys.software(store: store, service: "dpop", account: "alice")
        #expect(first.thumbprint == again.thumbprint)
        let other = try await DPoPKeys.software(store: store, service: "dpop", account: "bob")
        #expect(other.thumbprint != first.thumbprint)
        try await store.save(Data("not a key".utf8), service: "dpop", account: "carol")
        await #expect(throws: StorageError(.corruptedData)) {
            _ = try await DPoPKeys.software(store: store, service: "dpop", account: "carol")
        }
        #expect(try await store.load(service: "dpop", account: "carol") == Data("not a key".utf8), "never replaced")
    }
}

@Suite("DPoP nonces and PAR responses, on the wire")
struct DPoPWireTests {
    /// A resource server that demands a nonce first (RFC 9449 §9): one retry with the new nonce, no more.
    @Test func aResourceServerNonceChallengeIsAnsweredOnce() async throws {
        let dpop = DPoPBinding(key: try SoftwareDPoPKey())
        let clock = ManualDate()
        var tokens = Fixture.expired(clock)
        tokens.expiresAt = clock.date.current.addingTimeInterval(3600)
        tokens.dpopThumbprint = dpop.thumbprint
        let session = AuthSession(
            tokens: tokens, store: InMemoryStore(), service: "svc", account: "a", refresher: FakeProvider(),
            now: clock.now, dpop: dpop)
        let seen = Locked<[(authorization: String, nonce: String?)]>([])
        let transport = RecordingTransport { request in
            let proof = request.header("DPoP") ?? ""
            let nonce = (try? JWSCompact.decodeUnverified(proof))?.payload?.objectValue?["nonce"]?.stringValue
            let count = seen.withLock {
                $0.append((request.header("Authorization") ?? "", nonce))
                return $0.count
            }
            if nonce != "rs-nonce-1" {
                return HTTPResponse(
                    status: 401,
                    headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "rs-nonce-\(count)"])
            }
            return HTTPResponse(status: 200)
        }
        let client = AuthorizedClient(session: session, transport: transport, clock: RecordingClock())
        let response = try await client.send(HTTPRequest(url: URL(string: "https://rs.example.com/data")!))
        #expect(response.status == 200)
        #expect(seen.current.count == 2)
        #expect(seen.current.allSatisfy { $0.authorization == "DPoP at-0" })
        #expect(seen.current.map(\.nonce) == [nil, "rs-nonce-1"])
        // The resource server's nonce is kept for its origin only.
        #expect(dpop.nonce(for: URL(string: "https://rs.example.com/other")!) == "rs-nonce-1")
        #expect(dpop.nonce(for: URL(string: "https://as.example.com/token")!) == nil)
    }

    /// RFC 9126 §2.2's own example response: a request_uri that is not a urn:ietf: URI is accepted as is.
    @Test func theRFCExamplePARResponseIsAccepted() async throws {
        let metadata = try ProviderMetadata(
            issuer: "https://as.example.com", authorizationEndpoint: URL(string: "https://as.example.com/authorize")!,
            tokenEndpoint: URL(string: "https://as.example.com/token")!
        ).withPushedAuthorizationRequestEndpoint(URL(string: "https://as.example.com/as/par")!)
        let posted = Locked<String>("")
        let transport = RecordingTransport { request in
            posted.withLock { $0 = String(decoding: request.body ?? Data(), as: UTF8.self) }
            return HTTPResponse(
                status: 201, headers: ["Content-Type": "application/json"],
                body: Data(#"{"request_uri":"urn:example:bwc4JK-ESC0w8acc191e-Y1LTC2","expires_in":90}"#.utf8))
        }
        var request = try AuthorizationRequest(
            metadata: metadata, clientID: "s6BhdRkqt3", redirectURI: try RedirectURI("com.example.app:/cb"))
        request.transport = transport
        let (url, _) = try await request.prepare()
        #expect(
            url.absoluteString
                == "https://as.example.com/authorize?client_id=s6BhdRkqt3&request_uri=urn%3Aexample%3Abwc4JK-ESC0w8acc191e-Y1LTC2"
        )
        #expect(
            posted.current.contains("code_challenge_method=S256") && posted.current.contains("client_id=s6BhdRkqt3"))
        // Malformed answers are refused.
        for body in [#"{"request_uri":"","expires_in":90}"#, #"{"request_uri":"u"}"#, #"{"expires_in":90}"#, "nope"] {
            let bad = RecordingTransport { _ in HTTPResponse(status: 201, headers: [:], body: Data(body.utf8)) }
            request.transport = bad
            await #expect(throws: OAuthError(.invalidPARResponse), "\(body)") { try await request.prepare() }
        }
    }
}

@Suite("PAR and DPoP configuration refusals")
struct PARAndDPoPRefusalTests {
    static func metadata(_ extra: String) -> Data {
        Data(
            #"{"issuer":"https://as.example.com","authorization_endpoint":"https://as.example.com/a","token_endpoint":"https://as.example.com/t"\#(extra)}"#
                .utf8)
    }

    @Test func requiringPARWithoutAnEndpointIsInvalidMetadata() {
        #expect(throws: OAuthError(.invalidMetadata)) {
            try ProviderMetadata(
                json: Self.metadata(#","require_pushed_authorization_requests":true"#),
                expectedIssuer: "https://as.example.com")
        }
        #expect(throws: OAuthError(.insecureEndpoint)) {
            try ProviderMetadata(
                json: Self.metadata(#","pushed_authorization_request_endpoint":"http://as.example.com/par""#),
                expectedIssuer: "https://as.example.com")
        }
    }

    /// `make()` cannot push: where PAR is required or asked for it refuses rather than build a plain URL.
    @Test func makeRefusesWherePARIsRequiredOrAskedFor() throws {
        let plain = try ProviderMetadata(json: Self.metadata(""), expectedIssuer: "https://as.example.com")
        let requiring = try plain.withPushedAuthorizationRequestEndpoint(
            URL(string: "https://as.example.com/par")!, required: true)
        let redirect = try RedirectURI("com.example.app:/cb")
        let required = try AuthorizationRequest(metadata: requiring, clientID: "c", redirectURI: redirect)
        #expect(throws: OAuthError(.invalidConfiguration)) { _ = try required.make() }
        var asked = try AuthorizationRequest(metadata: plain, clientID: "c", redirectURI: redirect)
        asked.pushed = true
        #expect(throws: OAuthError(.invalidConfiguration)) { _ = try asked.make() }
        // Announced but optional, and not asked for: a plain URL, as before.
        let optional = try AuthorizationRequest(
            metadata: try plain.withPushedAuthorizationRequestEndpoint(URL(string: "https://as.example.com/par")!),
            clientID: "c", redirectURI: redirect)
        #expect(try optional.make().url.absoluteString.hasPrefix("https://as.example.com/a?response_type=code"))
    }

    @Test func askingForPARWhereThereIsNoneFails() async throws {
        let metadata = try ProviderMetadata(json: Self.metadata(""), expectedIssuer: "https://as.example.com")
        var request = try AuthorizationRequest(
            metadata: metadata, clientID: "c", redirectURI: try RedirectURI("com.example.app:/cb"))
        request.pushed = true
        await #expect(throws: OAuthError(.invalidMetadata)) { try await request.prepare() }
        request.pushed = nil
        let (url, _) = try await request.prepare()  // no endpoint, not required: the plain front-channel request
        #expect(url.query?.contains("code_challenge=") == true)
    }

    @Test func aPushedRequestThatExpiresBeforeTheBrowserOpensIsRefused() async throws {
        let metadata = try ProviderMetadata(
            json: Self.metadata(#","pushed_authorization_request_endpoint":"https://as.example.com/par""#),
            expectedIssuer: "https://as.example.com")
        let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let transport = RecordingTransport { _ in
            clock.withLock { $0 += 5 }  // the push took five seconds
            return HTTPResponse(status: 201, headers: [:], body: Data(#"{"request_uri":"urn:x","expires_in":3}"#.utf8))
        }
        var request = try AuthorizationRequest(
            metadata: metadata, clientID: "c", redirectURI: try RedirectURI("com.example.app:/cb"))
        request.transport = transport
        await #expect(throws: OAuthError(.invalidPARResponse)) { try await request.prepare(now: { clock.current }) }
    }

    @Test(arguments: ["", "with space", "tab\there", String(repeating: "n", count: 1025), "é-non-ascii"])
    func unusableNoncesAreIgnored(_ nonce: String) throws {
        let dpop = DPoPBinding(key: try SoftwareDPoPKey())
        let url = URL(string: "https://rs.example.com/x")!
        #expect(!dpop.record(HTTPResponse(status: 200, headers: ["DPoP-Nonce": nonce]), from: url))
        #expect(dpop.nonce(for: url) == nil)
    }
}

/// The local provider's authorization codes, as a careful server keeps them: spent only by a request that proves it
/// is the client's (redirect and PKCE verifier), so whoever saw the code cannot burn it, and valid for 60 s.
@Suite("Local provider: authorization codes")
struct LocalProviderCodeTests {
    static func code(_ provider: LocalProvider) async throws -> (code: String, verifier: String) {
        let metadata = try await ProviderMetadata.discover(issuer: provider.issuer, transport: URLSessionTransport())
        var request = try AuthorizationRequest(
            metadata: metadata, clientID: provider.clientID, redirectURI: try RedirectURI("http://127.0.0.1/callback"),
            scopes: ["openid"])
        request.pushed = false
        let (url, pending) = try request.make(redirectOverride: "http://127.0.0.1:9/callback")
        let answer = try await URLSessionTransport().send(HTTPRequest(url: url))
        let code = try pending.validate(try #require(answer.header("Location")))
        return (code.code.unredacted(), pending.pkce.verifier.unredacted())
    }

    static func exchange(_ provider: LocalProvider, code: String, verifier: String) async throws -> Int {
        let body = FormEncoding.encode([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "http://127.0.0.1:9/callback"),
            ("client_id", provider.clientID), ("code_verifier", verifier),
        ])
        return try await URLSessionTransport().send(
            HTTPRequest(
                method: "POST", url: URL(string: provider.base + "/token")!,
                headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8))
        ).status
    }

    @Test func aWrongVerifierDoesNotBurnTheCode() async throws {
        let provider = try LocalProvider(clientID: "app")
        defer { provider.stop() }
        let (code, verifier) = try await Self.code(provider)
        #expect(try await Self.exchange(provider, code: code, verifier: String(repeating: "x", count: 43)) == 400)
        #expect(try await Self.exchange(provider, code: code, verifier: verifier) == 200, "still the client's")
        #expect(try await Self.exchange(provider, code: code, verifier: verifier) == 400, "one time")
    }

    @Test func aCodeExpiresAfterAMinute() async throws {
        let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let provider = try LocalProvider(clientID: "app", now: { clock.current })
        defer { provider.stop() }
        let (code, verifier) = try await Self.code(provider)
        clock.withLock { $0 += 61 }
        #expect(try await Self.exchange(provider, code: code, verifier: verifier) == 400)
    }
}

/// The local provider's simulated outage keeps its port: refused to clients, but bound, so no other listener of a
/// parallel test is handed it and the provider can come back on it.
@Suite("Local provider: outages keep the port")
struct LocalProviderOutageTests {
    /// Binds a plain socket (no SO_REUSEADDR) to 127.0.0.1:`port`: whether the port was free.
    static func portIsFree(_ port: UInt16) -> Bool {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    @Test func anOutageRefusesClientsButKeepsThePortUntilTheProviderIsBack() async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        provider.outage = .connectionRefused
        await #expect(throws: (any Error).self) {
            _ = try await ProviderMetadata.discover(issuer: provider.issuer, transport: URLSessionTransport())
        }
        #expect(!Self.portIsFree(provider.port), "the port was given up during the outage")
        provider.outage = .none
        let metadata = try await ProviderMetadata.discover(issuer: provider.issuer, transport: URLSessionTransport())
        #expect(metadata.issuer == provider.issuer)
    }
}
