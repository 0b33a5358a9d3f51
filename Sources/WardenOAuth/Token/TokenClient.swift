import Foundation
import WardenCore
import WardenJOSE

/// How the client authenticates at the token endpoint (RFC 6749 §2.3).
public enum ClientAuthentication: Sendable {
    /// A public client (native apps): `client_id` in the body, no secret.
    case none
    /// `client_secret_basic`: HTTP Basic with the URL-encoded id and secret (servers only).
    case clientSecretBasic(Redacted<String>)
    /// `client_secret_post`: the secret in the form body (servers only).
    case clientSecretPost(Redacted<String>)
}

/// Talks to the token and revocation endpoints: code exchange with `code_verifier`, refresh, revocation
/// (RFC 6749 §4.1.3, §6; RFC 7636 §4.5; RFC 7009).
///
/// Errors are typed and classified: `invalid_grant` is terminal; `temporarily_unavailable`, 5xx, 429 (with
/// `Retry-After`) and network failures are transient; HTML error pages and malformed JSON are
/// `invalid_token_response`. Tokens travel only in POST bodies, never in a URL.
///
/// ```swift
/// let client = TokenClient(metadata: metadata, clientID: "app", transport: URLSessionTransport())
/// let tokens = try await client.exchange(code)
/// let refreshed = try await client.refresh(refreshToken: tokens.refreshToken!.unredacted())
/// ```
public struct TokenClient: Sendable {
    /// The provider's metadata: its token, revocation and PAR endpoints.
    public let metadata: ProviderMetadata
    /// The client identifier: `client_id` in the body, or the Basic user name with `client_secret_basic`.
    public let clientID: String
    /// How the client authenticates to the token, revocation and PAR endpoints.
    public let authentication: ClientAuthentication
    package let transport: any HTTPTransport
    package let now: NowProvider
    /// When set, token requests carry DPoP proofs and must come back `token_type: DPoP` (RFC 9449 §5).
    public let dpop: DPoPBinding?
    /// Extra token-request parameters sent with every code exchange and refresh (RFC 8707 `resource`, Auth0's
    /// `audience`); names the grant itself uses are refused at construction.
    public let additionalParameters: [(String, String)]
    let log = WardenLogger(category: "oauth")

    /// Names a token request sets itself.
    static let reserved: Set<String> = [
        "grant_type", "code", "redirect_uri", "code_verifier", "refresh_token", "client_id", "client_secret",
        "client_assertion", "client_assertion_type", "scope",
    ]

    /// A client for `metadata`'s endpoints as `clientID`, without additional parameters; `authentication` defaults to
    /// ``ClientAuthentication/none`` (a public client), and `dpop` to no DPoP.
    public init(
        metadata: ProviderMetadata, clientID: String, authentication: ClientAuthentication = .none,
        transport: any HTTPTransport, dpop: DPoPBinding? = nil, now: @escaping NowProvider = systemNow
    ) {
        self.init(
            metadata: metadata, clientID: clientID, authentication: authentication, transport: transport, dpop: dpop,
            now: now, checkedParameters: [])
    }

    /// A client that sends `additionalParameters` with every code exchange and refresh; throws
    /// ``OAuthError/Code/invalidConfiguration`` for a name the token request sets itself, an empty name or a
    /// control character.
    public init(
        metadata: ProviderMetadata, clientID: String, authentication: ClientAuthentication = .none,
        transport: any HTTPTransport, dpop: DPoPBinding? = nil, additionalParameters: [(String, String)],
        now: @escaping NowProvider = systemNow
    ) throws(OAuthError) {
        try Self.check(additionalParameters: additionalParameters)
        self.init(
            metadata: metadata, clientID: clientID, authentication: authentication, transport: transport, dpop: dpop,
            now: now, checkedParameters: additionalParameters)
    }

    /// Checks extra token-request parameters as the initialiser does: no name the request sets itself, names and
    /// values bounded and free of control characters.
    public static func check(additionalParameters: [(String, String)]) throws(OAuthError) {
        for (name, value) in additionalParameters {
            guard !reserved.contains(name) else {
                throw OAuthError(.invalidConfiguration, "'\(name)' is set by the token request and cannot be added")
            }
            try AuthorizationParameters.checkParameter(name, value)
        }
    }

