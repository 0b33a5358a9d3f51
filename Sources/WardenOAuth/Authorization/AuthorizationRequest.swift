import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE

/// An authorization-code request (RFC 6749 §4.1.1) with PKCE S256, `state` and, for OpenID, `nonce`
/// (RFC 7636, RFC 8252, RFC 9700).
///
/// `state` and `nonce` carry 256 random bits each (at least 128 are required); the verifier, `state` and
/// `nonce` are secrets and print `<redacted>`. The request is bound to its ``PendingAuthorization``, which
/// validates exactly one response.
///
/// ```swift
/// let (url, pending) = try AuthorizationRequest(
///     metadata: metadata, clientID: "app", redirectURI: try RedirectURI("com.example.app:/oauth/callback"),
///     scopes: ["openid", "profile"]
/// ).make()
/// // open `url` in the system browser; when the redirect arrives:
/// let code = try pending.validate(callbackURL)
/// ```
public struct AuthorizationRequest: Sendable {
    /// The provider's metadata: its authorization endpoint, issuer and PAR settings.
    public let metadata: ProviderMetadata
    /// The `client_id`: non-empty printable ASCII.
    public let clientID: String
    /// The registered redirect URI, sent as `redirect_uri` unless a loopback listener supplies a concrete one.
    public let redirectURI: RedirectURI
    /// The scopes, sent space-separated as `scope` (default: `openid`).
    public let scopes: [String]
    /// The provider parameters (`prompt`, `login_hint`, `max_age`, `audience`, `resource`, ...).
    public let parameters: AuthorizationParameters
    /// ``parameters`` as query pairs, in the order they are sent.
    public var additionalParameters: [(String, String)] { encodedParameters }
    private let encodedParameters: [(String, String)]
    /// Whether to send a nonce (default: when `openid` is among the scopes).
    public let useNonce: Bool
    /// Push the request (RFC 9126) when the provider has a PAR endpoint: `nil` pushes when one is announced, `true`
    /// requires one, `false` never pushes (refused when the provider requires PAR).
    public var pushed: Bool?
    /// RFC 9449 §10 `dpop_jkt`: binds the authorization code to this DPoP key thumbprint.
    public var dpopThumbprint: String?
    /// How the client authenticates to the PAR endpoint.
    public var clientAuthentication: ClientAuthentication = .none
    /// The transport ``prepare(redirectOverride:now:)`` pushes with (default: a new ``URLSessionTransport``).
    public var transport: (any HTTPTransport)?

