import Foundation

/// Opens the authorization URL in the user's browser. Warden never signs in inside an embedded web view.
public protocol BrowserLauncher: Sendable {
    /// Opens `url` in the browser; throws when the browser cannot be launched.
    func open(_ url: URL) throws
}

/// The user-facing step of a sign-in: presents an ``AuthorizationRequest`` and returns the authorization code,
/// already validated against the request (state in constant time, redirect URI component by component, RFC 9207
/// `iss`, duplicates) by ``PendingAuthorization/validate(_:)``.
///
/// Implementations: `WebAuthenticationAgent` (Apple, `ASWebAuthenticationSession`), ``LoopbackBrowser`` (RFC 8252
/// loopback redirect with the system browser, macOS and Linux); tests and the demo use a scripted one. All are driven
/// by the same `AuthClient.signIn(with:)`.
///
/// ```swift
/// let signIn = try await client.signIn(with: LoopbackBrowser())
/// ```
public protocol AuthorizationBrowser: Sendable {
    /// Presents `request`; `requireIssuer` demands RFC 9207 `iss` in the response.
    func authorize(_ request: AuthorizationRequest, requireIssuer: Bool) async throws -> AuthorizationCode

    /// Opens an RP-initiated logout in the same browser (so the provider's cookie is the one that goes) and, when
    /// the request has a post-logout redirect, waits for the return and validates it
    /// (``EndSessionRequest/validateReturn(_:)``). The default refuses: a browser that cannot show the provider's
    /// page cannot end its session.
    func endSession(_ request: EndSessionRequest) async throws -> EndSessionOutcome

    /// The sign-in of `pending` is over: `error` is nil when the code exchange and the ID-token validation passed
    /// too. `AuthClient` calls it; a browser that shows its own page (``LoopbackBrowser``) answers it only now, so
    /// the page never says "Signed in" for a sign-in that was refused after the redirect. The default does nothing.
    func signInFinished(_ pending: PendingAuthorization, error: (any Error)?) async
}

extension AuthorizationBrowser {
    public func signInFinished(_ pending: PendingAuthorization, error: (any Error)?) async {}

    public func endSession(_ request: EndSessionRequest) async throws -> EndSessionOutcome {
        throw OAuthError(.browserFailed, "this browser cannot open the provider's logout page")
    }
}
