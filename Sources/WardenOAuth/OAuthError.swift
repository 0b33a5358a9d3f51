import WardenCore

/// An error from WardenOAuth with a stable ``Code`` and a ``failureKind`` that tells the session what to do:
/// `invalid_grant` (and 401 / `invalid_client` from the token endpoint) is terminal; `temporarily_unavailable`,
/// 5xx, 429 and network failures are transient; forged or malformed responses are rejected.
public struct OAuthError: CodedError {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: String, Sendable {
            // Configuration
            case invalidRedirectURI = "invalid_redirect_uri"
            case insecureEndpoint = "insecure_endpoint"
            case invalidConfiguration = "invalid_configuration"
            case invalidVerifier = "invalid_verifier"
            case issuerMismatch = "issuer_mismatch"
            case invalidMetadata = "invalid_metadata"
            // Authorization response
            case stateMismatch = "state_mismatch"
            case duplicateParameter = "duplicate_parameter"
            case missingCode = "missing_code"
            case redirectMismatch = "redirect_mismatch"
            case malformedResponse = "malformed_response"
            case responseTooLarge = "response_too_large"
            case codeInFragment = "code_in_fragment"
            case missingIssuer = "missing_issuer"
            case unknownState = "unknown_state"
            // Provider errors (RFC 6749 §4.1.2.1, §5.2)
            case accessDenied = "access_denied"
            case invalidRequest = "invalid_request"
            case invalidGrant = "invalid_grant"
            case invalidClient = "invalid_client"
            case unauthorizedClient = "unauthorized_client"
            case unsupportedGrantType = "unsupported_grant_type"
            case invalidScope = "invalid_scope"
            case serverError = "server_error"
            case temporarilyUnavailable = "temporarily_unavailable"
            case providerError = "provider_error"
            // Transport and HTTP
            case httpError = "http_error"
            case rateLimited = "rate_limited"
            case network
            case invalidTokenResponse = "invalid_token_response"
            case invalidIDToken = "invalid_id_token"
            case cancelled
            case timedOut = "timed_out"
            // System browser (ASWebAuthenticationSession)
            case signInInProgress = "sign_in_in_progress"
            case presentationUnavailable = "presentation_unavailable"
            case browserFailed = "browser_failed"
            case tokenTypeMismatch = "token_type_mismatch"
            case invalidPARResponse = "invalid_par_response"
            case noRevocationEndpoint = "no_revocation_endpoint"
            case keySetUnavailable = "key_set_unavailable"
            case keyNotYetPublished = "key_not_published"
            case noEndSessionEndpoint = "no_end_session_endpoint"
            case noUserInfoEndpoint = "no_userinfo_endpoint"
            case invalidUserInfo = "invalid_userinfo"
            case storageFailed = "storage_failed"
            case expiredToken = "expired_token"
            case authorizationPending = "authorization_pending"
            case slowDown = "slow_down"
            case noDeviceAuthorizationEndpoint = "no_device_authorization_endpoint"
            case invalidDeviceAuthorization = "invalid_device_authorization"
        }
        fileprivate let backing: Backing
        fileprivate init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        /// A redirect URI outside RFC 8252's three forms, or with userinfo, a fragment or dot segments
        /// (misconfiguration).
        public static let invalidRedirectURI = Code(.invalidRedirectURI)
        /// An endpoint over cleartext `http` that is not a loopback IP literal (misconfiguration).
        public static let insecureEndpoint = Code(.insecureEndpoint)
        /// A setting that cannot work (an empty client ID, a malformed issuer template...): misconfiguration.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// A PKCE code verifier outside RFC 7636 §4.1 (43–128 unreserved characters): misconfiguration.
        public static let invalidVerifier = Code(.invalidVerifier)
        /// The discovery document or the RFC 9207 `iss` names another issuer than the one configured: misconfiguration.
        public static let issuerMismatch = Code(.issuerMismatch)
        /// A discovery document that is not valid OpenID Connect / RFC 8414 metadata (misconfiguration).
        public static let invalidMetadata = Code(.invalidMetadata)
        /// The authorization response's `state` is not the request's (compared in constant time): refused, a forged
        /// response.
        public static let stateMismatch = Code(.stateMismatch)
        /// A parameter appears twice in a response: refused (two parsers could read different values).
        public static let duplicateParameter = Code(.duplicateParameter)
        /// An authorization response without `code` and without `error`: refused.
        public static let missingCode = Code(.missingCode)
        /// The callback did not come to the registered redirect URI (component-wise): refused.
        public static let redirectMismatch = Code(.redirectMismatch)
        /// A response that is not the JSON or form document the protocol defines: refused.
        public static let malformedResponse = Code(.malformedResponse)
        /// A response over its size cap (bodies are capped while they stream): refused.
        public static let responseTooLarge = Code(.responseTooLarge)
        /// A code in the URL fragment (implicit-flow shape) instead of the query: refused.
        public static let codeInFragment = Code(.codeInFragment)
        /// The provider announces RFC 9207 but the response carries no `iss`: refused.
        public static let missingIssuer = Code(.missingIssuer)
        /// A callback whose `state` belongs to no pending request (a replay, or another tab's): refused.
        public static let unknownState = Code(.unknownState)
        /// RFC 6749 `access_denied`: the user (or policy) declined; treated as a cancellation.
        public static let accessDenied = Code(.accessDenied)
        /// RFC 6749 `invalid_request`: the provider refused the request's shape.
        public static let invalidRequest = Code(.invalidRequest)
        /// RFC 6749 `invalid_grant`: the code or refresh token is no longer valid; from the token endpoint it ends the
        /// session (after the store was read again).
        public static let invalidGrant = Code(.invalidGrant)
        /// RFC 6749 `invalid_client`: from the token endpoint it ends the session; elsewhere a misconfiguration.
        public static let invalidClient = Code(.invalidClient)
        /// RFC 6749 `unauthorized_client`: the client may not use this grant (as `invalidClient`).
        public static let unauthorizedClient = Code(.unauthorizedClient)
        /// RFC 6749 `unsupported_grant_type`: misconfiguration.
        public static let unsupportedGrantType = Code(.unsupportedGrantType)
        /// RFC 6749 `invalid_scope`: a requested scope is unknown to the provider (misconfiguration).
        public static let invalidScope = Code(.invalidScope)
        /// RFC 6749 `server_error`: transient.
        public static let serverError = Code(.serverError)
        /// RFC 6749 `temporarily_unavailable`: transient.
        public static let temporarilyUnavailable = Code(.temporarilyUnavailable)
        /// An `error` value RFC 6749 does not define: refused, with the provider's description kept (sanitised).
        public static let providerError = Code(.providerError)
        /// An HTTP status the protocol does not expect: 5xx and 408 are transient, 401 from the token endpoint ends the
        /// session, the rest are refused.
        public static let httpError = Code(.httpError)
        /// HTTP 429/503 with a `Retry-After` beyond the caller's budget: transient, with ``OAuthError/retryAfter``.
        public static let rateLimited = Code(.rateLimited)
        /// The request did not reach the provider (offline, DNS, refused): transient.
        public static let network = Code(.network)
        /// A token response that is not RFC 6749 §5.1's (no `access_token`, a bad `expires_in`, an `id_token` missing
        /// when `openid` was asked): refused.
        public static let invalidTokenResponse = Code(.invalidTokenResponse)
        /// The ID token failed validation (``OAuthError/claimCode`` names the check): refused.
        public static let invalidIDToken = Code(.invalidIDToken)
        /// The user or the app cancelled the sign-in: never retried.
        public static let cancelled = Code(.cancelled)
        /// The request or the sign-in took longer than its timeout: transient.
        public static let timedOut = Code(.timedOut)
        /// A second sign-in was started while one is still showing (misconfiguration: serialise your calls).
        public static let signInInProgress = Code(.signInInProgress)
        /// The browser sheet had no presentation anchor or an invalid one (misconfiguration).
        public static let presentationUnavailable = Code(.presentationUnavailable)
        /// The system browser session failed for another reason; not retried automatically.
        public static let browserFailed = Code(.browserFailed)
        /// The signed-in session could not be stored (``OAuthError/underlying`` is the store's error): transient when
        /// the store is only unavailable now (a locked device), else a misconfiguration (an entitlement, a name).
        public static let storageFailed = Code(.storageFailed)
        /// RFC 8628 §3.5 `expired_token`: the device code expired before the user approved it (or Warden stopped
        /// polling at its `expires_in`). Start again with a new code.
        public static let expiredToken = Code(.expiredToken)
        /// RFC 8628 §3.5 `authorization_pending`: the user has not approved the device yet; polling goes on.
        public static let authorizationPending = Code(.authorizationPending)
        /// RFC 8628 §3.5 `slow_down`: polling goes on, its interval 5 seconds longer from now on.
        public static let slowDown = Code(.slowDown)
        /// The provider announces no `device_authorization_endpoint` (RFC 8628): configure it by hand
        /// (``ProviderMetadata/withDeviceAuthorizationEndpoint(_:)``) or sign in with a browser.
        public static let noDeviceAuthorizationEndpoint = Code(.noDeviceAuthorizationEndpoint)
        /// The device authorization response is not RFC 8628 §3.2's (no `device_code`, `user_code` or
        /// `verification_uri`, a non-https URI, an `expires_in` or `interval` out of bounds): refused.
        public static let invalidDeviceAuthorization = Code(.invalidDeviceAuthorization)
        /// The token endpoint issued another `token_type` than asked for: `Bearer` when DPoP was requested is a
        /// silent downgrade and refused; `DPoP` without a DPoP key is refused too.
        public static let tokenTypeMismatch = Code(.tokenTypeMismatch)
        /// The pushed-authorization endpoint's answer is not RFC 9126's `{"request_uri","expires_in"}`.
        public static let invalidPARResponse = Code(.invalidPARResponse)
        /// The provider announces no RFC 7009 revocation endpoint and none is configured: a token cannot be
        /// revoked, only deleted locally.
        public static let noRevocationEndpoint = Code(.noRevocationEndpoint)
        /// The provider's JWKS could not be fetched, so an ID token could not be checked (transient).
        public static let keySetUnavailable = Code(.keySetUnavailable)
        /// An ID token is signed with a `kid` the provider's key set does not have, even after refetching it once
        /// (rate-limited to once a minute): refused.
        public static let keyNotYetPublished = Code(.keyNotYetPublished)
        /// The provider announces no `end_session_endpoint` (OpenID Connect RP-Initiated Logout 1.0) and none is
        /// configured: the browser session cannot be ended by the app.
        public static let noEndSessionEndpoint = Code(.noEndSessionEndpoint)
        /// The provider announces no `userinfo_endpoint` (OpenID Connect Core §5.3).
        public static let noUserInfoEndpoint = Code(.noUserInfoEndpoint)
        /// A UserInfo response that is not a JSON object with a `sub`, or whose `sub` is not the ID token's (OpenID
        /// Connect Core §5.3.2: the response must not be used).
        public static let invalidUserInfo = Code(.invalidUserInfo)

