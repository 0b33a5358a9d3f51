import Foundation
import WardenCore
import WardenJOSE
import WardenOAuth
import WardenStorage

/// What a provider needs beyond the RFCs, as a value: its issuer in the exact form it announces, the scopes and
/// parameters that get a refresh token there, and the redirect form its console registers.
///
/// ```swift
/// let preset = ProviderPreset.auth0(domain: "example.us.auth0.com", audience: "https://api.example.com")
/// let client = AuthClient(
///     preset.configuration(
///         clientID: "Ab12...", redirectURI: try RedirectURI(preset.redirectURI(bundleID: "com.example.app")),
///         store: KeychainStore(), service: "com.example.app.tokens"))
/// ```
///
/// | preset | issuer | refresh tokens | redirect to register |
/// |---|---|---|---|
/// | ``auth0(domain:audience:)`` | `https://{domain}/` (with the slash) | `offline_access`; `audience` for an API | `{bundle}://{domain}/ios/{bundle}/callback` |
/// | ``okta(issuer:)`` | the org or authorization-server URL, no slash | `offline_access` | `{bundle}:/callback` |
/// | ``google(clientID:)`` | `https://accounts.google.com` | `access_type=offline` (no `offline_access`) | `com.googleusercontent.apps.{id}:/oauthredirect` |
/// | ``entra(tenant:)`` | `https://login.microsoftonline.com/{tenant}/v2.0` | `offline_access` | `msauth.{bundle}://auth` |
/// | ``entraMultiTenant(audience:allowedTenants:)`` | discovery at `…/common/v2.0`; each token's `…/{tid}/v2.0` | `offline_access` | `msauth.{bundle}://auth` |
/// | ``keycloak(realmURL:)`` | `https://{host}/realms/{realm}` | issued by default (`offline_access` makes offline sessions) | `{bundle}:/callback` |
public struct ProviderPreset: Sendable {
    /// The provider's name, for messages.
    public let name: String
    /// The issuer exactly as the provider announces it.
    public let issuer: String
    /// The scopes the configuration requests (with `offline_access` where the provider needs it to issue a
    /// refresh token).
    public var scopes: [String]
    /// Provider parameters of every sign-in (Google's `access_type=offline`, Auth0's `audience`).
    public var authorizationParameters: AuthorizationParameters
    /// Audiences an ID token may name besides the client ID.
    public var trustedAudiences: Set<String>
    /// The multi-tenant issuer template the configuration opts in to (``entraMultiTenant(audience:allowedTenants:)``).
    public var issuerTemplate: TenantIssuerTemplate?
    /// The client ID when the preset was made with it (``google(clientID:)``, whose redirect derives from it): the
    /// configuration then needs it no second time.
    public var clientID: String?
    private let redirectTemplate: @Sendable (String) -> String
    private var httpsRedirectTemplate: (@Sendable (String) -> String)?

    /// The redirect URI this provider's console expects for an app with `bundleID`.
    public func redirectURI(bundleID: String) -> String { redirectTemplate(bundleID) }

    /// The universal-link (`https`) redirect the provider serves an `apple-app-site-association` for, where it does
    /// (Auth0: `https://{domain}/ios/{bundle}/callback`, as Auth0.swift's `useHTTPS()`), else nil. iOS 17.4, macOS
    /// 14.4 and visionOS 1.1 match it with `ASWebAuthenticationSession.Callback.https(host:path:)`; before that
    /// `WebAuthenticationAgent` refuses it (`invalid_redirect_uri`) — keep ``redirectURI(bundleID:)`` for those. The
    /// app needs `webcredentials:{host}` in its Associated Domains, and the provider your Team ID and bundle ID (Auth0:
    /// the application's Advanced Settings → Device Settings), so that the host's association file names the app.
    public func httpsRedirectURI(bundleID: String) -> String? { httpsRedirectTemplate?(bundleID) }