    private init(
        metadata: ProviderMetadata, clientID: String, authentication: ClientAuthentication,
        transport: any HTTPTransport, dpop: DPoPBinding?, now: @escaping NowProvider,
        checkedParameters: [(String, String)]
    ) {
        self.dpop = dpop
        self.metadata = metadata
        self.clientID = clientID
        self.authentication = authentication
        self.transport = transport
        self.now = now
        self.additionalParameters = checkedParameters
    }

    /// Exchanges a validated authorization code.
    public func exchange(_ code: AuthorizationCode) async throws(OAuthError) -> TokenResponse {
        try await tokenRequest([
            ("grant_type", "authorization_code"), ("code", code.code.unredacted()),
            ("redirect_uri", code.pending.redirect), ("code_verifier", code.pending.pkce.verifier.unredacted()),
        ])
    }

    /// Refreshes with a refresh token (RFC 6749 §6).
    /// `grant_type=authorization_code` for a code obtained outside ``AuthorizationRequest`` (e.g. from a Sign in
    /// with Apple app, which sends it to its server); `redirectURI` only when the authorization request had one.
    public func authorizationCode(_ code: String, redirectURI: String? = nil) async throws(OAuthError) -> TokenResponse
    {
        var form = [("grant_type", "authorization_code"), ("code", code)]
        if let redirectURI { form.append(("redirect_uri", redirectURI)) }
        return try await tokenRequest(form)
    }

    /// Redeems `refreshToken` at the token endpoint (RFC 6749 §6), narrowing to `scope` when given; the answer is
    /// checked as every token response is, and a rotated refresh token comes back in it.
    public func refresh(refreshToken: String, scope: String? = nil) async throws(OAuthError) -> TokenResponse {
        var form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scope { form.append(("scope", scope)) }
        return try await tokenRequest(form)
    }

    /// Revokes a token (RFC 7009). A 200 for an unknown token is success, as the RFC says.
    public func revoke(token: String, hint: String) async throws(OAuthError) {
        guard let endpoint = metadata.revocationEndpoint else {
            throw OAuthError(.noRevocationEndpoint, "the provider has no revocation endpoint")
        }
        let response = try await post(endpoint, [("token", token), ("token_type_hint", hint)], proof: false)
        guard response.status == 200 else { throw error(from: response, tokenEndpoint: false) }
    }

    func tokenRequest(_ form: [(String, String)]) async throws(OAuthError) -> TokenResponse {
        let response = try await post(metadata.tokenEndpoint, form + additionalParameters, proof: dpop != nil)
        let receivedAt = now()
        guard response.status == 200 else { throw error(from: response, tokenEndpoint: true) }
        var tokens = try TokenResponse(json: response.body)
        tokens.receivedAt = receivedAt
        tokens.serverDate = response.header("Date").flatMap { HTTPDate.parse($0) }
        // No silent downgrade: DPoP asked, DPoP issued (and never a DPoP token without a key to present it).
        guard tokens.tokenType == (dpop == nil ? "Bearer" : "DPoP") else {
            throw OAuthError(
                .tokenTypeMismatch,
                dpop == nil
                    ? "the provider issued a DPoP-bound token but no DPoP key is configured"
                    : "DPoP was requested but the provider issued token_type \(tokens.tokenType)")
        }
        return tokens
    }

    /// Pushes an authorization request (RFC 9126 §2): the parameters go to the provider's PAR endpoint with the
    /// client's authentication; returns the `request_uri` to open with `client_id`, and its lifetime.
    public func pushAuthorization(_ parameters: [(String, String)]) async throws(OAuthError) -> (
        requestURI: String, expiresIn: TimeInterval
    ) {
        guard let endpoint = metadata.pushedAuthorizationRequestEndpoint else {
            throw OAuthError(.invalidMetadata, "the provider has no pushed_authorization_request_endpoint")
        }
        let response = try await post(endpoint, parameters.filter { $0.0 != "client_id" }, proof: false)
        guard response.status == 201 || response.status == 200 else {
            throw error(from: response, tokenEndpoint: false)
        }
        guard let object = try? JSONReader(maximumBytes: 64 * 1024, maximumDepth: 4).parseObject(Array(response.body)),
            let uri = object["request_uri"]?.stringValue, !uri.isEmpty, uri.utf8.count <= 2048,
            uri.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
            let expires = object["expires_in"]?.numberValue?.int64, expires > 0, expires <= 86_400
        else { throw OAuthError(.invalidPARResponse, "the PAR response is not {request_uri, expires_in}") }
        return (uri, TimeInterval(expires))
    }

