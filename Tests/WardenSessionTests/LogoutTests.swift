import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

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