    /// An ``AuthClient/Configuration`` with this provider's settings, its tokens one item per account in `store`
    /// (``ItemTokenStore``).
    ///
    /// `clientID` may be left out where the preset has one (``google(clientID:)``); an empty client ID is refused at
    /// sign-in (`invalid_configuration`).
    @_disfavoredOverload
    public func configuration(
        clientID: String? = nil, redirectURI: RedirectURI, store: any CredentialStore, service: String,
        account: String = "default", transport: any HTTPTransport = URLSessionTransport(),
        sentinel: InstallSentinel? = nil, postLogoutRedirectURI: RedirectURI? = nil
    ) -> AuthClient.Configuration {
        configuration(
            clientID: clientID, redirectURI: redirectURI, store: ItemTokenStore(store), service: service,
            account: account, transport: transport, sentinel: sentinel, postLogoutRedirectURI: postLogoutRedirectURI)
    }

    /// An ``AuthClient/Configuration`` with this provider's settings over a token store (a ``SplitTokenStore``, as
    /// `SessionStores.forThisDevice` makes).
    ///
    /// - Parameters:
    ///   - sentinel: the reinstall check (``InstallSentinel``) run before the first restore.
    ///   - postLogoutRedirectURI: where RP-initiated logout returns (registered with the provider).
    public func configuration(
        clientID: String? = nil, redirectURI: RedirectURI, store: any TokenStore, service: String,
        account: String = "default", transport: any HTTPTransport = URLSessionTransport(),
        sentinel: InstallSentinel? = nil, postLogoutRedirectURI: RedirectURI? = nil
    ) -> AuthClient.Configuration {
        var configuration = AuthClient.Configuration(
            issuer: issuer, clientID: clientID ?? self.clientID ?? "", redirectURI: redirectURI, scopes: scopes,
            store: store,
            service: service, account: account, transport: transport)
        configuration.authorizationParameters = authorizationParameters
        configuration.trustedAudiences = trustedAudiences
        configuration.issuerTemplate = issuerTemplate
        configuration.sentinel = sentinel
        configuration.postLogoutRedirectURI = postLogoutRedirectURI
        return configuration
    }

    init(
        name: String, issuer: String, scopes: [String], parameters: AuthorizationParameters = AuthorizationParameters(),
        redirect: @escaping @Sendable (String) -> String
    ) {
        self.name = name
        self.issuer = issuer
        self.scopes = scopes
        authorizationParameters = parameters
        trustedAudiences = []
        redirectTemplate = redirect
    }

    /// Auth0: the issuer is `https://{domain}/` **with** the trailing slash; `audience` (an API identifier) makes the
    /// access token a JWT for that API.
    public static func auth0(domain: String, audience: String? = nil) -> ProviderPreset {
        var parameters = AuthorizationParameters()
        parameters.audience = audience
        let (origin, host) = Self.origin(domain)
        var preset = ProviderPreset(
            name: "Auth0", issuer: origin + "/", scopes: ["openid", "profile", "offline_access"],
            parameters: parameters, redirect: { "\($0)://\(host)/ios/\($0)/callback" })
        preset.httpsRedirectTemplate = { "https://\(host)/ios/\($0)/callback" }
        return preset
    }

    /// Okta: the org (`https://{org}.okta.com`) or a custom authorization server
    /// (`https://{org}.okta.com/oauth2/default`), as given, without a trailing slash.
    public static func okta(issuer: String) -> ProviderPreset {
        ProviderPreset(
            name: "Okta", issuer: Self.withoutTrailingSlash(issuer), scopes: ["openid", "profile", "offline_access"],
            redirect: { "\($0):/callback" })
    }

    /// Google: no `offline_access` (it is `invalid_scope` there); `access_type=offline` asks for a refresh token. The
    /// iOS redirect is the reversed client ID.
    public static func google(clientID: String) -> ProviderPreset {
        var parameters = AuthorizationParameters()
        parameters.additional = [("access_type", "offline")]
        let prefix =
            clientID.hasSuffix(".apps.googleusercontent.com")
            ? String(clientID.dropLast(".apps.googleusercontent.com".count)) : clientID
        var preset = ProviderPreset(
            name: "Google", issuer: "https://accounts.google.com", scopes: ["openid", "email", "profile"],
            parameters: parameters, redirect: { _ in "com.googleusercontent.apps.\(prefix):/oauthredirect" })
        preset.clientID = clientID
        return preset
    }