    /// POSTs a form (with client authentication, and a DPoP proof when `proof`); one retry when the server asks
    /// for a DPoP nonce (`use_dpop_nonce` with a new `DPoP-Nonce`).
    func post(_ url: URL, _ form: [(String, String)], proof: Bool = false) async throws(OAuthError)
        -> HTTPResponse
    {
        var response = try await postOnce(url, form, proof: proof)
        if proof, let dpop, dpop.record(response, from: url), DPoPBinding.asksForNonce(response) {
            response = try await postOnce(url, form, proof: true)
        }
        if let dpop { dpop.record(response, from: url) }
        return response
    }

    private func postOnce(_ url: URL, _ form: [(String, String)], proof: Bool) async throws(OAuthError)
        -> HTTPResponse
    {
        var body = form
        var headers = ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"]
        if proof, let dpop {
            do { headers["DPoP"] = try dpop.proof(method: "POST", url: url) } catch {
                throw OAuthError(.invalidConfiguration, "the DPoP proof could not be made")
            }
        }
        switch authentication {
        case .none: body.append(("client_id", clientID))
        case .clientSecretPost(let secret):
            body += [("client_id", clientID), ("client_secret", secret.unredacted())]
        case .clientSecretBasic(let secret):
            let credentials =
                FormEncoding.percentEncode(clientID) + ":" + FormEncoding.percentEncode(secret.unredacted())
            headers["Authorization"] = "Basic " + Data(credentials.utf8).base64EncodedString()
        }
        let request = HTTPRequest(
            method: "POST", url: url, headers: headers, body: Data(FormEncoding.encode(body).utf8), timeout: 30)
        log.debug("POST \(url.absoluteString)")
        do {
            return try await transport.send(request)
        } catch let error as TransportError {
            switch error.code {
            case .cancelled: throw OAuthError(.cancelled, "the request was cancelled")
            case .timedOut: throw OAuthError(.timedOut, "the token endpoint timed out")
            case .responseTooLarge: throw OAuthError(.responseTooLarge, "the token endpoint response is too large")
            case .insecureURL: throw OAuthError(.insecureEndpoint, error.reason)
            default: throw OAuthError(.network, "network failure: \(error.reason)")
            }
        } catch {
            throw OAuthError(.network, "network failure")
        }
    }

    /// RFC 6749 §5.2 error bodies become typed errors; anything else is classified by status.
    func error(from response: HTTPResponse, tokenEndpoint: Bool) -> OAuthError {
        let retryAfter = RetryAfter.seconds(response.header("Retry-After"), now: now())
        if let object = try? JSONReader(maximumBytes: 64 * 1024, maximumDepth: 8).parseObject(
            Array(response.body.prefix(64 * 1024))),
            let error = object["error"]?.stringValue
        {
            let code = OAuthError.Code.provider(error)
            return OAuthError(
                code, "the provider answered \(code == .providerError ? "an error" : error) (HTTP \(response.status))",
                status: response.status, retryAfter: retryAfter,
                providerDescription: object["error_description"]?.stringValue,
                fromTokenEndpoint: tokenEndpoint)
        }
        if response.status == 429 {
            return OAuthError(
                .rateLimited, "rate limited (HTTP 429)", status: 429, retryAfter: retryAfter,
                fromTokenEndpoint: tokenEndpoint)
        }
        return OAuthError(
            .httpError, "HTTP \(response.status) without an OAuth error body", status: response.status,
            retryAfter: retryAfter,
            fromTokenEndpoint: tokenEndpoint)
    }
}
