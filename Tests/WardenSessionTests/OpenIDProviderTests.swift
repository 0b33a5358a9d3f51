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
            return error as? OAuthError
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

/// Provider parameters through the façade: what the configuration and the sign-in ask for is what the provider
/// observed, in the URL and in a pushed request; what they imply (`max_age`, `acr_values`) is checked.
@Suite("Authorization parameters", .serialized)
struct AuthorizationParameterTests {
    typealias T = OpenIDProviderTests

    static func configured(_ provider: LocalProvider, store: any CredentialStore) throws -> AuthClient.Configuration {
        var configuration = try T.configuration(provider, store: store)
        configuration.authorizationParameters.audience = "https://api.example.com"
        configuration.authorizationParameters.uiLocales = ["de-CH", "en"]
        configuration.authorizationParameters.resources = ["https://api.example.com/v1"]
        configuration.authorizationParameters.additional = [("display", "touch")]
        configuration.tokenParameters = [("resource", "https://api.example.com/v1")]
        return configuration
    }

    @Test(arguments: [false, true])
    func defaultsAndPerSignInParametersReachTheProvider(pushed: Bool) async throws {
        let provider = try T.provider()
        defer { provider.stop() }
        var configuration = try Self.configured(provider, store: InMemoryStore())
        configuration.pushedAuthorization = pushed
        let client = AuthClient(configuration)
        var override = AuthorizationParameters()
        override.prompt = [.selectAccount, .consent]
        override.loginHint = "alice@example.com"
        override.maxAge = 600
        override.acrValues = ["urn:mfa"]
        let signIn = try await client.signIn(
            with: ScriptedBrowser(transport: URLSessionTransport()), parameters: override)
        let seen = provider.observations
        #expect(seen.pushed == pushed)
        #expect(seen.authorizationParameters["audience"] == "https://api.example.com")
        #expect(seen.authorizationParameters["resource"] == "https://api.example.com/v1")
        #expect(seen.authorizationParameters["ui_locales"] == "de-CH en")
        #expect(seen.authorizationParameters["display"] == "touch")
        #expect(seen.authorizationParameters["prompt"] == "select_account consent")
        #expect(seen.authorizationParameters["login_hint"] == "alice@example.com")
        #expect(seen.authorizationParameters["max_age"] == "600")
        #expect(seen.authorizationParameters["acr_values"] == "urn:mfa")
        #expect(seen.tokenParameters == ["resource": "https://api.example.com/v1"], "the code exchange carried them")
        #expect(try signIn.claims?.subject == "alice@example.com", "login_hint chose the account")
        provider.expireAccessTokens()
        _ = try await signIn.session.refresh(ifCurrent: try await signIn.session.validAccessToken())
        #expect(provider.observations.tokenParameters == ["resource": "https://api.example.com/v1"], "and the refresh")
        // The next sign-in without an override is back to the configuration's parameters.
        _ = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(provider.observations.authorizationParameters["prompt"] == nil)
        #expect(provider.observations.authorizationParameters["audience"] == "https://api.example.com")
    }

