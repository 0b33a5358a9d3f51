import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE

/// The client-side state of one authorization request: PKCE verifier, `state`, `nonce` and the redirect. It
/// validates exactly one authorization response (RFC 6749 §4.1.2, RFC 9207, RFC 9700 §4.7).
///
/// Thread-safety: a final class whose one-time flag is lock-protected, so a second callback (a replay, a double
/// tap) is refused even when two arrive concurrently.
public final class PendingAuthorization: Sendable, CustomStringConvertible {
    /// The provider's issuer, from its metadata.
    public let issuer: String
    /// The `client_id` the request was made for.
    public let clientID: String
    /// The registered redirect URI the response must be sent to.
    public let redirectURI: RedirectURI
    /// The redirect actually sent (with the loopback port).
    public let redirect: String
    /// The PKCE verifier and S256 challenge the request used; the verifier goes into the token exchange.
    public let pkce: PKCE
    /// The `state` the request sent; the response must carry it back (compared in constant time).
    public let state: Redacted<String>
    /// The `nonce` the request sent, to check the ID token's `nonce` against; nil when none was sent.
    public let nonce: Redacted<String>?
    /// Whether the response must carry RFC 9207 `iss`.
    public let requireIssuer: Bool
    /// When the request was built.
    public let createdAt: Date
    /// The `max_age` the request sent: the ID token's `auth_time` must be within it.
    public let maxAge: TimeInterval?
    /// The `acr_values` the request sent: a returned `acr` must be one of them.
    public let acrValues: [String]?
    /// The multi-tenant template of ``issuer`` (``ProviderMetadata/issuerTemplate``), nil for a single issuer.
    public let issuerTemplate: TenantIssuerTemplate?
    private let used = Locked(false)

    /// The largest callback URL accepted.
    public static let maximumCallbackBytes = AuthorizationResponseValidator.maximumCallbackBytes
    /// The largest `code` accepted.
    public static let maximumCodeBytes = AuthorizationResponseValidator.maximumCodeBytes

    init(
        issuer: String, clientID: String, redirectURI: RedirectURI, redirect: String, pkce: PKCE,
        state: Redacted<String>, nonce: Redacted<String>?, requireIssuer: Bool, createdAt: Date,
        maxAge: TimeInterval? = nil, acrValues: [String]? = nil, issuerTemplate: TenantIssuerTemplate? = nil
    ) {
        self.issuerTemplate = issuerTemplate
        self.maxAge = maxAge
        self.acrValues = acrValues
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

    /// A copy that requires `iss` in the response even if the metadata did not announce it.
    public func requiringIssuer() -> PendingAuthorization {
        PendingAuthorization(
            issuer: issuer, clientID: clientID, redirectURI: redirectURI, redirect: redirect, pkce: pkce, state: state,
            nonce: nonce, requireIssuer: true, createdAt: createdAt, maxAge: maxAge, acrValues: acrValues,
            issuerTemplate: issuerTemplate)
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
        let validator = AuthorizationResponseValidator(
            redirectURI: redirectURI, state: state, issuer: issuer, requireIssuer: requireIssuer,
            issuerTemplate: issuerTemplate)
        let parameters = try validator.authenticate(callback)
        // Only an authentic response (right redirect, state and iss) uses up the pending request.
        try markUsed()
        return AuthorizationCode(code: try validator.code(from: parameters), pending: self, issuer: parameters["iss"])
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
    /// The authorization code (printable ASCII, at most ``AuthorizationResponseValidator/maximumCodeBytes``).
    public let code: Redacted<String>
    /// The pending request the code answers: its PKCE verifier, nonce and redirect go into the token exchange.
    public let pending: PendingAuthorization
    /// The response's RFC 9207 `iss`, when it carried one (already checked against the issuer or its template).
    public var issuer: String?

    /// A code with its pending request and the response's `iss`; it does no validation itself
    /// (``PendingAuthorization/validate(_:)`` does).
    public init(code: Redacted<String>, pending: PendingAuthorization, issuer: String? = nil) {
        self.code = code
        self.pending = pending
        self.issuer = issuer
    }
    public var description: String { "AuthorizationCode(<redacted>)" }
}
