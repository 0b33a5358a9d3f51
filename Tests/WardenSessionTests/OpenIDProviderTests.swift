import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// OpenID Connect as providers really behave, through the public door (`AuthClient`) against the in-process
/// provider switched into each behaviour: what must be refused is refused before anything is stored, and what
/// real providers do (rotate keys, run their clock ahead, return ID tokens on refresh) works.
@Suite("OpenID Connect as providers behave", .serialized)
struct OpenIDProviderTests {
    static let redirect = "com.example.app:/oauth/callback"

    static func configuration(
        _ provider: LocalProvider, store: any CredentialStore, now: @escaping NowProvider = systemNow
    ) throws -> AuthClient.Configuration {
        AuthClient.Configuration(
            issuer: provider.issuer, clientID: provider.clientID, redirectURI: try RedirectURI(redirect),
            scopes: ["openid", "offline_access"], store: store, service: "oidc", account: "alice", now: now)
    }

    static func provider(now: @escaping NowProvider = systemNow) throws -> LocalProvider {
        try LocalProvider(clientID: "app", redirectURIs: [redirect], now: now)
    }

    static func stored(_ store: any CredentialStore) async throws -> TokenSet? {
        try await store.load(service: "oidc", account: "alice").map { data throws(StorageError) in
            try TokenSet(encoded: data)
        }
    }

    static func signInError(_ client: AuthClient) async -> OAuthError? {
        do {
            _ = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Required claims and audiences

    @Test func anIDTokenWithoutSubIsRefusedAndNothingIsStored() async throws {
        let provider = try Self.provider()
        defer { provider.stop() }
        provider.idTokenQuirks.omitSubject = true
        let store = InMemoryStore()
        let error = await Self.signInError(AuthClient(try Self.configuration(provider, store: store)))
        #expect(
            error?.code == .invalidIDToken && error?.reason.contains("missing_claim") == true,
            "\(String(describing: error))")
        #expect(try await Self.stored(store) == nil)
    }

    @Test func anAudienceTheClientDoesNotTrustIsRefusedEvenWithAzp() async throws {
        let provider = try Self.provider()
        defer { provider.stop() }
        provider.idTokenQuirks.extraAudiences = ["https://api.example.com"]
        let store = InMemoryStore()
        let error = await Self.signInError(AuthClient(try Self.configuration(provider, store: store)))
        #expect(error?.reason.contains("audience_mismatch") == true, "\(String(describing: error))")
        #expect(try await Self.stored(store) == nil)
        // Trusted explicitly, the same provider's token is accepted.
        var trusting = try Self.configuration(provider, store: store)
        trusting.trustedAudiences = ["https://api.example.com"]
        let signIn = try await AuthClient(trusting).signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(try signIn.claims?.audience == ["app", "https://api.example.com"])
    }

    // MARK: - Refresh-time ID tokens

    @Test func aRefreshedIDTokenIsValidatedAndStored() async throws {
        let provider = try Self.provider()
        defer { provider.stop() }
        let store = InMemoryStore()
        let client = AuthClient(try Self.configuration(provider, store: store))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        let first = try #require(try await Self.stored(store)?.idToken)
        provider.expireAccessTokens()
        _ = try await signIn.session.refresh(ifCurrent: try await signIn.session.validAccessToken())
        let second = try #require(try await Self.stored(store)?.idToken)
        #expect(second != first, "the refreshed ID token replaced the sign-in's")
        #expect(await signIn.session.state == .signedIn)
    }

    struct BadRefresh: CustomTestStringConvertible, Sendable {
        let name: String
        let quirk: @Sendable (inout LocalProvider.IDTokenQuirks) -> Void
        let code: String
        var testDescription: String { name }
    }

    static let badRefreshes: [BadRefresh] = [
        BadRefresh(name: "another subject", quirk: { $0.refreshSubject = "mallory" }, code: "subject_mismatch"),
        BadRefresh(
            name: "signed by another key", quirk: { $0.refreshSignedByAnotherKey = true }, code: "invalid_signature"),
        BadRefresh(
            name: "auth_time moved back", quirk: { $0.refreshAuthTimeShift = -120 }, code: "auth_time_regressed"),
        BadRefresh(name: "no sub", quirk: { $0.omitSubject = true }, code: "missing_claim"),
        BadRefresh(
            name: "an untrusted audience added", quirk: { $0.extraAudiences = ["evil"] }, code: "audience_mismatch"),
        BadRefresh(name: "signed with a key the JWKS never publishes", quirk: { _ in }, code: "unknown_kid"),
    ]

    @Test(arguments: badRefreshes)
    func aRefreshedIDTokenThatDoesNotContinueTheSessionEndsItAndIsNeverStored(_ bad: BadRefresh) async throws {
        let provider = try Self.provider()
        defer { provider.stop() }
        let store = InMemoryStore()
        let client = AuthClient(try Self.configuration(provider, store: store))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        let token = try await signIn.session.validAccessToken()
        bad.quirk(&provider.idTokenQuirks)
        if bad.code == "unknown_kid" {
            try provider.rotateSigningKey()
            provider.unpublishSigningKeys()
        }
        let revocations = provider.count("revoke")
        do {
            _ = try await signIn.session.refresh(ifCurrent: token)
            Issue.record("the refreshed tokens were accepted")
        } catch {
            #expect(error.code == .idTokenRejected, "\(error)")
            #expect(error.reason.contains(bad.code), "\(error.reason)")
        }
        #expect(try await Self.stored(store) == nil, "nothing of the refused refresh is stored; the session is gone")
        #expect(await signIn.session.currentTokens == nil)
        guard case .signedOut = await signIn.session.state else {
            Issue.record("the session was kept")
            return
        }
        #expect(
            provider.count("revoke") == revocations + 2, "the rotated refresh token and the access token were revoked")
        #expect(try await client.restoreSession() == nil)
    }