    @Test func maxAgeRequiresAFreshEnoughAuthentication() async throws {
        let provider = try T.provider()
        defer { provider.stop() }
        let store = InMemoryStore()
        let client = AuthClient(try T.configuration(provider, store: store))
        _ = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        provider.ageBrowserSession(by: 3600)
        var strict = AuthorizationParameters()
        strict.maxAge = 60
        // An honest provider re-authenticates the user…
        let fresh = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()), parameters: strict)
        #expect(provider.observations.freshAuthentication)
        #expect(try fresh.claims?.date("auth_time") != nil)
        // …one that ignores max_age hands back the old authentication, which is refused.
        provider.ageBrowserSession(by: 3600)
        provider.idTokenQuirks.ignoreMaxAge = true
        let before = try await T.stored(store)
        do {
            _ = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()), parameters: strict)
            Issue.record("an authentication older than max_age was accepted")
        } catch let error as OAuthError {
            #expect(error.reason.contains("auth_time_too_old"), "\(error)")
        }
        #expect(try await T.stored(store) == before, "the refused sign-in stored nothing")
    }

    @Test func aReturnedACROutsideTheRequestedValuesIsRefused() async throws {
        let provider = try T.provider()
        defer { provider.stop() }
        provider.idTokenQuirks.acr = "urn:password"
        var configuration = try T.configuration(provider, store: InMemoryStore())
        configuration.authorizationParameters.acrValues = ["urn:mfa"]
        let error = await T.signInError(AuthClient(configuration))
        #expect(error?.reason.contains("acr_mismatch") == true, "\(String(describing: error))")
        provider.idTokenQuirks.acr = "urn:mfa"
        _ = try await AuthClient(configuration).signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        let name: String
        let change: @Sendable (inout AuthClient.Configuration) -> Void
        var testDescription: String { name }
    }

    static let refused: [Refused] = [
        Refused(name: "state as an extra parameter") { $0.authorizationParameters.additional = [("state", "x")] },
        Refused(name: "code_challenge_method") {
            $0.authorizationParameters.additional = [("code_challenge_method", "plain")]
        },
        Refused(name: "max_age as an untyped extra") { $0.authorizationParameters.additional = [("max_age", "0")] },
        Refused(name: "prompt=none with login") { $0.authorizationParameters.prompt = [.none, .login] },
        Refused(name: "negative max_age") { $0.authorizationParameters.maxAge = -1 },
        Refused(name: "a resource with a fragment") { $0.authorizationParameters.resources = ["https://api/#x"] },
        Refused(name: "a relative resource") { $0.authorizationParameters.resources = ["api/v1"] },
        Refused(name: "a control character in login_hint") { $0.authorizationParameters.loginHint = "a\u{0}b" },
        Refused(name: "an acr value with a space") { $0.authorizationParameters.acrValues = ["urn:a urn:b"] },
        Refused(name: "a megabyte login_hint") {
            $0.authorizationParameters.loginHint = String(repeating: "a", count: 1 << 20)
        },
        Refused(name: "grant_type as a token parameter") { $0.tokenParameters = [("grant_type", "password")] },
        Refused(name: "code_verifier as a token parameter") { $0.tokenParameters = [("code_verifier", "x")] },
    ]

    @Test(arguments: refused)
    func reservedAndMalformedParametersAreRefusedBeforeTheBrowserOpens(_ bad: Refused) async throws {
        let provider = try T.provider()
        defer { provider.stop() }
        var configuration = try T.configuration(provider, store: InMemoryStore())
        bad.change(&configuration)
        let error = await T.signInError(AuthClient(configuration))
        #expect(error?.code == .invalidConfiguration, "\(String(describing: error))")
        #expect(provider.count("authorize") == 0 && provider.count("par") == 0, "nothing reached the provider")
    }

    @Test func pairsFillTheTypedFieldsSoTheirChecksApply() throws {
        let parameters = try AuthorizationParameters(pairs: [
            ("max_age", "0"), ("prompt", "login"), ("resource", "https://a.example"), ("resource", "https://b.example"),
            ("audience", "api"), ("display", "page"),
        ])
        #expect(parameters.maxAge == 0 && parameters.prompt == [.login] && parameters.audience == "api")
        #expect(parameters.resources == ["https://a.example", "https://b.example"])
        #expect(parameters.additional.map(\.0) == ["display"])
        #expect(throws: OAuthError(.invalidConfiguration)) { try AuthorizationParameters(pairs: [("max_age", "soon")]) }
        #expect(throws: OAuthError(.invalidConfiguration)) {
            try AuthorizationParameters(pairs: [("prompt", "always")])
        }
        #expect(throws: OAuthError(.invalidConfiguration)) { try AuthorizationParameters(pairs: [("nonce", "n")]) }
        var defaults = AuthorizationParameters()
        defaults.prompt = [.login]
        defaults.additional = [("display", "page"), ("x", "1")]
        var mine = AuthorizationParameters()
        mine.additional = [("display", "touch")]
        let merged = mine.merged(over: defaults)
        #expect(merged.prompt == [.login])
        #expect(merged.additional.map { "\($0.0)=\($0.1)" } == ["x=1", "display=touch"])
    }
}