    static let reserved: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "request_uri", "request", "dpop_jkt", "response_mode",
    ]

    /// A request with extra parameters as `NAME=VALUE` pairs; known names (`prompt`, `max_age`, ...) are read into
    /// ``AuthorizationParameters`` fields, so what they imply is checked. Reserved names are refused.
    public init(
        metadata: ProviderMetadata, clientID: String, redirectURI: RedirectURI, scopes: [String] = ["openid"],
        additionalParameters: [(String, String)] = [], useNonce: Bool? = nil
    ) throws(OAuthError) {
        try self.init(
            metadata: metadata, clientID: clientID, redirectURI: redirectURI, scopes: scopes,
            parameters: try AuthorizationParameters(pairs: additionalParameters), useNonce: useNonce)
    }

    /// A request with provider ``AuthorizationParameters``; they are checked here
    /// (``AuthorizationParameters/encoded()``).
    public init(
        metadata: ProviderMetadata, clientID: String, redirectURI: RedirectURI, scopes: [String] = ["openid"],
        parameters: AuthorizationParameters, useNonce: Bool? = nil
    ) throws(OAuthError) {
        encodedParameters = try parameters.encoded()
        guard !clientID.isEmpty, clientID.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else {
            throw OAuthError(.invalidConfiguration, "client_id must be printable ASCII")
        }
        self.metadata = metadata
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.parameters = parameters
        self.useNonce = useNonce ?? scopes.contains("openid")
    }

    /// The URL the browser opens and the pending state that validates the response: the request is pushed to the
    /// provider first (RFC 9126) when ``pushed`` and the metadata say so — the browser then gets only `client_id` and
    /// `request_uri` — otherwise it is ``make(random:redirectOverride:now:)``'s.
    ///
    /// - Parameter redirectOverride: the concrete loopback redirect (with its port), when using a listener.
    public func prepare(redirectOverride: String? = nil, now: @escaping NowProvider = systemNow) async throws -> (
        url: URL, pending: PendingAuthorization
    ) {
        let endpoint = metadata.pushedAuthorizationRequestEndpoint
        if metadata.requirePushedAuthorizationRequests, pushed == false {
            throw OAuthError(.invalidConfiguration, "the provider requires pushed authorization requests (RFC 9126)")
        }
        if pushed == true, endpoint == nil {
            throw OAuthError(.invalidMetadata, "PAR was required but the provider has no PAR endpoint")
        }
        let usePAR = endpoint != nil && (pushed ?? true)
        let (parameters, pending) = try queryParameters(redirectOverride: redirectOverride, now: now())
        guard usePAR else { return (try url(parameters), pending) }
        let client = TokenClient(
            metadata: metadata, clientID: clientID, authentication: clientAuthentication,
            transport: transport ?? URLSessionTransport(), now: now)
        let started = now()
        let (requestURI, expiresIn) = try await client.pushAuthorization(parameters)
        guard now().timeIntervalSince(started) < expiresIn else {
            throw OAuthError(.invalidPARResponse, "the pushed request expired before the browser could open it")
        }
        return (try url([("client_id", clientID), ("request_uri", requestURI)]), pending)
    }

    private func url(_ parameters: [(String, String)]) throws(OAuthError) -> URL {
        let endpoint = metadata.authorizationEndpoint.absoluteString
        let separator = endpoint.contains("?") ? "&" : "?"
        guard let url = URL(string: endpoint + separator + FormEncoding.encode(parameters)) else {
            throw OAuthError(.invalidConfiguration, "cannot build the authorization URL")
        }
        return url
    }

    /// The request as a plain URL, never pushed: for providers without PAR. When the provider requires pushed
    /// requests (`require_pushed_authorization_requests`) or ``pushed`` is `true`, it refuses
    /// (``OAuthError/Code/invalidConfiguration``) instead of building a URL the provider would reject or that skips
    /// what was asked for: use ``prepare(redirectOverride:now:)`` (or `AuthClient`, which does).
    public func make(random: some RandomSource = SecureRandom(), redirectOverride: String? = nil, now: Date = Date())
        throws -> (url: URL, pending: PendingAuthorization)
    {
        if metadata.requirePushedAuthorizationRequests {
            throw OAuthError(
                .invalidConfiguration, "the provider requires pushed authorization requests (RFC 9126): use prepare()")
        }
        if pushed == true {
            throw OAuthError(.invalidConfiguration, "a pushed request (RFC 9126) was asked for: use prepare()")
        }
        let (parameters, pending) = try queryParameters(random: random, redirectOverride: redirectOverride, now: now)
        return (try url(parameters), pending)
    }

    private func queryParameters(
        random: some RandomSource = SecureRandom(), redirectOverride: String? = nil, now: Date = Date()
    ) throws -> (parameters: [(String, String)], pending: PendingAuthorization) {
        let pkce = try PKCE(random: random)
        let state = Base64URL.encode(try random.bytes(count: 32))
        let nonce = useNonce ? Base64URL.encode(try random.bytes(count: 32)) : nil
        let redirect = redirectOverride ?? redirectURI.string
        var parameters: [(String, String)] = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirect),
            ("scope", scopes.joined(separator: " ")), ("state", state), ("code_challenge", pkce.challenge),
            ("code_challenge_method", "S256"),
        ]
        if let nonce { parameters.append(("nonce", nonce)) }
        if let dpopThumbprint { parameters.append(("dpop_jkt", dpopThumbprint)) }
        parameters += encodedParameters
        let pending = PendingAuthorization(
            issuer: metadata.issuer, clientID: clientID, redirectURI: redirectURI, redirect: redirect,
            pkce: pkce, state: Redacted(state), nonce: nonce.map(Redacted.init),
            requireIssuer: metadata.authorizationResponseIssParameterSupported, createdAt: now,
            maxAge: self.parameters.maxAge.map(TimeInterval.init),
            acrValues: self.parameters.acrValues.isEmpty ? nil : self.parameters.acrValues,
            issuerTemplate: metadata.issuerTemplate)
        return (parameters, pending)
    }
}
