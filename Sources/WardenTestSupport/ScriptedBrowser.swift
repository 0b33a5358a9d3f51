import Foundation
import WardenCore
import WardenOAuth

/// An ``AuthorizationBrowser`` without a user, for tests and demos against providers that approve without a form
/// (WardenLocalProvider, a test provider with a pre-approved client): it requests the authorization URL, follows
/// the provider's redirects (at most 5) and stops at the one that goes to the request's redirect URI, which it
/// validates like any browser's callback. Never for production: a real sign-in needs the user's browser.
///
/// ```swift
/// let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
/// ```
package struct ScriptedBrowser: AuthorizationBrowser {
    let transport: any HTTPTransport
    let headers: [String: String]

    /// - Parameter headers: sent with every request (e.g. a test provider's session cookie).
    package init(transport: any HTTPTransport, headers: [String: String] = [:]) {
        self.transport = transport
        self.headers = headers
    }

    package func authorize(_ request: AuthorizationRequest, requireIssuer: Bool) async throws -> AuthorizationCode {
        var (url, pending) = try await request.prepare()
        if requireIssuer { pending = pending.requiringIssuer() }
        for _ in 0..<5 {
            let response = try await transport.send(HTTPRequest(url: url, headers: headers, timeout: 10))
            guard (300..<400).contains(response.status), let location = response.header("Location"),
                let next = URL(string: location, relativeTo: url)?.absoluteURL
            else {
                throw OAuthError(
                    .accessDenied, "the provider did not redirect back (HTTP \(response.status)); it may need a user")
            }
            if next.absoluteString.hasPrefix(pending.redirect) { return try pending.validate(next.absoluteString) }
            url = next
        }
        throw OAuthError(.malformedResponse, "too many redirects before the callback")
    }

    /// Requests the logout URL and follows the provider's redirects to the post-logout redirect, which it validates;
    /// without one, a 2xx page is the end.
    package func endSession(_ request: EndSessionRequest) async throws -> EndSessionOutcome {
        var url = try request.url()
        for _ in 0..<5 {
            let response = try await transport.send(HTTPRequest(url: url, headers: headers, timeout: 10))
            if (200..<300).contains(response.status), request.postLogoutRedirectURI == nil { return .opened }
            guard (300..<400).contains(response.status), let location = response.header("Location"),
                let next = URL(string: location, relativeTo: url)?.absoluteURL
            else {
                throw OAuthError(
                    .browserFailed,
                    "the provider did not send the browser back after the logout (HTTP \(response.status))")
            }
            if let redirect = request.postLogoutRedirectURI, next.absoluteString.hasPrefix(redirect.string) {
                try request.validateReturn(next.absoluteString)
                return .confirmed
            }
            url = next
        }
        throw OAuthError(.malformedResponse, "too many redirects during the logout")
    }
}