    /// Microsoft Entra ID (v2.0 endpoints) for one tenant, by its tenant ID (a GUID): Entra announces the GUID issuer
    /// even when discovered through a domain (`contoso.onmicrosoft.com`), so a domain fails with `issuer_mismatch`.
    /// The multi-tenant discovery documents (`common`, `organizations`, `consumers`) announce a `{tenantid}` template
    /// issuer that no ID token carries; use the tenant's own issuer.
    public static func entra(tenant: String) -> ProviderPreset {
        ProviderPreset(
            name: "Microsoft Entra", issuer: "https://login.microsoftonline.com/\(tenant)/v2.0",
            scopes: ["openid", "profile", "offline_access"], redirect: { "msauth.\($0)://auth" })
    }

    /// Microsoft Entra ID for users of any tenant (or of `allowedTenants`): discovery at
    /// `https://login.microsoftonline.com/{audience}/v2.0` (`common`, `organizations` or `consumers`), which
    /// announces the `{tenantid}` template. Opting in accepts that template and checks each ID token's `iss` against
    /// it filled with the token's own `tid` (``TenantIssuerTemplate``); the session is stored under the tenant's
    /// issuer.
    ///
    /// - Throws: ``JOSEErrorDomain/Code/invalidConfiguration`` when `audience` is not one of the three or an allowed tenant
    ///   is not a tenant ID (a GUID).
    public static func entraMultiTenant(audience: String = "common", allowedTenants: Set<String>? = nil)
        throws(JOSEError) -> ProviderPreset
    {
        guard ["common", "organizations", "consumers"].contains(audience) else {
            throw JOSEError(.invalidConfiguration, "the multi-tenant audiences are common, organizations, consumers")
        }
        var preset = ProviderPreset(
            name: "Microsoft Entra", issuer: "https://login.microsoftonline.com/\(audience)/v2.0",
            scopes: ["openid", "profile", "offline_access"], redirect: { "msauth.\($0)://auth" })
        preset.issuerTemplate = try TenantIssuerTemplate.entra(allowedTenants: allowedTenants)
        return preset
    }

    /// Keycloak: the realm URL (`https://{host}/realms/{realm}`). Refresh tokens are issued without
    /// `offline_access`, which would make a Keycloak offline session instead.
    public static func keycloak(realmURL: String) -> ProviderPreset {
        ProviderPreset(
            name: "Keycloak", issuer: Self.withoutTrailingSlash(realmURL), scopes: ["openid", "profile"],
            redirect: { "\($0):/callback" })
    }

    /// The preset with another issuer: the same provider's rules at another address (a sovereign cloud, a local
    /// emulation in tests). An issuer template moves to the new issuer's origin; one that cannot (an issuer that is
    /// not an https or loopback URL) is dropped, so discovery then fails closed with `issuer_mismatch`.
    public func at(issuer: String) -> ProviderPreset {
        var moved = ProviderPreset(
            name: name, issuer: issuer, scopes: scopes, parameters: authorizationParameters, redirect: redirectTemplate)
        moved.trustedAudiences = trustedAudiences
        moved.clientID = clientID
        moved.httpsRedirectTemplate = httpsRedirectTemplate
        if let issuerTemplate, let scheme = issuer.range(of: "://") {
            let rest = issuer[scheme.upperBound...]
            let origin = issuer[..<(rest.firstIndex(of: "/") ?? issuer.endIndex)]
            moved.issuerTemplate = try? issuerTemplate.at(origin: String(origin))
        }
        return moved
    }

    /// `https://{domain}` (or the origin given, `http://127.0.0.1:port` for a local emulation) and its host without
    /// the port.
    private static func origin(_ domain: String) -> (origin: String, host: String) {
        let trimmed = withoutTrailingSlash(domain)
        let origin = trimmed.contains("://") ? trimmed : "https://" + trimmed
        let authority = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init)
        let host = authority.map { String($0.split(separator: ":").first ?? Substring($0)) } ?? trimmed
        return (origin, host)
    }

    private static func withoutTrailingSlash(_ text: String) -> String {
        var text = text
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