/// A local process that races the browser: it answers the loopback redirect itself with a forged `state` (and keeps
/// the page it got), then the real browser follows the provider to the listener.
struct ForgingUserAgent: BrowserLauncher {
    static let page = Locked("")

    func open(_ url: URL) throws {
        let redirect =
            URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "redirect_uri" }?.value ?? ""
        Task {
            let response = try await URLSessionTransport().send(
                HTTPRequest(url: URL(string: redirect + "?error=access_denied&state=forged")!))
            Self.page.withLock { $0 = String(decoding: response.body, as: UTF8.self) }
            try CapturingUserAgent().open(url)
        }
    }
}

/// The page a user agent kept, once it has one (up to 5 s).
func page(_ box: Locked<String>) async throws -> String {
    for _ in 0..<50 where box.current.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
    return box.current
}

/// A user agent that follows the provider's redirects to the loopback listener, as a browser would, and keeps
/// the page the listener answered.
struct CapturingUserAgent: BrowserLauncher {
    static let page = Locked("")

    func open(_ url: URL) throws {
        Task {
            var next = url
            for _ in 0..<6 {
                let response = try await URLSessionTransport().send(HTTPRequest(url: next, timeout: 20))
                guard (300..<400).contains(response.status), let location = response.header("Location"),
                    let target = URL(string: location, relativeTo: next)?.absoluteURL
                else {
                    Self.page.withLock { $0 = String(decoding: response.body, as: UTF8.self) }
                    return
                }
                next = target
            }
        }
    }
}

/// RP-initiated logout and account switching through `AuthClient`, against the in-process provider, which keeps
/// one browser session (the system browser's cookie) and signs whoever it holds straight back in.
@Suite("RP-initiated logout", .serialized)
struct LogoutTests {
    typealias T = OpenIDProviderTests

    static func client(_ provider: LocalProvider, store: any CredentialStore) throws -> AuthClient {
        var configuration = try T.configuration(provider, store: store)
        configuration.postLogoutRedirectURI = try RedirectURI("com.example.app:/oauth/callback")
        return AuthClient(configuration)
    }

    static func hint(_ account: String) -> AuthorizationParameters {
        var parameters = AuthorizationParameters()
        parameters.loginHint = account
        return parameters
    }

    @Test func endingTheBrowserSessionIsWhatLetsTheNextSignInBeAnotherAccount() async throws {
        let provider = try T.provider()
        defer { provider.stop() }
        let store = InMemoryStore()
        let client = try Self.client(provider, store: store)
        let browser = ScriptedBrowser(transport: URLSessionTransport())
        let alice = try await client.signIn(with: browser, parameters: Self.hint("alice"))
        #expect(try alice.claims?.subject == "alice")
        // A plain sign-out leaves the provider's cookie: "switching" to bob signs alice straight back in.
        let plain = await alice.session.signOut()
        #expect(plain.browserSession == .kept)
        let stillAlice = try await client.signIn(with: browser, parameters: Self.hint("bob"))
        #expect(try stillAlice.claims?.subject == "alice")
        // Ending the browser session too: the provider verified the hint, came back with the state, and forgot alice.
        let report = await client.signOut(stillAlice.session, endingBrowserSessionWith: browser)
        #expect(report.browserSession == .ended, "\(report.browserSession)")
        #expect(report.localDataDeleted && report.revocation == .revoked(tokenType: "refresh_token"))
        let logout = try #require(provider.observations.logout)
        #expect(logout.idTokenHintValid && logout.stateReturned && logout.browserSessionEnded)
        #expect(logout.redirectedTo == T.redirect)
        #expect(!provider.browserSessionActive)
        #expect(try await T.stored(store) == nil)
        let bob = try await client.signIn(with: browser, parameters: Self.hint("bob"))
        #expect(try bob.claims?.subject == "bob")
        #expect(provider.observations.freshAuthentication)
    }

