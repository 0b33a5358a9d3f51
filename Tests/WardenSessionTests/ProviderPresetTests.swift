import Foundation
import Testing
import WardenCore
import WardenLocalProvider
import WardenStorage

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// Each preset signs in against the local provider behaving like that provider: the issuer form it announces, the
/// redirect form its console registers, the scopes and parameters that get a refresh token there.
@Suite("Provider presets", .serialized)
struct ProviderPresetTests {
    static let bundleID = "com.example.app"

    /// Signs in with `preset` (its redirect registered at the provider) and returns what was stored and observed.
    func signIn(_ preset: ProviderPreset, provider: LocalProvider) async throws -> (TokenSet, AuthClient.SignIn) {
        let store = InMemoryStore()
        let client = AuthClient(
            preset.configuration(
                clientID: provider.clientID, redirectURI: try RedirectURI(preset.redirectURI(bundleID: Self.bundleID)),
                store: store, service: "svc"))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        let stored = try TokenSet(encoded: try #require(await store.load(service: "svc", account: "default")))
        return (stored, signIn)
    }

    /// Auth0 announces `https://{domain}/`, registers `{bundle}://{domain}/ios/{bundle}/callback`, and takes the API as
    /// `audience`.
    @Test func auth0() async throws {
        let preset = ProviderPreset.auth0(domain: "http://127.0.0.1:0", audience: "https://api.example.com")
        let redirect = preset.redirectURI(bundleID: Self.bundleID)
        #expect(redirect == "com.example.app://127.0.0.1/ios/com.example.app/callback")
        let provider = try LocalProvider(clientID: "auth0-app", redirectURIs: [redirect])
        defer { provider.stop() }
        provider.emulation = .auth0
        #expect(provider.issuer.hasSuffix("/"))
        let local = ProviderPreset.auth0(domain: provider.base, audience: "https://api.example.com")
        #expect(local.issuer == provider.issuer, "the preset adds Auth0's trailing slash")
        let (stored, signIn) = try await signIn(local, provider: provider)
        #expect(stored.refreshToken != nil && stored.issuer == provider.issuer)
        #expect(try signIn.claims?.issuer == provider.issuer)
        #expect(provider.observations.authorizationParameters["audience"] == "https://api.example.com")

        // Without the slash the configuration error names both issuers and the fix.
        let wrong = AuthClient(
            .init(
                issuer: provider.base, clientID: provider.clientID, redirectURI: try RedirectURI(redirect),
                store: InMemoryStore(), service: "svc"))
        let error = await #expect(throws: OAuthError.self) { _ = try await wrong.metadata() }
        #expect(error?.code == .issuerMismatch)
        #expect(
            error?.reason.contains("\"\(provider.issuer)\"") == true && error?.reason.contains("trailing slash") == true
        )
    }

    /// Google announces its scopes without `offline_access` (asking for it is `invalid_scope`) and issues refresh
    /// tokens for `access_type=offline`.
    @Test func google() async throws {
        let clientID = "123-abc.apps.googleusercontent.com"
        let preset = ProviderPreset.google(clientID: clientID)
        let redirect = preset.redirectURI(bundleID: Self.bundleID)
        #expect(redirect == "com.googleusercontent.apps.123-abc:/oauthredirect")
        let provider = try LocalProvider(clientID: clientID, redirectURIs: [redirect])
        defer { provider.stop() }
        provider.emulation = .google
        let (stored, _) = try await signIn(preset.at(issuer: provider.issuer), provider: provider)
        #expect(stored.refreshToken != nil, "access_type=offline got a refresh token")
        #expect(provider.observations.authorizationParameters["access_type"] == "offline")
        #expect(provider.observations.authorizationParameters["scope"] == "openid email profile")

        // The library defaults (openid offline_access) follow discovery: offline_access is not sent, so the sign-in
        // works — without a refresh token, which only the preset's access_type asks for.
        let defaults = AuthClient(
            .init(
                issuer: provider.issuer, clientID: clientID, redirectURI: try RedirectURI(redirect),
                store: InMemoryStore(), service: "svc"))
        let plain = try await defaults.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(await plain.session.currentTokens?.refreshToken == nil)
        #expect(provider.observations.authorizationParameters["scope"] == "openid")
    }

    /// Asking a Google-like provider for a scope it does not announce is refused with a typed error, not `cancelled`.
    @Test func anUnannouncedScopeIsInvalidScope() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: ["com.example.app:/cb"])
        defer { provider.stop() }
        provider.emulation = .google
        let client = AuthClient(
            .init(
                issuer: provider.issuer, clientID: "app", redirectURI: try RedirectURI("com.example.app:/cb"),
                scopes: ["openid", "calendar"], store: InMemoryStore(), service: "svc"))
        await #expect(throws: OAuthError(.invalidScope)) {
            _ = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        }
    }

    @Test func entraOktaAndKeycloak() async throws {
        for make in [
            { (base: String) in ProviderPreset.entra(tenant: "contoso.onmicrosoft.com").at(issuer: base) },
            { (base: String) in ProviderPreset.okta(issuer: base + "/") },
            { (base: String) in ProviderPreset.keycloak(realmURL: base) },
        ] {
            let sample = make("http://127.0.0.1:1")
            let redirect = sample.redirectURI(bundleID: Self.bundleID)
            let provider = try LocalProvider(clientID: "app", redirectURIs: [redirect])
            defer { provider.stop() }
            let preset = make(provider.base)
            #expect(preset.issuer == provider.issuer, "\(preset.name): the issuer form")
            let (stored, _) = try await signIn(preset, provider: provider)
            #expect(stored.refreshToken != nil, "\(preset.name)")
        }
        #expect(
            ProviderPreset.entra(tenant: "t").redirectURI(bundleID: "com.example.app")
                == "msauth.com.example.app://auth")
        #expect(ProviderPreset.entra(tenant: "t").issuer == "https://login.microsoftonline.com/t/v2.0")
        #expect(!ProviderPreset.keycloak(realmURL: "https://k/realms/r").scopes.contains("offline_access"))
        #expect(ProviderPreset.auth0(domain: "example.us.auth0.com").issuer == "https://example.us.auth0.com/")
    }
}
