import Foundation
import WardenCore
import WardenCrypto

/// The client-side state of one authorization request: PKCE verifier, `state`, `nonce` and the redirect. It
/// validates exactly one authorization response (RFC 6749 §4.1.2, RFC 9207, RFC 9700 §4.7).
///
/// Thread-safety: a final class whose one-time flag is lock-protected, so a second callback (a replay, a double
/// tap) is refused even when two arrive concurrently.
public final class PendingAuthorization: Sendable, CustomStringConvertible {
    public let issuer: String
    public let clientID: String
    public let redirectURI: RedirectURI
    /// The redirect actually sent (with the loopback port).
    public let redirect: String
    public let pkce: PKCE
    public let state: Redacted<String>
    public let nonce: Redacted<String>?
    /// Whether the response must carry RFC 9207 `iss`.
    public let requireIssuer: Bool
    public let createdAt: Date
    private let used = Locked(false)

    /// The largest callback URL accepted.
    public static let maximumCallbackBytes = 8 * 1024
    /// The largest `code` accepted.
    public static let maximumCodeBytes = 2 * 1024

    init(
        issuer: String, clientID: String, redirectURI: RedirectURI, redirect: String, pkce: PKCE,
        state: Redacted<String>, nonce: Redacted<String>?, requireIssuer: Bool, createdAt: Date
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.redirect = redirect
        self.pkce = pkce
        self.state = state
        self.nonce = nonce
        self.requireIssuer = requireIssuer
        self.createdAt = createdAt
    }

    /// A pending request rebuilt from a known `state` (for `warden oauth callback`, which validates a response
    /// for a request made elsewhere).
    public static func forValidation(issuer: String, redirectURI: RedirectURI, state: String, requireIssuer: Bool)
        -> PendingAuthorization
    {
        PendingAuthorization(
            issuer: issuer, clientID: "", redirectURI: redirectURI, redirect: redirectURI.string,
            pkce: try! PKCE(verifier: String(repeating: "x", count: 43)), state: Redacted(state), nonce: nil,
            requireIssuer: requireIssuer, createdAt: Date())
    }

    /// A copy that requires `iss` in the response even if the metadata did not announce it.
    public func requiringIssuer() -> PendingAuthorization {
        PendingAuthorization(
            issuer: issuer, clientID: clientID, redirectURI: redirectURI, redirect: redirect, pkce: pkce, state: state,
            nonce: nonce, requireIssuer: true, createdAt: createdAt)
    }

    public var description: String { "PendingAuthorization(issuer: \(issuer), state: <redacted>)" }

    /// Validates the callback URL the app received and returns the authorization code.
    ///
    /// Rules: the URL is sent to the registered redirect (component-wise); every parameter appears at most once;
    /// `state` matches in constant time — also on `error=` responses, so a forged error cannot cancel a sign-in;
    /// `iss` equals the issuer when present and is required when the provider announced it; a `code` in the
    /// fragment is refused (query response mode); `code` is present, non-empty and bounded; the pending request
    /// is used once.
    public func validate(_ callback: String) throws(OAuthError) -> AuthorizationCode {
        guard callback.utf8.count <= Self.maximumCallbackBytes else {
            throw OAuthError(.responseTooLarge, "callback URL over \(Self.maximumCallbackBytes) bytes")
        }
        let url = try StrictURL(callback)
        guard redirectURI.matches(url) else {
            throw OAuthError(.redirectMismatch, "the callback was not sent to the registered redirect URI")
        }
        if let fragment = url.fragment, !fragment.isEmpty {
            let fragmentNames = (try? FormEncoding.decode(fragment))?.map(\.0) ?? []
            if fragmentNames.contains("code") || fragmentNames.contains("access_token") {
                throw OAuthError(.codeInFragment, "credentials in the fragment are refused for the query response mode")
            }
        }
        let pairs = try FormEncoding.decode(url.query ?? "")
        var parameters: [String: String] = [:]
        for (name, value) in pairs {
            guard parameters[name] == nil else {
                throw OAuthError(
                    .duplicateParameter, "the parameter '\(name.count <= 32 ? name : "…")' appears more than once")
            }
            parameters[name] = value
        }
        guard let receivedState = parameters["state"] else {
            throw OAuthError(.stateMismatch, "the response has no state")
        }
        guard ConstantTime.equals(receivedState, state.unredacted()) else {
            throw OAuthError(.stateMismatch, "state does not match the pending request")
        }
        if let iss = parameters["iss"] {
            guard iss == issuer else { throw OAuthError(.issuerMismatch, "iss is not the expected issuer (RFC 9207)") }
        } else if requireIssuer {
            throw OAuthError(.missingIssuer, "the provider sends iss (RFC 9207) but this response has none")
        }
        try markUsed()
        if let error = parameters["error"] {
            let code = OAuthError.Code.provider(error)
            throw OAuthError(
                code, "the provider answered \(code.description == "provider_error" ? "an error" : error)",
                providerDescription: parameters["error_description"])
        }
        guard let code = parameters["code"], !code.isEmpty else {
            throw OAuthError(.missingCode, "the response has no code")
        }
        guard code.utf8.count <= Self.maximumCodeBytes else {
            throw OAuthError(.responseTooLarge, "authorization code over \(Self.maximumCodeBytes) bytes")
        }
        guard code.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {  // VSCHAR, RFC 6749 Appendix A.11
            throw OAuthError(.malformedResponse, "the code contains characters outside %x20-7E")
        }
        return AuthorizationCode(code: Redacted(code), pending: self)
    }

    private func markUsed() throws(OAuthError) {
        let wasUsed = used.withLock { used -> Bool in
            defer { used = true }
            return used
        }
        if wasUsed { throw OAuthError(.unknownState, "this authorization request was already completed") }
    }
}

/// A validated authorization code with the pending request it belongs to (for the token exchange).
public struct AuthorizationCode: Sendable, CustomStringConvertible {
    public let code: Redacted<String>
    public let pending: PendingAuthorization
    public var description: String { "AuthorizationCode(<redacted>)" }
}
