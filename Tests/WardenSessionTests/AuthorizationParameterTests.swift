import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

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
        } catch {
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
