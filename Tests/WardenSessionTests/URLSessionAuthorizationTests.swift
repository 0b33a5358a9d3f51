import Foundation
import Testing
import WardenCore
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's own networking: a `URLRequest` authorized by the session, sent through the app's `URLSession`, with the
/// same single-flight refresh on 401 and the same offline rule as `AuthorizedClient`.
@Suite("URLSession with an AuthSession", .serialized)
struct URLSessionAuthorizationTests {
    func signedIn() async throws -> (LocalProvider, AuthClient, AuthSession) {
        let provider = try LocalProvider(clientID: "app", redirectURIs: ["com.example.app:/oauth/callback"])
        let client = AuthClient(
            .init(
                issuer: provider.issuer, clientID: "app",
                redirectURI: try RedirectURI("com.example.app:/oauth/callback"),
                store: InMemoryStore(), service: "svc"))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        return (provider, client, signIn.session)
    }

    /// A 5 MiB body and a redirected call come back through URLSession; the session stays signed in.
    @Test func aLargeBodyAndARedirectWorkAndTheSessionStaysSignedIn() async throws {
        let (provider, _, session) = try await signedIn()
        defer { provider.stop() }
        let large = URLRequest(url: URL(string: provider.base + "/api/large?bytes=\(5 << 20)")!)
        let (data, response) = try await URLSession.shared.data(for: large, authorizedBy: session)
        #expect((response as? HTTPURLResponse)?.statusCode == 200 && data.count == 5 << 20)
        let moved = URLRequest(url: URL(string: provider.base + "/api/moved")!)
        let (body, redirected) = try await URLSession.shared.data(for: moved, authorizedBy: session)
        #expect((redirected as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: body, as: UTF8.self))")
        #expect(redirected.url?.path == "/api/resource")
        #expect(await session.state == .signedIn)
    }

    /// The provider expired the token early: a burst of calls gets 401s, shares one refresh, and succeeds.
    @Test func a401BurstSharesOneRefresh() async throws {
        let (provider, _, session) = try await signedIn()
        defer { provider.stop() }
        provider.expireAccessTokens()
        let before = provider.count("token.refresh_token")
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    let request = URLRequest(url: URL(string: provider.base + "/api/resource")!)
                    let (_, response) = try await URLSession.shared.data(for: request, authorizedBy: session)
                    return (response as? HTTPURLResponse)?.statusCode ?? 0
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        #expect(provider.count("token.refresh_token") == before + 1)
    }

    /// Offline makes the session read-only; the first answered request makes it writable again.
    @Test func connectivityFailuresAloneMakeTheSessionOffline() async throws {
        let (provider, client, session) = try await signedIn()
        defer { provider.stop() }
        provider.outage = .connectionRefused
        let request = URLRequest(url: URL(string: provider.base + "/api/resource")!)
        await #expect(throws: URLError.self) {
            _ = try await URLSession.shared.data(
                for: request, authorizedBy: session, retryPolicy: RetryPolicy(baseDelay: .milliseconds(1)))
        }
        #expect(await !session.state.canMutate)
        provider.outage = .none
        _ = try await URLSession.shared.data(for: request, authorizedBy: session)
        #expect(await session.state == .signedIn)