    @Test func promptLoginSwitchesAccountsWithoutALogout() async throws {
        let provider = try T.provider()
        defer { provider.stop() }
        let client = try Self.client(provider, store: InMemoryStore())
        let browser = ScriptedBrowser(transport: URLSessionTransport())
        _ = try await client.signIn(with: browser, parameters: Self.hint("alice"))
        var switching = Self.hint("bob")
        switching.prompt = [.login]
        let bob = try await client.signIn(with: browser, parameters: switching)
        #expect(try bob.claims?.subject == "bob" && provider.observations.freshAuthentication)
    }

    /// A browser whose logout "returns" with a forged state, as a page that fakes the provider's redirect would.
    struct ForgedReturnBrowser: AuthorizationBrowser {
        func authorize(_ request: AuthorizationRequest, requireIssuer: Bool) async throws -> AuthorizationCode {
            try await ScriptedBrowser(transport: URLSessionTransport()).authorize(request, requireIssuer: requireIssuer)
        }
        func endSession(_ request: EndSessionRequest) async throws -> EndSessionOutcome {
            try request.validateReturn(T.redirect + "?state=forged")
            return .confirmed
        }
    }

    @Test func aForgedReturnIsNotTakenForAnEndedSessionAndTheLocalSignOutStands() async throws {
        let provider = try T.provider()
        defer { provider.stop() }
        let store = InMemoryStore()
        let client = try Self.client(provider, store: store)
        let signIn = try await client.signIn(with: ForgedReturnBrowser())
        let report = await client.signOut(signIn.session, endingBrowserSessionWith: ForgedReturnBrowser())
        guard case .failed(let reason) = report.browserSession else {
            Issue.record("a forged return was accepted: \(report.browserSession)")
            return
        }
        #expect(reason.contains("state_mismatch"))
        let left = try await T.stored(store)
        #expect(report.localDataDeleted && left == nil)
        #expect(provider.count("end_session") == 0)
    }

