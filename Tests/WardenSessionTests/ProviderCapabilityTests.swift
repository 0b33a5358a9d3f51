import Foundation
import Testing
import WardenCore
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// What works with each provider, as its emulation announces only what the real one does (README: "What works with
/// each provider"): the sign-in and refresh always; revocation, RP-initiated logout and PAR where the provider has the
/// endpoint — and where it has none, Warden says so in the sign-out report instead of failing or guessing one.
@Suite("What works with each provider", .serialized)
struct ProviderCapabilityTests {
    static let bundleID = "com.example.app"
    static let tenant = "9188040d-6c67-4c5b-b112-36a304b66dad"

    struct Expectation: Sendable {
        let name: String
        let emulation: ProviderEmulation
        /// The preset at the provider's base URL and issuer.
        let preset: @Sendable (_ base: String, _ issuer: String) -> ProviderPreset
        let revokes: Bool
        let logsOut: Bool
        let pushes: Bool
    }

    static let cases: [Expectation] = [
        Expectation(
            name: "Auth0", emulation: .auth0, preset: { base, _ in .auth0(domain: base) }, revokes: true, logsOut: true,
            pushes: false),
        Expectation(
            name: "Auth0, older tenant", emulation: .auth0WithoutLogoutDiscovery,
            preset: { base, _ in .auth0(domain: base) },
            revokes: true, logsOut: false, pushes: false),
        Expectation(
            name: "Google", emulation: .google,
            preset: { ProviderPreset.google(clientID: "123-abc.apps.googleusercontent.com").at(issuer: $1) },
            revokes: true, logsOut: false, pushes: false),
        Expectation(
            name: "Okta", emulation: .okta, preset: { .okta(issuer: $1) }, revokes: true, logsOut: true,
            pushes: true),
        Expectation(
            name: "Keycloak", emulation: .keycloak, preset: { .keycloak(realmURL: $1) }, revokes: true,
            logsOut: true, pushes: true),
        Expectation(
            name: "Entra", emulation: .entra(tenant: tenant),
            preset: { ProviderPreset.entra(tenant: tenant).at(issuer: $1) }, revokes: false, logsOut: true,
            pushes: false),
    ]

    @Test(arguments: cases.indices)
    func eachProviderDoesWhatItAnnounces(_ index: Int) async throws {
        let expected = Self.cases[index]
        // The redirect each console registers (Auth0's names the domain's host, the same on every port).
        let registered = expected.preset("http://127.0.0.1:0", "http://127.0.0.1:0").redirectURI(
            bundleID: Self.bundleID)
        let provider = try LocalProvider(
            clientID: "123-abc.apps.googleusercontent.com", redirectURIs: [registered, "com.example.app:/logged-out"])
        defer { provider.stop() }
        provider.emulation = expected.emulation
        let preset = expected.preset(provider.base, provider.issuer)
        let redirect = preset.redirectURI(bundleID: Self.bundleID)
        // Google's preset carries its client ID: the configuration does not ask for it again.
        let client = AuthClient(
            preset.configuration(
                clientID: expected.name == "Google" ? nil : provider.clientID, redirectURI: try RedirectURI(redirect),
                store: InMemoryStore(), service: "svc",
                postLogoutRedirectURI: try RedirectURI("com.example.app:/logged-out")))
        let browser = ScriptedBrowser(transport: URLSessionTransport())
        let signIn = try await client.signIn(with: browser)
        #expect((provider.count("par") > 0) == expected.pushes, "\(expected.name): PAR only where announced")

        provider.expireAccessTokens()
        _ = try await signIn.session.validAccessToken(minTTL: 1e9)
        #expect(await signIn.session.refreshCount == 1, "\(expected.name): refresh")

        let report = await client.signOut(signIn.session, endingBrowserSessionWith: browser)
        #expect(report.localDataDeleted)
        switch report.revocation {
        case .revoked: #expect(expected.revokes, "\(expected.name) has no revocation endpoint")
        case .noEndpoint: #expect(!expected.revokes, "\(expected.name) announces revocation")
        default: Issue.record("\(expected.name): \(report.revocation)")
        }
        switch report.browserSession {
        case .ended: #expect(expected.logsOut, "\(expected.name) has no end_session_endpoint")
        case .failed(let reason):
            #expect(!expected.logsOut && reason.contains("no_end_session_endpoint"), "\(expected.name): \(reason)")
        default: Issue.record("\(expected.name): \(report.browserSession)")
        }
    }
}