    // MARK: - Key rotation

    @Test func aRotatedSigningKeyIsFetchedOnceAndFollowed() async throws {
        let provider = try Self.provider()
        defer { provider.stop() }
        let store = InMemoryStore()
        let client = AuthClient(try Self.configuration(provider, store: store))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(provider.count("jwks") == 1)
        try provider.rotateSigningKey(retireOld: true)
        let token = try await signIn.session.validAccessToken()
        _ = try await signIn.session.refresh(ifCurrent: token)
        #expect(provider.count("jwks") == 2, "the unknown kid refetched the key set once")
        let refreshed = try #require(try await Self.stored(store)?.idToken?.unredacted())
        let header = try JWSCompact.decodeUnverified(refreshed).header
        #expect(header["kid"]?.stringValue == provider.keyID, "the stored ID token is the one signed by the new key")
        // The next sign-in and refresh use the cached set: no request for keys.
        let again = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        _ = try await again.session.refresh(ifCurrent: try await again.session.validAccessToken())
        #expect(provider.count("jwks") == 2)
    }

    @Test func aKidThatIsNeverPublishedFailsClosedAfterOneRefetch() async throws {
        let provider = try Self.provider()
        defer { provider.stop() }
        let store = InMemoryStore()
        try provider.rotateSigningKey(retireOld: true)
        try provider.rotateSigningKey(retireOld: true)
        // The provider signs with a key it never published: publish nothing new after this point.
        let client = AuthClient(try Self.configuration(provider, store: store))
        _ = try await client.metadata()
        #expect(provider.count("jwks") == 0)
        provider.unpublishSigningKeys()
        let error = await Self.signInError(client)
        #expect(error?.code == .keyNotYetPublished, "\(String(describing: error))")
        #expect(provider.count("jwks") == 1, "a set fetched for this very token is not fetched again")
        let again = await Self.signInError(client)
        #expect(again?.code == .keyNotYetPublished)
        #expect(provider.count("jwks") == 2, "the cached set is refetched once for the unknown kid")
        let third = await Self.signInError(client)
        #expect(third?.code == .keyNotYetPublished)
        #expect(provider.count("jwks") == 2, "another unknown kid within a minute does not refetch")
        #expect(try await Self.stored(store) == nil)
    }

    // MARK: - Clock skew

