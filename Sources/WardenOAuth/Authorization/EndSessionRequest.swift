import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE

/// An RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): opens the provider's `end_session_endpoint`
/// in the same browser the sign-in used, so the provider's session cookie is gone and the next sign-in asks who
/// the user is — the only way to switch accounts without an ephemeral browser session (which loses SSO).
///
/// The request carries `id_token_hint` (the session's ID token: the provider knows whose session to end without
/// asking), `client_id`, and — when one is registered — `post_logout_redirect_uri` with a 256-bit `state` that the
/// return must carry back (compared in constant time; the redirect component by component), so a forged "you are
/// signed out" redirect is refused.
///
/// ```swift
/// let logout = try EndSessionRequest(
///     metadata: metadata, clientID: "app", idTokenHint: tokens.idToken?.unredacted(),
///     postLogoutRedirectURI: try RedirectURI("com.example.app:/logged-out"))
/// let outcome = try await WebAuthenticationAgent { window }.endSession(logout)
/// ```
public struct EndSessionRequest: Sendable, CustomStringConvertible {
    /// The provider's issuer; a return carrying `iss` must equal it.
    public let issuer: String
    /// The provider's `end_session_endpoint`.
    public let endpoint: URL
    /// The `client_id` sent with the request.
    public let clientID: String
    /// The session's ID token, sent as `id_token_hint`; nil to send none.
    public let idTokenHint: Redacted<String>?
    /// Where the provider sends the browser back (registered with it); nil to end the session without a return.
    public let postLogoutRedirectURI: RedirectURI?
    /// The 256-bit random `state` sent with the post-logout redirect, which the return must carry back.
    public let state: Redacted<String>
    /// `ui_locales` for the provider's logout page.
    public let uiLocales: [String]

    /// A logout request; throws ``OAuthError/Code/noEndSessionEndpoint`` when the provider announces none.
    public init(
        metadata: ProviderMetadata, clientID: String, idTokenHint: String?, postLogoutRedirectURI: RedirectURI?,
        uiLocales: [String] = [], random: some RandomSource = SecureRandom()
    ) throws(OAuthError) {
        guard let endpoint = metadata.endSessionEndpoint else {
            throw OAuthError(.noEndSessionEndpoint, "the provider announces no end_session_endpoint")
        }
        self.issuer = metadata.issuer
        self.endpoint = endpoint
        self.clientID = clientID
        self.idTokenHint = idTokenHint.map(Redacted.init)
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.uiLocales = uiLocales
        do { state = Redacted(Base64URL.encode(try random.bytes(count: 32))) } catch {
            throw OAuthError(.invalidConfiguration, "the system random source failed")
        }
    }

    /// The URL to open; `redirectOverride` is the concrete loopback redirect (with its port) when there is one.
    public func url(redirectOverride: String? = nil) throws(OAuthError) -> URL {
        var parameters: [(String, String)] = [("client_id", clientID)]
        if let idTokenHint { parameters.append(("id_token_hint", idTokenHint.unredacted())) }
        if let redirect = redirectOverride ?? postLogoutRedirectURI?.string {
            parameters += [("post_logout_redirect_uri", redirect), ("state", state.unredacted())]
        }
        if !uiLocales.isEmpty { parameters.append(("ui_locales", uiLocales.joined(separator: " "))) }
        let base = endpoint.absoluteString
        guard let url = URL(string: base + (base.contains("?") ? "&" : "?") + FormEncoding.encode(parameters)) else {
            throw OAuthError(.invalidConfiguration, "cannot build the logout URL")
        }
        return url
    }

    /// Checks the browser's return to the post-logout redirect: sent to the registered redirect (component-wise),
    /// every parameter at most once, `state` equal in constant time, an `iss` (if any) equal to the issuer, no
    /// provider `error`.
    public func validateReturn(_ callback: String) throws(OAuthError) {
        guard let postLogoutRedirectURI else {
            throw OAuthError(.invalidConfiguration, "this logout has no post_logout_redirect_uri to return to")
        }
        let validator = AuthorizationResponseValidator(
            redirectURI: postLogoutRedirectURI, state: state, issuer: issuer, requireIssuer: false)
        let parameters = try validator.authenticate(callback)
        if let error = parameters["error"] {
            let code = OAuthError.Code.provider(error)
            throw OAuthError(
                code, "the provider answered \(code == .providerError ? "an error" : error) to the logout",
                providerDescription: parameters["error_description"])
        }
    }

    public var description: String {
        "EndSessionRequest(endpoint: \(endpoint.absoluteString), id_token_hint: \(idTokenHint == nil ? "nil" : "<redacted>"), state: <redacted>)"
    }
}

/// What an ``AuthorizationBrowser`` could tell about an RP-initiated logout.
public enum EndSessionOutcome: Sendable, Equatable {
    /// The provider sent the browser back to the post-logout redirect with the right `state`: its session ended.
    case confirmed
    /// The logout page was opened; without a post-logout redirect there is nothing to confirm.
    case opened
}
