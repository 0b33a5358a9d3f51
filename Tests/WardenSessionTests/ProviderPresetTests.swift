import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

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

    /// Okta's custom authorization server: issuer `…/oauth2/default` (a trailing slash given is dropped), refresh
    /// tokens only for `offline_access`, which the preset asks for.
    @Test func okta() async throws {
        let preset = ProviderPreset.okta(issuer: "https://example.okta.com/oauth2/default/")
        #expect(preset.issuer == "https://example.okta.com/oauth2/default")
        let redirect = preset.redirectURI(bundleID: Self.bundleID)
        #expect(redirect == "com.example.app:/callback")
        let provider = try LocalProvider(clientID: "okta-app", redirectURIs: [redirect])
        defer { provider.stop() }
        provider.emulation = .okta
        let local = ProviderPreset.okta(issuer: provider.issuer + "/")
        #expect(local.issuer == provider.issuer)
        let (stored, done) = try await signIn(local, provider: provider)
        #expect(stored.refreshToken != nil && stored.issuer == provider.issuer)
        #expect(try done.claims?.issuer == provider.issuer)
        #expect(provider.observations.authorizationParameters["scope"] == "openid profile offline_access")

        // Without offline_access (a configuration that dropped it) Okta issues no refresh token.
        var plain = local
        plain.scopes = ["openid", "profile"]
        let (withoutOffline, _) = try await signIn(plain, provider: provider)
        #expect(withoutOffline.refreshToken == nil)
    }

    /// Keycloak's realm: issuer `…/realms/{realm}`, refresh tokens without `offline_access` (which would make an
    /// offline session), so the preset does not ask for it.
    @Test func keycloak() async throws {
        let redirect = ProviderPreset.keycloak(realmURL: "https://k/realms/r").redirectURI(bundleID: Self.bundleID)
        let provider = try LocalProvider(clientID: "app", redirectURIs: [redirect])
        defer { provider.stop() }
        provider.emulation = .keycloak
        let preset = ProviderPreset.keycloak(realmURL: provider.issuer)
        #expect(preset.issuer == provider.issuer && provider.issuer.hasSuffix("/realms/demo"))
        let (stored, _) = try await signIn(preset, provider: provider)
        #expect(stored.refreshToken != nil)
        #expect(provider.observations.authorizationParameters["scope"] == "openid profile")
    }

    static let tenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
    static let otherTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"

    /// One Entra tenant: the GUID issuer `…/{tenant}/v2.0`, `msauth.{bundle}://auth`, refresh tokens for
    /// `offline_access`.
    @Test func entraSingleTenant() async throws {
        let redirect = ProviderPreset.entra(tenant: Self.tenant).redirectURI(bundleID: Self.bundleID)
        #expect(redirect == "msauth.com.example.app://auth")
        #expect(ProviderPreset.entra(tenant: "t").issuer == "https://login.microsoftonline.com/t/v2.0")
        let provider = try LocalProvider(clientID: "app", redirectURIs: [redirect])
        defer { provider.stop() }
        provider.emulation = .entra(tenant: Self.tenant)
        let preset = ProviderPreset.entra(tenant: Self.tenant).at(issuer: provider.issuer)
        let (stored, done) = try await signIn(preset, provider: provider)
        #expect(stored.refreshToken != nil && stored.issuer == provider.base + "/\(Self.tenant)/v2.0")
        #expect(try done.claims?.string("tid") == Self.tenant)

        // The multi-tenant document without the opt-in: issuer_mismatch, naming the template and the fix.
        let common = AuthClient(
            .init(
                issuer: provider.base + "/common/v2.0", clientID: "app", redirectURI: try RedirectURI(redirect),
                store: InMemoryStore(), service: "svc"))
        let error = await #expect(throws: OAuthError.self) { _ = try await common.metadata() }
        #expect(error?.code == .issuerMismatch)
        #expect(error?.reason.contains("{tenantid}") == true && error?.reason.contains("entraMultiTenant") == true)
    }

    /// Multi-tenant, opted in: discovery announces the `{tenantid}` template; the ID token's `iss` is its tenant's
    /// issuer and its `tid` fills the template; the session is stored under the tenant's issuer and refreshes.
    @Test func entraMultiTenant() async throws {
        let preset = try ProviderPreset.entraMultiTenant()
        #expect(preset.issuer == "https://login.microsoftonline.com/common/v2.0")
        #expect(preset.issuerTemplate?.template == "https://login.microsoftonline.com/{tenantid}/v2.0")
        let redirect = preset.redirectURI(bundleID: Self.bundleID)
        let provider = try LocalProvider(clientID: "app", redirectURIs: [redirect])
        defer { provider.stop() }
        provider.emulation = .entra(tenant: Self.tenant)
        let local = preset.at(issuer: provider.base + "/common/v2.0")
        #expect(local.issuerTemplate?.template == provider.base + "/{tenantid}/v2.0")

        let store = InMemoryStore()
        let client = AuthClient(
            local.configuration(
                clientID: "app", redirectURI: try RedirectURI(redirect), store: store, service: "svc"))
        #expect(try await client.metadata().issuer == provider.base + "/{tenantid}/v2.0")
        let done = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(try done.claims?.issuer == provider.issuer)
        #expect(provider.observations.issuerSent == provider.issuer, "the RFC 9207 iss named the tenant")
        let stored = try TokenSet(encoded: try #require(await store.load(service: "svc", account: "default")))
        #expect(stored.issuer == provider.issuer, "stored under the tenant's issuer, not the template")
        let first = try await done.session.validAccessToken()
        let refreshed = try await done.session.refresh(ifCurrent: first)
        #expect(refreshed != first && provider.count("token.refresh_token") == 1)
        #expect(await done.session.state == .signedIn)
        let again = try TokenSet(encoded: try #require(await store.load(service: "svc", account: "default")))
        #expect(again.issuer == provider.issuer, "the refresh kept the tenant's issuer")
    }

    /// The template admits only a token whose `iss` is filled with its own `tid`, from an allowed tenant; every
    /// refusal stores nothing.
    @Test func entraMultiTenantRefusals() async throws {
        let redirect = "msauth.com.example.app://auth"
        let provider = try LocalProvider(clientID: "app", redirectURIs: [redirect])
        defer { provider.stop() }
        provider.emulation = .entra(tenant: Self.tenant)
        func attempt(_ preset: ProviderPreset) async throws -> (any Error, String?) {
            let store = InMemoryStore()
            let client = AuthClient(
                preset.at(issuer: provider.base + "/common/v2.0").configuration(
                    clientID: "app", redirectURI: try RedirectURI(redirect), store: store, service: "svc"))
            do {
                _ = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
                Issue.record("signed in")
                return (CancellationError(), nil)
            } catch {
                #expect(try await store.load(service: "svc", account: "default") == nil)
                return (error, error.claimCode)
            }
        }

        // A tenant the app does not admit: already its RFC 9207 iss is refused, before the code is exchanged (the
        // ID-token check of the same rule is TenantIssuerTests').
        let (notAllowed, _) = try await attempt(try .entraMultiTenant(allowedTenants: [Self.otherTenant]))
        #expect((notAllowed as? OAuthError)?.code == .issuerMismatch, "\(notAllowed)")
        #expect(provider.count("token.authorization_code") == 0)

        // A token whose tid names another tenant than its iss.
        provider.idTokenQuirks.tenantClaim = Self.otherTenant
        let (mismatch, mismatchCode) = try await attempt(try .entraMultiTenant())
        #expect(mismatchCode == "issuer_mismatch", "\(mismatch)")

        // A token without tid, or with one that is not a tenant ID.
        provider.idTokenQuirks.tenantClaim = "contoso"
        let (_, notGUID) = try await attempt(try .entraMultiTenant())
        #expect(notGUID == "invalid_claim")
        provider.idTokenQuirks.tenantClaim = nil
        provider.idTokenQuirks.omitTenantClaim = true
        let (withoutTid, withoutTidCode) = try await attempt(try .entraMultiTenant())
        #expect(withoutTidCode == "missing_claim" && "\(withoutTid)".contains("no tid"))
        provider.idTokenQuirks.omitTenantClaim = false
        // And the same provider with the same tenant still signs in: the refusals were the tokens'.
        _ = try await ProviderPresetTests().signIn(
            try ProviderPreset.entraMultiTenant(allowedTenants: [Self.tenant.uppercased()]).at(
                issuer: provider.base + "/common/v2.0"), provider: provider)

        // The authorization response names one tenant (RFC 9207 iss), the ID token another — each valid on its own:
        // a mix-up, refused after the exchange, nothing stored.
        provider.idTokenQuirks.issuer = provider.base + "/\(Self.otherTenant)/v2.0"
        provider.idTokenQuirks.tenantClaim = Self.otherTenant
        let (mixUp, _) = try await attempt(try .entraMultiTenant())
        #expect((mixUp as? OAuthError)?.code == .issuerMismatch && "\(mixUp)".contains("different tenants"))
        provider.idTokenQuirks = LocalProvider.IDTokenQuirks()

        // A template without openid: refused before the browser opens (only the ID token names the tenant).
        var noOpenID = try ProviderPreset.entraMultiTenant().at(issuer: provider.base + "/common/v2.0")
        noOpenID.scopes = ["profile", "offline_access"]
        let before = provider.count("authorize")
        let (withoutOpenID, _) = try await attempt(noOpenID)
        #expect((withoutOpenID as? OAuthError)?.code == .invalidConfiguration)
        #expect(provider.count("authorize") == before, "the browser never opened")

        // A template is moved to an https or loopback issuer only; otherwise it is dropped and discovery fails closed.
        #expect(try ProviderPreset.entraMultiTenant().at(issuer: "ftp://x/common/v2.0").issuerTemplate == nil)

        // Configuration: only the three audiences, only GUIDs as tenants, one placeholder in an https path.
        #expect(throws: JOSEError.self) { try ProviderPreset.entraMultiTenant(audience: "contoso.com") }
        #expect(throws: JOSEError.self) { try ProviderPreset.entraMultiTenant(allowedTenants: ["contoso"]) }
        #expect(throws: JOSEError.self) { try ProviderPreset.entraMultiTenant(allowedTenants: []) }
        #expect(throws: JOSEError.self) { try TenantIssuerTemplate("https://{tenantid}.example.com/") }
        #expect(throws: JOSEError.self) { try TenantIssuerTemplate("https://e.com/{tenantid}/{tenantid}") }
        #expect(throws: JOSEError.self) { try TenantIssuerTemplate("http://e.com/{tenantid}/v2.0") }
    }

    @Test func presetValues() {
        #expect(!ProviderPreset.keycloak(realmURL: "https://k/realms/r").scopes.contains("offline_access"))
        #expect(ProviderPreset.auth0(domain: "example.us.auth0.com").issuer == "https://example.us.auth0.com/")
        #expect(ProviderPreset.okta(issuer: "https://example.okta.com").issuer == "https://example.okta.com")
    }

    /// Auth0 serves the association file for `https://{domain}/ios/{bundle}/callback` (Auth0.swift's `useHTTPS()`);
    /// the other presets have no provider-served universal link.
    @Test func universalLinkRedirects() throws {
        let auth0 = ProviderPreset.auth0(domain: "example.us.auth0.com")
        let https = try #require(auth0.httpsRedirectURI(bundleID: "com.example.app"))
        #expect(https == "https://example.us.auth0.com/ios/com.example.app/callback")
        #expect(try RedirectURI(https).string == https, "a claimed https redirect is a valid registration")
        #expect(auth0.at(issuer: "https://login.example.com/").httpsRedirectURI(bundleID: "a.b") != nil)
        #expect(ProviderPreset.okta(issuer: "https://example.okta.com").httpsRedirectURI(bundleID: "a.b") == nil)
        #expect(
            ProviderPreset.google(clientID: "1-x.apps.googleusercontent.com").httpsRedirectURI(bundleID: "a") == nil)
    }

    /// Google's client ID is given once: the preset carries it, an explicit one still wins.
    @Test func googlesClientIDIsGivenOnce() throws {
        let preset = ProviderPreset.google(clientID: "123-abc.apps.googleusercontent.com")
        let redirect = try RedirectURI(preset.redirectURI(bundleID: "com.example.app"))
        #expect(
            preset.configuration(redirectURI: redirect, store: InMemoryStore(), service: "s").clientID
                == "123-abc.apps.googleusercontent.com")
        #expect(
            preset.configuration(clientID: "other", redirectURI: redirect, store: InMemoryStore(), service: "s")
                .clientID == "other")
        #expect(
            ProviderPreset.okta(issuer: "https://o.okta.com").configuration(
                redirectURI: redirect, store: InMemoryStore(), service: "s"
            ).clientID.isEmpty, "no client ID anywhere: refused at sign-in as invalid_configuration")
    }
}

/// A preset takes the options an app sets beside the provider's (the reinstall check, the post-logout redirect), and
/// the client's configuration is read without `await`.
@Suite("Preset options")
struct PresetOptionTests {
    @Test func aPresetCarriesTheSentinelAndThePostLogoutRedirect() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("warden-preset-\(UUID())/marker")
        let configuration = ProviderPreset.okta(issuer: "https://example.okta.com/oauth2/default").configuration(
            clientID: "0oa1", redirectURI: try RedirectURI("com.example.app:/callback"), store: InMemoryStore(),
            service: "svc", sentinel: InstallSentinel(appID: "com.example.app", markerFile: marker),
            postLogoutRedirectURI: try RedirectURI("com.example.app:/logged-out"))
        #expect(configuration.sentinel?.appID == "com.example.app")
        #expect(configuration.postLogoutRedirectURI?.string == "com.example.app:/logged-out")
        let client = AuthClient(configuration)
        // Synchronous: `configuration` is a nonisolated value (this line does not compile otherwise).
        let read: AuthClient.Configuration = client.configuration
        #expect(read.clientID == "0oa1" && read.service == "svc")
    }
}
