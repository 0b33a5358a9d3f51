import WardenCore
import WardenCrypto
import WardenJOSE

/// The checks on an authorization response (RFC 6749 §4.1.2, RFC 9207, RFC 9700 §4.7), without the one-time
/// bookkeeping of ``PendingAuthorization``: `warden oauth callback` uses it for a request made elsewhere.
///
/// ``authenticate(_:)`` establishes that the response belongs to the request (registered redirect, no
/// credentials in the fragment, every parameter at most once, `state` equal in constant time — also on `error=`
/// responses — and `iss`); ``code(from:)`` then surfaces a provider error or returns a bounded, VSCHAR-only code.
public struct AuthorizationResponseValidator: Sendable {
    /// The largest callback URL accepted, in bytes (8 KiB).
    public static let maximumCallbackBytes = 8 * 1024
    /// The largest `code` accepted, in bytes (2 KiB).
    public static let maximumCodeBytes = 2 * 1024

    /// The redirect URI the response must be sent to (matched component by component).
    public let redirectURI: RedirectURI
    let state: Redacted<String>
    /// The expected issuer; nil when none is known, in which case a response carrying `iss` is refused.
    public let issuer: String?
    /// Whether the response must carry RFC 9207 `iss`.
    public let requireIssuer: Bool
    /// A multi-tenant provider's template (``ProviderMetadata/issuerTemplate``): `iss` may then be the template
    /// filled with an allowed tenant ID; the ID token must then come from that same issuer.
    public let issuerTemplate: TenantIssuerTemplate?

    /// A validator for a response to the request that used `redirectURI` and `state`; with `requireIssuer` a response
    /// without RFC 9207 `iss` is refused.
    public init(
        redirectURI: RedirectURI, state: Redacted<String>, issuer: String?, requireIssuer: Bool,
        issuerTemplate: TenantIssuerTemplate? = nil
    ) {
        self.redirectURI = redirectURI
        self.state = state
        self.issuer = issuer
        self.requireIssuer = requireIssuer
        self.issuerTemplate = issuerTemplate
    }

    /// The response's parameters, once it is shown to answer this request.
    public func authenticate(_ callback: String) throws(OAuthError) -> [String: String] {
        guard callback.utf8.count <= Self.maximumCallbackBytes else {
            throw OAuthError(.responseTooLarge, "callback URL over \(Self.maximumCallbackBytes) bytes")
        }
        let url = try StrictURL(callback)
        guard redirectURI.matches(url) else {
            throw OAuthError(.redirectMismatch, "the callback was not sent to the registered redirect URI")
        }
        if let fragment = url.fragment, !fragment.isEmpty {
            // A fragment that does not even decode is refused too: the credential check must not depend on it.
            guard let decoded = try? FormEncoding.decode(fragment) else {
                throw OAuthError(.malformedResponse, "the callback's fragment is not form-encoded")
            }
            let fragmentNames = decoded.map(\.0)
            if fragmentNames.contains("code") || fragmentNames.contains("access_token")
                || fragmentNames.contains("id_token")
            {
                throw OAuthError(.codeInFragment, "credentials in the fragment are refused for the query response mode")
            }
        }
        var parameters: [String: String] = [:]
        for (name, value) in try FormEncoding.decode(url.query ?? "") {
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
            guard let issuer else {
                throw OAuthError(.issuerMismatch, "the response has iss but no expected issuer is configured")
            }
            // Code points, byte for byte (RFC 9207 §2.4).
            guard CodePoints.equal(iss, issuer) || issuerTemplate?.tenant(in: iss) != nil else {
                throw OAuthError(.issuerMismatch, "iss is not the expected issuer (RFC 9207)")
            }
        } else if requireIssuer {
            throw OAuthError(.missingIssuer, "the provider sends iss (RFC 9207) but this response has none")
        }
        return parameters
    }

    /// The provider's error, or the authorization code.
    public func code(from parameters: [String: String]) throws(OAuthError) -> Redacted<String> {
        if let error = parameters["error"] {
            let code = OAuthError.Code.provider(error)
            throw OAuthError(
                code, "the provider answered \(code == .providerError ? "an error" : error)",
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
        return Redacted(code)
    }
}