    @Test func aProviderWithoutAnEndSessionEndpointSaysSo() async throws {
        let provider = try T.provider()
        defer { provider.stop() }
        let discovered = try await AuthClient(try T.configuration(provider, store: InMemoryStore())).metadata()
        let metadata = try ProviderMetadata(
            issuer: discovered.issuer, authorizationEndpoint: discovered.authorizationEndpoint,
            tokenEndpoint: discovered.tokenEndpoint, jwksURI: discovered.jwksURI,
            authorizationResponseIssParameterSupported: true)
        let store = InMemoryStore()
        let client = AuthClient(
            .init(
                provider: .metadata(metadata), clientID: provider.clientID, redirectURI: try RedirectURI(T.redirect),
                store: store, service: "oidc", account: "alice"))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        let report = await client.signOut(
            signIn.session, endingBrowserSessionWith: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(
            report.browserSession
                == .failed(reason: "no_end_session_endpoint: the provider announces no end_session_endpoint"))
        #expect(report.localDataDeleted && provider.browserSessionActive)
    }

    @Test func theLoopbackBrowserEndsTheSessionAndItsPageSaysSignedOut() async throws {
        let provider = try LocalProvider(clientID: "desktop")
        defer { provider.stop() }
        var configuration = AuthClient.Configuration(
            issuer: provider.issuer, clientID: provider.clientID,
            redirectURI: try RedirectURI("http://127.0.0.1/callback"), store: InMemoryStore(), service: "svc")
        configuration.postLogoutRedirectURI = try RedirectURI("http://127.0.0.1/logged-out")
        let client = AuthClient(configuration)
        let pages = FileManager.default.temporaryDirectory.appendingPathComponent("warden-pages-\(UUID())")
        defer { try? FileManager.default.removeItem(at: pages) }
        let browser = LoopbackBrowser(
            launcher: CommandBrowser(command: "curl -s -L -o '\(pages.path)'"), timeout: .seconds(20))
        let signIn = try await client.signIn(with: browser)
        // The logout's browser writes its own file, so the sign-in's page cannot be mistaken for it.
        let logoutPage = pages.appendingPathExtension("logout")
        defer { try? FileManager.default.removeItem(at: logoutPage) }
        let logoutBrowser = LoopbackBrowser(
            launcher: CommandBrowser(command: "curl -s -L -o '\(logoutPage.path)'"), timeout: .seconds(20))
        let report = await client.signOut(signIn.session, endingBrowserSessionWith: logoutBrowser)
        #expect(report.browserSession == .ended, "\(report.browserSession)")
        #expect(provider.observations.logout?.redirectedTo?.hasPrefix("http://127.0.0.1:") == true)
        // curl wrote the final page the loopback listener answered.
        for _ in 0..<50 where !((try? String(contentsOf: logoutPage, encoding: .utf8))?.contains("</p>") ?? false) {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try String(contentsOf: logoutPage, encoding: .utf8).contains("<title>Signed out</title>"))
    }

    /// A response that validated but whose ID token is then refused: the page waits for the whole sign-in and
    /// names the refusal — it never said "Signed in".
    @Test func aSignInRefusedAfterTheRedirectNeverShowsSignedIn() async throws {
        let provider = try LocalProvider(clientID: "desktop")
        defer { provider.stop() }
        provider.idTokenQuirks.omitSubject = true
        let client = AuthClient(
            .init(
                issuer: provider.issuer, clientID: provider.clientID,
                redirectURI: try RedirectURI("http://127.0.0.1/callback"), store: InMemoryStore(), service: "svc"))
        CapturingUserAgent.page.withLock { $0 = "" }
        let browser = LoopbackBrowser(launcher: CapturingUserAgent(), timeout: .seconds(20))
        await #expect(throws: OAuthError(.invalidIDToken)) { try await client.signIn(with: browser) }
        let body = try await page(CapturingUserAgent.page)
        #expect(body.contains("Sign-in refused") && body.contains("invalid_id_token") && !body.contains("Signed in"))
        // And a sign-in that passes says so.
        provider.idTokenQuirks.omitSubject = false
        CapturingUserAgent.page.withLock { $0 = "" }
        _ = try await client.signIn(with: browser)
        #expect(try await page(CapturingUserAgent.page).contains("<title>Signed in</title>"))
    }

    /// Any local process can reach the loopback listener: one that arrives first with a forged state (a fake
    /// `access_denied`) gets an error page naming the code, never "Signed in", and cannot end the sign-in — the real
    /// callback still completes it.
    @Test func aForgedLoopbackRequestIsRefusedAndTheSignInGoesOn() async throws {
        let provider = try LocalProvider(clientID: "desktop")
        defer { provider.stop() }
        var configuration = AuthClient.Configuration(
            issuer: provider.issuer, clientID: provider.clientID,
            redirectURI: try RedirectURI("http://127.0.0.1/callback"), store: InMemoryStore(), service: "svc")
        configuration.pushedAuthorization = false  // the forging agent reads redirect_uri from the URL
        let client = AuthClient(configuration)
        let browser = LoopbackBrowser(launcher: ForgingUserAgent(), timeout: .seconds(20))
        let signIn = try await client.signIn(with: browser)
        let body = try await page(ForgingUserAgent.page)
        #expect(body.contains("Sign-in refused") && body.contains("state_mismatch") && !body.contains("Signed in"))
        #expect(await signIn.session.state == .signedIn)
        #expect(provider.count("token.authorization_code") == 1, "only the real code was exchanged")
    }
}