        /// The code for an RFC 6749 `error` value (unknown values become ``providerError``).
        public static func provider(_ value: String) -> Code {
            switch value {
            case "access_denied": .accessDenied
            case "invalid_request": .invalidRequest
            case "invalid_grant": .invalidGrant
            case "invalid_client": .invalidClient
            case "unauthorized_client": .unauthorizedClient
            case "unsupported_grant_type": .unsupportedGrantType
            case "invalid_scope": .invalidScope
            case "server_error": .serverError
            case "temporarily_unavailable": .temporarilyUnavailable
            case "expired_token": .expiredToken
            case "authorization_pending": .authorizationPending
            case "slow_down": .slowDown
            default: .providerError
            }
        }
    }

    public let code: Code
    public let reason: String
    /// Where Warden raised the error (`#fileID`: module and file), for bug reports; never compared by `==`.
    public let file: String
    /// The line of ``file``.
    public let line: Int
    /// The HTTP status, when the error came from an HTTP response.
    public let status: Int?
    /// `Retry-After` in seconds, when the server sent one.
    public let retryAfter: Double?
    /// The RFC 9207 / RFC 6749 `error_description`, sanitised (printable ASCII, at most 200 characters).
    public let providerDescription: String?
    /// Whether the failure came from the token endpoint (only there do 401 and `invalid_client` sign out).
    public let fromTokenEndpoint: Bool
    /// For an ID token that was refused: the JOSE check that refused it (`subject_mismatch`, `expired`, ...).
    public internal(set) var claimCode: String?
    /// The failure underneath, when another layer's error was carried into this one (the store's error under
    /// ``Code/storageFailed``, a transport's or a browser's under ``Code/network`` or ``Code/browserFailed``).
    public let underlying: (any WardenError)?

    /// An error with `code` and `reason` (the code in words when `reason` is empty); `providerDescription` is kept
    /// sanitised (printable ASCII, at most 200 characters), and `file` and `line` default to the caller's.
    public init(
        _ code: Code, _ reason: String = "", status: Int? = nil, retryAfter: Double? = nil,
        providerDescription: String? = nil, fromTokenEndpoint: Bool = false, underlying: (any WardenError)? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.underlying = underlying
        self.file = file
        self.line = line
        self.code = code
        self.reason = Self.reason(reason, or: code)
        self.status = status
        self.retryAfter = retryAfter
        self.providerDescription = providerDescription.map(Self.sanitise)
        self.fromTokenEndpoint = fromTokenEndpoint
    }

    public var failureKind: FailureKind {
        switch code.backing {
        case .invalidGrant: return .terminal
        case .invalidClient, .unauthorizedClient: return fromTokenEndpoint ? .terminal : .misconfiguration
        case .httpError:
            if status == 401 && fromTokenEndpoint { return .terminal }
            if let status, status >= 500 || status == 408 { return .transient }
            return .rejected
        case .temporarilyUnavailable, .serverError, .rateLimited, .network, .timedOut, .keySetUnavailable,
            .authorizationPending, .slowDown:
            return .transient
        case .cancelled, .accessDenied: return .userCancelled
        case .expiredToken: return .terminal
        case .storageFailed: return underlying?.failureKind == .transient ? .transient : .misconfiguration
        case .invalidRedirectURI, .insecureEndpoint, .invalidConfiguration, .invalidVerifier, .issuerMismatch,
            .invalidMetadata, .unsupportedGrantType, .invalidScope, .signInInProgress, .presentationUnavailable,
            .browserFailed, .noRevocationEndpoint, .noEndSessionEndpoint, .noUserInfoEndpoint,
            .noDeviceAuthorizationEndpoint:
            return .misconfiguration
        default: return .rejected
        }
    }

    /// Provider text is attacker-influenced: keep printable ASCII and bound it.
    static func sanitise(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(200)))
    }
}
