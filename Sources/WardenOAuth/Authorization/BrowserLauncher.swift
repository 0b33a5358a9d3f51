import Foundation

/// Opens the authorization URL in the user's browser. Warden never signs in inside an embedded web view.
public protocol BrowserLauncher: Sendable {
    func open(_ url: URL) throws
}

/// The user-facing step of a sign-in: presents an ``AuthorizationRequest`` and returns the authorization code,
/// already validated against the request (state in constant time, redirect URI component by component, RFC 9207
/// `iss`, duplicates) by ``PendingAuthorization/validate(_:)``.
///
/// Implementations: `WebAuthenticationAgent` (Apple, `ASWebAuthenticationSession`), ``LoopbackBrowser`` (RFC 8252
/// loopback redirect with the system browser, macOS and Linux) and ``ScriptedBrowser`` (tests and demos). All three
/// are driven by the same `AuthClient.signIn(with:)`.
///
/// ```swift
/// let signIn = try await client.signIn(with: LoopbackBrowser())
/// ```
public protocol AuthorizationBrowser: Sendable {
    /// Presents `request`; `requireIssuer` demands RFC 9207 `iss` in the response.
    func authorize(_ request: AuthorizationRequest, requireIssuer: Bool) async throws -> AuthorizationCode
}
