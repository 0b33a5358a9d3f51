import Foundation
import Testing
import WardenCore
import WardenLocalProvider

/// `warden login` against providers that misbehave, and with provider parameters; `warden logout --end-session`.
@Suite("warden login/logout as providers behave", .serialized)
struct OpenIDCommandTests {
    static let browser = ["--browser", "curl -s -L -o /dev/null", "--timeout", "20"]

    struct Bad: CustomTestStringConvertible, Sendable {
        let name: String
        var skew: TimeInterval = 0
        var quirk: @Sendable (inout LocalProvider.IDTokenQuirks) -> Void = { _ in }
        let code: String
        var testDescription: String { name }
    }

    static let bad: [Bad] = [
        Bad(name: "no sub", quirk: { $0.omitSubject = true }, code: "missing_claim"),
        Bad(
            name: "an untrusted audience", quirk: { $0.extraAudiences = ["https://other.example"] },
            code: "audience_mismatch"),
        Bad(name: "the provider's clock an hour ahead", skew: 3600, code: "issued_in_future"),
    ]

    @Test(arguments: bad)
    func loginRefusesTheIDTokenAndStoresNothing(_ bad: Bad) async throws {
        let skew = bad.skew
        let provider = try LocalProvider(clientID: "cli-test", now: { Date().addingTimeInterval(skew) })
        defer { provider.stop() }
        bad.quirk(&provider.idTokenQuirks)
        let home = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let login = await OAuthCommandTests.login(provider, home: home)
        #expect(login.status == 1, "\(login.stdout) \(login.stderr)")
        #expect(login.stderr.contains("invalid_id_token") && login.stderr.contains(bad.code), "\(login.stderr)")
        let tokens = home + "/.local/state/warden/insecure-credentials"
        let stored = (FileManager.default.enumerator(atPath: tokens)?.compactMap { $0 as? String } ?? [])
            .filter { !$0.hasPrefix(".locks") && !$0.hasSuffix(".lock") }
        #expect(stored.isEmpty, "\(stored)")
    }

    @Test func loginPassesParametersAndLogoutEndsTheBrowserSession() async throws {
        let provider = try LocalProvider(clientID: "cli-test")
        defer { provider.stop() }
        let home = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let login = await CLI.run(
            [
                "login", "--issuer", provider.issuer, "--client-id", provider.clientID, "--param", "prompt=login",
                "--param", "login_hint=bob", "--param", "max_age=300", "--param", "audience=https://api.example.com",
                "--token-param", "resource=https://api.example.com",
            ] + Self.browser + OAuthCommandTests.fileStore, home: home)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Signed in as bob"))
        let seen = provider.observations
        #expect(seen.authorizationParameters["prompt"] == "login" && seen.authorizationParameters["max_age"] == "300")
        #expect(seen.authorizationParameters["audience"] == "https://api.example.com")
        #expect(seen.tokenParameters == ["resource": "https://api.example.com"])
        #expect(provider.browserSessionActive)
        let logout = await CLI.run(
            ["logout", "--end-session"] + Self.browser + OAuthCommandTests.fileStore, home: home)
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(logout.stdout.contains("browser session was ended"), "\(logout.stdout) \(logout.stderr)")
        #expect(provider.observations.logout?.idTokenHintValid == true)
        #expect(provider.observations.logout?.stateReturned == true)
        #expect(!provider.browserSessionActive)
    }

    @Test func aTrustedAudienceIsAcceptedAndKeptForRefreshes() async throws {
        let provider = try LocalProvider(clientID: "cli-test")
        defer { provider.stop() }
        provider.idTokenQuirks.extraAudiences = ["https://api.example.com"]
        let home = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let login = await CLI.run(
            [
                "login", "--issuer", provider.issuer, "--client-id", provider.clientID, "--trusted-audience",
                "https://api.example.com",
            ] + Self.browser + OAuthCommandTests.fileStore, home: home)
        #expect(login.status == 0, "\(login.stderr)")
        provider.expireAccessTokens()
        let token = await CLI.run(["token", "--min-ttl", "86400"] + OAuthCommandTests.fileStore, home: home)
        #expect(token.status == 0, "the refreshed ID token with the same trusted audience passed: \(token.stderr)")
        #expect(provider.count("token.refresh_token") == 1)
        let untrusting = await CLI.run(
            ["login", "--issuer", provider.issuer, "--client-id", provider.clientID] + Self.browser
                + OAuthCommandTests.fileStore, home: home)
        #expect(untrusting.status == 1 && untrusting.stderr.contains("audience_mismatch"), "\(untrusting.stderr)")
    }

    @Test func aLogoutWhoseBrowserSessionCouldNotBeEndedIsExit1AfterTheLocalSignOut() async throws {
        let provider = try LocalProvider(clientID: "cli-test")
        defer { provider.stop() }
        let home = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        _ = await OAuthCommandTests.login(provider, home: home)
        // A "browser" that never comes back: the listener times out.
        let logout = await CLI.run(
            ["logout", "--end-session", "--browser", "true", "--timeout", "1"] + OAuthCommandTests.fileStore,
            home: home)
        #expect(logout.status == 1, "\(logout.stdout) \(logout.stderr)")
        #expect(logout.stderr.contains("end_session_failed") && logout.stdout.contains("local tokens deleted"))
        #expect(provider.browserSessionActive)
        let usage = await CLI.run(["logout", "--browser", "firefox"] + OAuthCommandTests.fileStore, home: home)
        #expect(usage.status == 2, "--browser without --end-session is refused, not ignored")
    }

    @Test func reservedAndMalformedParametersAreUsageErrors() async throws {
        let provider = try LocalProvider(clientID: "cli-test")
        defer { provider.stop() }
        for extra in [
            ["--param", "state=mine"], ["--param", "nonce=n"], ["--param", "noequals"], ["--param", "=v"],
            ["--param", "max_age=soon"], ["--param", "prompt=none login"], ["--token-param", "grant_type=password"],
            ["--param", "response_mode=fragment"],
        ] {
            let run = await CLI.run(
                ["login", "--issuer", provider.issuer, "--client-id", provider.clientID] + extra + Self.browser
                    + OAuthCommandTests.fileStore, home: CLI.temporaryHome())
            #expect(run.status == 2, "\(extra): \(run.stderr)")
        }
        #expect(provider.count("authorize") == 0)
    }
}
