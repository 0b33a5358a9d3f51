import Foundation
import Testing
import WardenCore
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// An app's life between the links, through the public door (`AuthClient`) against the in-process provider, which
/// rotates refresh tokens and revokes the whole grant when an old one is presented again.
@Suite("An app's life", .serialized)
struct SessionLifeTests {
    static let redirect = "com.example.app:/oauth/callback"

    static func client(
        _ provider: LocalProvider, store: any CredentialStore, service: String, clock: ManualDate,
        transport: any HTTPTransport = URLSessionTransport()
    ) throws -> AuthClient {
        AuthClient(
            .init(
                issuer: provider.issuer, clientID: provider.clientID, redirectURI: try RedirectURI(redirect),
                store: store, service: service, account: "alice", transport: transport, now: clock.now))
    }

    /// A provider whose clock is the test's, and a first sign-in stored in `store`.
    static func signedIn(store: any CredentialStore, service: String) async throws -> (LocalProvider, ManualDate) {
        let clock = ManualDate()
        clock.date.withLock { $0 = Date() }
        let provider = try LocalProvider(clientID: "app", redirectURIs: [redirect], now: clock.now)
        let app = try client(provider, store: store, service: service, clock: clock)
        _ = try await app.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        return (provider, clock)
    }

    static func stored(_ store: any CredentialStore, _ service: String) async throws -> TokenSet? {
        try await store.load(service: service, account: "alice").map { data throws(StorageError) in
            try TokenSet(encoded: data)
        }
    }

    @Test func anOfflineColdLaunchRestoresServesAndRecoversWhenTheNetworkReturns() async throws {
        let store = InMemoryStore()
        let service = "life.\(UUID())"
        let (provider, clock) = try await Self.signedIn(store: store, service: service)
        defer { provider.stop() }
        let before = try #require(try await Self.stored(store, service))

        // Airplane mode, a new process: restore and a still-valid token need no request at all.
        provider.outage = .connectionRefused
        let transport = CountingTransport()
        transport.offline.withLock { $0 = true }
        let launch = try Self.client(provider, store: store, service: service, clock: clock, transport: transport)
        let session = try #require(try await launch.restoreSession(), "the stored session came back offline")
        #expect(try await session.validAccessToken() == before.accessToken.unredacted())
        #expect(transport.count == 0, "restore + a valid token sent \(transport.sent)")

        // Expired while offline: a transient error, read-only, the store untouched.
        clock.advance(3600)
        let error = await #expect(throws: SessionError.self) { try await session.validAccessToken() }
        #expect(error?.failureKind == .transient)
        let offlineState = await session.state
        #expect(offlineState == .degraded(reason: .refreshFailed(.network)) && !offlineState.canMutate)
        #expect(try await Self.stored(store, service) == before, "the store is untouched")
        // Within the backoff nothing is sent, however often the app asks.
        let attempts = transport.count
        for _ in 0..<5 { _ = try? await session.validAccessToken() }
        #expect(transport.count == attempts)

        // The network returns: the backoff ends at once and one refresh goes out.
        provider.outage = .none
        transport.offline.withLock { $0 = false }
        await session.networkBecameAvailable()
        #expect(await session.state == .signedIn)
        #expect(provider.count("token.refresh_token") == 1)
        let after = try #require(try await Self.stored(store, service))
        #expect(after.generation == 1 && after.refreshToken != before.refreshToken, "rotated and stored")
    }