        // Warden's own client: a response over its 1 MiB cap is that request's failure, not an outage.
        let api = client.authorizedClient(for: session)
        let error = await #expect(throws: TransportError.self) {
            _ = try await api.send(HTTPRequest(url: URL(string: provider.base + "/api/large?bytes=\(2 << 20)")!))
        }
        #expect(error?.code == .responseTooLarge)
        #expect(await session.state == .signedIn, "a too-large response does not make the session offline")
    }

    /// A redirect to another origin (another port here) never carries the token; the redirect target's 401 does not
    /// refresh a token it never saw.
    @Test func aCrossOriginRedirectLosesTheCredentials() async throws {
        let (provider, _, session) = try await signedIn()
        defer { provider.stop() }
        let other = try LocalProvider(clientID: "other")
        defer { other.stop() }
        let away = other.base + "/api/echo-authorization"
        var components = URLComponents(string: provider.base + "/api/moved")!
        components.queryItems = [URLQueryItem(name: "to", value: away)]
        let (body, response) = try await URLSession.shared.data(
            for: URLRequest(url: components.url!), authorizedBy: session)
        #expect(response.url?.absoluteString == away)
        #expect(String(decoding: body, as: UTF8.self) == #"{"authorization":false}"#)

        // Same origin keeps them (the earlier redirect test); a 401 from another origin refreshes nothing.
        components.queryItems = [URLQueryItem(name: "to", value: other.base + "/api/resource")]
        let before = provider.count("token.refresh_token")
        let (_, refused) = try await URLSession.shared.data(
            for: URLRequest(url: components.url!), authorizedBy: session)
        #expect((refused as? HTTPURLResponse)?.statusCode == 401)
        #expect(provider.count("token.refresh_token") == before, "a 401 from a server the token never reached")
        #expect(
            CredentialRedirectGuard.redirected(
                URLRequest(url: URL(string: "http://api.example.com/x")!),
                from: URL(string: "https://api.example.com/")!,
                dpop: false
            ).value(forHTTPHeaderField: "Authorization") == nil, "https → http loses them")
        var sameOrigin = URLRequest(url: URL(string: "https://api.example.com/y")!)
        sameOrigin.setValue("DPoP t", forHTTPHeaderField: "Authorization")
        sameOrigin.setValue("proof", forHTTPHeaderField: "DPoP")
        let kept = CredentialRedirectGuard.redirected(
            sameOrigin, from: URL(string: "https://api.example.com/x"), dpop: false)
        #expect(kept.value(forHTTPHeaderField: "Authorization") == "DPoP t", "same origin, Bearer rules: kept")
        let dpop = CredentialRedirectGuard.redirected(
            sameOrigin, from: URL(string: "https://api.example.com/x"), dpop: true)
        #expect(
            dpop.value(forHTTPHeaderField: "Authorization") == nil && dpop.value(forHTTPHeaderField: "DPoP") == nil,
            "a DPoP proof names one URL: any redirect loses it")
    }

    @Test func aCleartextURLNeverGetsTheToken() async throws {
        let (provider, _, session) = try await signedIn()
        defer { provider.stop() }
        await #expect(throws: TransportError(.insecureURL)) {
            _ = try await session.authorize(URLRequest(url: URL(string: "http://api.example.com/me")!))
        }
    }

    @Test func authorizeAddsTheBearerHeader() async throws {
        let (provider, _, session) = try await signedIn()
        defer { provider.stop() }
        let authorized = try await session.authorize(URLRequest(url: URL(string: "https://api.example.com/me")!))
        let token = try await session.validAccessToken()
        #expect(authorized.value(forHTTPHeaderField: "Authorization") == "Bearer " + token)
        #expect(authorized.url == URL(string: "https://api.example.com/me"), "never in the URL")
    }

    /// The same retry rules as `AuthorizedClient`: a 503 with `Retry-After` is waited exactly and retried; the
    /// request then succeeds and the session never went offline.
    @Test func a503WithRetryAfterIsWaitedAndRetried() async throws {
        let (provider, _, session) = try await signedIn()
        defer { provider.stop() }
        provider.outage = .unavailable(retryAfter: 1)
        let request = URLRequest(url: URL(string: provider.base + "/api/resource")!)
        async let call = URLSession.shared.data(for: request, authorizedBy: session)
        // The outage ends once the first 503 went out; the retry comes a second later.
        while provider.count("unavailable") == 0 { try await Task.sleep(for: .milliseconds(5)) }
        provider.outage = .none
        let (_, response) = try await call
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(provider.count("unavailable") == 1, "one 503, then the retry")
        #expect(await session.state == .signedIn)
    }

    /// A `Retry-After` beyond the policy's budget fails at once with the server's time, without a second request;
    /// a POST is not retried either (it is not idempotent).
    @Test func aRetryAfterBeyondTheBudgetIsRateLimitedAtOnce() async throws {
        let (provider, _, session) = try await signedIn()
        defer { provider.stop() }
        provider.outage = .unavailable(retryAfter: 120)
        let request = URLRequest(url: URL(string: provider.base + "/api/resource")!)
        let error = await #expect(throws: SessionError.self) {
            _ = try await URLSession.shared.data(
                for: request, authorizedBy: session, retryPolicy: RetryPolicy(maximumTotalDelay: .seconds(5)))
        }
        #expect(error?.code == .rateLimited && error?.retryAt != nil)
        #expect(provider.count("unavailable") == 1)

        provider.outage = .unavailable(retryAfter: 1)
        var post = URLRequest(url: URL(string: provider.base + "/api/resource")!)
        post.httpMethod = "POST"
        await #expect(throws: SessionError.self) {
            _ = try await URLSession.shared.data(for: post, authorizedBy: session)
        }
        #expect(provider.count("unavailable") == 2, "the POST went out once")
        #expect(await session.state == .signedIn, "an answering server is not an outage")
    }

    /// The app's own redirect policy stays the app's: a session delegate that refuses redirects gets the 3xx back,
    /// and one that rewrites the target still has the credentials rule applied to what it chose.
    @Test func theAppsRedirectPolicyStillDecides() async throws {
        final class Refusing: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
            let rewrite: URL?
            init(rewrite: URL?) { self.rewrite = rewrite }
            func urlSession(
                _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
            ) {
                guard let rewrite else { return completionHandler(nil) }
                var next = request
                next.url = rewrite
                completionHandler(next)
            }
        }
        let (provider, _, session) = try await signedIn()
        defer { provider.stop() }
        let refusing = URLSession(configuration: .ephemeral, delegate: Refusing(rewrite: nil), delegateQueue: nil)
        let moved = URLRequest(url: URL(string: provider.base + "/api/moved")!)
        let (_, response) = try await refusing.data(for: moved, authorizedBy: session)
        #expect((response as? HTTPURLResponse)?.statusCode == 302, "the app's delegate refused the redirect")

        let other = try LocalProvider(clientID: "other")
        defer { other.stop() }
        let rewriting = URLSession(
            configuration: .ephemeral,
            delegate: Refusing(rewrite: URL(string: other.base + "/api/echo-authorization")!), delegateQueue: nil)
        let (body, _) = try await rewriting.data(for: moved, authorizedBy: session)
        #expect(String(decoding: body, as: UTF8.self) == #"{"authorization":false}"#, "rewritten to another origin")
    }

    /// A response the app's URL cache served alone says nothing about the network: it does not bring an offline
    /// session back. (swift-corelibs-foundation reports no task metrics and caches nothing: there every response
    /// came from the network.)
    @Test func aCachedResponseAloneDoesNotEndAnOutage() {
        #expect(!CredentialRedirectGuard.reachedNetwork(fromLocalCache: [true]))
        #expect(!CredentialRedirectGuard.reachedNetwork(fromLocalCache: [true, true]))
        #expect(CredentialRedirectGuard.reachedNetwork(fromLocalCache: [true, false]), "a revalidation went out")
        #expect(CredentialRedirectGuard.reachedNetwork(fromLocalCache: [false]))
        #expect(CredentialRedirectGuard.reachedNetwork(fromLocalCache: []))
    }
}