    /// The provider's clock runs `skew` seconds off the device's. Its ID tokens live 120 s: ahead, their `iat` is
    /// in the device's future; behind by 5 minutes, they expired (beyond the 60 s leeway) by the device's clock.
    /// (Behind by 5 s is within the leeway either way: it shows that the correction changes nothing there.)
    @Test(arguments: [5.0, -5.0, 300.0, -300.0])
    func aProviderClockOffByMinutesStillSignsInAndRefreshes(skew: TimeInterval) async throws {
        let provider = try Self.provider(now: { Date().addingTimeInterval(skew) })
        defer { provider.stop() }
        provider.idTokenQuirks.lifetime = 120
        let store = InMemoryStore()
        let client = AuthClient(try Self.configuration(provider, store: store))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(try signIn.claims?.subject == "demo-user-1")
        let first = try await Self.stored(store)?.idToken
        _ = try await signIn.session.refresh(ifCurrent: try await signIn.session.validAccessToken())
        #expect(
            try await Self.stored(store)?.idToken != first, "the refreshed ID token validated in the provider's time")
    }

    @Test(arguments: [3600.0, -3600.0])
    func aClockDifferenceBeyondTheBoundIsNotCorrected(skew: TimeInterval) async throws {
        let provider = try Self.provider(now: { Date().addingTimeInterval(skew) })
        defer { provider.stop() }
        let store = InMemoryStore()
        let error = await Self.signInError(AuthClient(try Self.configuration(provider, store: store)))
        let expected = skew > 0 ? "issued_in_future" : "expired"
        #expect(error?.reason.contains(expected) == true, "\(String(describing: error))")
        #expect(try await Self.stored(store) == nil)
    }

    /// A device clock beyond the correction must not sign the user out at the next refresh: the refreshed ID token
    /// (whose times fail in the device's frame) is not stored, and the session goes on with the sign-in's.
    @Test func aRefreshWhoseIDTokenFailsOnlyOnTimeKeepsTheSession() async throws {
        let clock = ManualDate()
        clock.date.withLock { $0 = Date() }
        let provider = try Self.provider(now: { Date() })
        defer { provider.stop() }
        let store = InMemoryStore()
        let client = AuthClient(try Self.configuration(provider, store: store, now: clock.now))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        let first = try await Self.stored(store)?.idToken
        clock.advance(3600)  // the device jumps an hour ahead: the provider's Date is now beyond the bound
        let token = try await signIn.session.validAccessToken()
        #expect(provider.count("token.refresh_token") == 1, "the expired access token was refreshed")
        #expect(await signIn.session.state == .signedIn)
        #expect(try await Self.stored(store)?.idToken == first, "the unverifiable ID token was not stored")
        #expect(try await Self.stored(store)?.accessToken.unredacted() == token)
    }

    /// The same device clock, but the refresh names another user: identity decides before time, so the session
    /// ends instead of keeping another user's access token as "time only" (OIDC Core §12.2).
    @Test func aRefreshNamingAnotherUserEndsTheSessionEvenWhenItsTimesFailToo() async throws {
        let clock = ManualDate()
        clock.date.withLock { $0 = Date() }
        let provider = try Self.provider(now: { Date() })
        defer { provider.stop() }
        let store = InMemoryStore()
        let client = AuthClient(try Self.configuration(provider, store: store, now: clock.now))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        clock.advance(3600)
        provider.idTokenQuirks.refreshSubject = "mallory"
        await #expect(throws: SessionError(.idTokenRejected, "")) { _ = try await signIn.session.validAccessToken() }
        #expect(await signIn.session.state != .signedIn)
        #expect(try await Self.stored(store) == nil, "nothing of the refused refresh was kept")
    }

    /// `TokenClient` used directly as a session's refresher validates refreshed ID tokens too (with a key set
    /// fetched for the check).
    @Test func aTokenClientRefresherRefusesAnotherUsersIDToken() async throws {
        let provider = try Self.provider()
        defer { provider.stop() }
        let store = InMemoryStore()
        let client = AuthClient(try Self.configuration(provider, store: store))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        let tokens = try #require(await signIn.session.currentTokens)
        let refresher = TokenClient(
            metadata: try await client.metadata(), clientID: provider.clientID, transport: URLSessionTransport())
        let session = AuthSession(
            tokens: tokens, store: store, service: "oidc", account: "alice", refresher: refresher)
        let jwks = provider.count("jwks")
        provider.idTokenQuirks.refreshSubject = "mallory"
        await #expect(throws: SessionError(.idTokenRejected, "")) {
            try await session.refresh(ifCurrent: tokens.accessToken.unredacted())
        }
        #expect(provider.count("jwks") == jwks + 1)
        #expect(try await Self.stored(store) == nil)
    }

    @Test func withoutADateHeaderTheDeviceClockDecides() async throws {
        let measured = ProviderTime(serverDate: nil, receivedAt: Date())
        #expect(measured.offset == 0 && measured.measuredOffset == nil)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(ProviderTime(serverDate: now.addingTimeInterval(42), receivedAt: now).offset == 42)
        #expect(ProviderTime(serverDate: now.addingTimeInterval(601), receivedAt: now).offset == 0)
        #expect(ProviderTime(serverDate: now.addingTimeInterval(-601), receivedAt: now).offset == 0)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("yesterday") == nil)
        #expect(HTTPDate.parse(String(repeating: "Sun, 06 Nov 1994 08:49:37 GMT", count: 40_000)) == nil)
    }
}