    @Test func twoHoldersOfOneGrantRefreshOncePerExpiryAndNeitherIsSignedOut() async throws {
        let store = InMemoryStore()
        let service = "life.\(UUID())"
        let (provider, clock) = try await Self.signedIn(store: store, service: service)
        defer { provider.stop() }
        let app = try #require(
            try await Self.client(provider, store: store, service: service, clock: clock).restoreSession())
        let widget = try #require(
            try await Self.client(provider, store: store, service: service, clock: clock).restoreSession())

        // Their access tokens expire together; both ask at once: one refresh, one token.
        clock.advance(3600)
        async let a = app.validAccessToken()
        async let b = widget.validAccessToken()
        let (first, second) = try await (a, b)
        #expect(first == second)
        #expect(provider.count("token.refresh_token") == 1)
        #expect(await app.adoptionCount + widget.adoptionCount == 1, "the second holder adopted the first's tokens")

        // An hour later the app refreshes twice while the widget sleeps; then the widget wakes holding a refresh
        // token rotated away twice. It adopts, never spends it.
        for _ in 0..<2 {
            clock.advance(3600)
            _ = try await app.validAccessToken()
        }
        clock.advance(60)
        #expect(provider.count("token.refresh_token") == 3)
        let woken = try await widget.validAccessToken()
        #expect(provider.count("token.refresh_token") == 3, "the widget adopted instead of refreshing")
        #expect(woken == (try await app.validAccessToken()))
        #expect(await widget.state == .signedIn)
        #expect(await app.state == .signedIn)
        let api = try Self.client(provider, store: store, service: service, clock: clock).authorizedClient(for: widget)
        #expect(try await api.send(HTTPRequest(url: URL(string: provider.issuer + "/api/resource")!)).status == 200)
    }

    @Test func aHolderFollowsAnotherHoldersSignOut() async throws {
        let store = InMemoryStore()
        let service = "life.\(UUID())"
        let (provider, clock) = try await Self.signedIn(store: store, service: service)
        defer { provider.stop() }
        let app = try #require(
            try await Self.client(provider, store: store, service: service, clock: clock).restoreSession())
        let widget = try #require(
            try await Self.client(provider, store: store, service: service, clock: clock).restoreSession())
        _ = await app.signOut()
        clock.advance(3600)
        await #expect(throws: SessionError(.signedOut, "")) { try await widget.validAccessToken() }
        #expect(await widget.state == .signedOut(reason: .signedOutElsewhere))
        #expect(provider.count("token.refresh_token") == 0, "a signed-out grant is never refreshed")
    }

    @Test func signOutReportsAndAnOfflineRevocationIsRetriedAtTheNextLaunch() async throws {
        let store = InMemoryStore()
        let service = "life.\(UUID())"
        let (provider, clock) = try await Self.signedIn(store: store, service: service)
        defer { provider.stop() }
        let transport = CountingTransport()
        let client = try Self.client(provider, store: store, service: service, clock: clock, transport: transport)
        let session = try #require(try await client.restoreSession())
        let refreshToken = try #require(try await Self.stored(store, service)?.refreshToken?.unredacted())

        transport.offline.withLock { $0 = true }
        let report = await session.signOut()
        #expect(report.localDataDeleted)
        guard case .failed(let reason, willRetry: true) = report.revocation else {
            Issue.record("an offline revocation reported \(report.revocation)")
            return
        }
        #expect(reason.hasPrefix("network"))
        #expect(!reason.contains(refreshToken), "no token in the report")
        #expect(try await Self.stored(store, service) == nil, "the session is gone from the device at once")
        #expect(try await store.load(service: service + ".pending-revocation", account: "alice") != nil)
        #expect(provider.count("revoke") == 0)

        // The next launch, online: nothing to restore, the revocation is sent and then forgotten.
        let relaunch = try Self.client(provider, store: store, service: service, clock: clock)
        #expect(try await relaunch.restoreSession() == nil)
        let outcomes = await relaunch.retryPendingRevocations()
        #expect(outcomes == [.revoked(tokenType: "refresh_token")] || outcomes.isEmpty)
        #expect(provider.count("revoke") == 1, "revoked exactly once")
        #expect(try await store.load(service: service + ".pending-revocation", account: "alice") == nil)
        #expect(await relaunch.retryPendingRevocations() == [], "forgotten once sent")
        // The grant is dead at the provider.
        let metadata = try await relaunch.metadata()
        let tokens = TokenClient(metadata: metadata, clientID: provider.clientID, transport: URLSessionTransport())
        await #expect(throws: OAuthError(.invalidGrant)) { try await tokens.refresh(refreshToken: refreshToken) }
    }

    @Test func theNetworkReturnSendsARevocationTheLaunchCouldNot() async throws {
        let store = InMemoryStore()
        let service = "life.\(UUID())"
        let (provider, clock) = try await Self.signedIn(store: store, service: service)
        defer { provider.stop() }
        let transport = CountingTransport()
        transport.offline.withLock { $0 = true }
        let client = try Self.client(provider, store: store, service: service, clock: clock, transport: transport)
        let session = try #require(try await client.restoreSession())
        _ = await session.signOut()
        // Still offline: the retry keeps it.
        guard case .failed(_, willRetry: true)? = await client.retryPendingRevocations().first else {
            Issue.record("an offline retry did not keep the revocation")
            return
        }
        #expect(provider.count("revoke") == 0)
        // The network returns (what NetworkPathObserver calls): sent once, then forgotten.
        transport.offline.withLock { $0 = false }
        #expect(await client.retryPendingRevocations() == [.revoked(tokenType: "refresh_token")])
        #expect(provider.count("revoke") == 1)
        #expect(await client.retryPendingRevocations() == [])
    }

    @Test func anOnlineSignOutReportsTheRevocation() async throws {
        let store = InMemoryStore()
        let service = "life.\(UUID())"
        let (provider, clock) = try await Self.signedIn(store: store, service: service)
        defer { provider.stop() }
        let session = try #require(
            try await Self.client(provider, store: store, service: service, clock: clock).restoreSession())
        let report = await session.signOut()
        #expect(report == SignOutReport(localDataDeleted: true, revocation: .revoked(tokenType: "refresh_token")))
        #expect(try await store.load(service: service + ".pending-revocation", account: "alice") == nil)
        #expect(await session.signOut().revocation == .nothingToRevoke)
    }

    @Test func aProviderWithoutRevocationSaysSo() async throws {
        struct NoRevocation: TokenRefresher {
            func refresh(refreshToken: String, scope: String?) async throws(OAuthError) -> TokenResponse {
                throw OAuthError(.network)
            }
            func revoke(token: String, hint: String) async throws(OAuthError) {
                throw OAuthError(.noRevocationEndpoint)
            }
        }
        let store = InMemoryStore()
        let clock = ManualDate()
        let session = AuthSession(
            tokens: Fixture.expired(clock), store: store, service: "svc", account: "a", refresher: NoRevocation(),
            now: clock.now)
        try await session.persist()
        #expect(await session.signOut() == SignOutReport(localDataDeleted: true, revocation: .noEndpoint))
        #expect(await store.allItems().isEmpty, "no pending record for a provider that cannot revoke")
    }

    @Test func theNetworkReturnIsAPathFromUnusableToUsable() {
        var detector = NetworkReturnDetector()
        let fired = [true, true, false, true, true].map { detector.update(usable: $0) }
        // Launched online (nothing to return from), a hand-over between usable paths, offline, back, still back.
        #expect(fired == [false, false, false, true, false])
        var offlineLaunch = NetworkReturnDetector()
        #expect([false, true].map { offlineLaunch.update(usable: $0) } == [false, true])
    }
}
