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
        }
        fileprivate let backing: Backing
        fileprivate init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        public static let invalidRedirectURI = Code(.invalidRedirectURI)
        public static let insecureEndpoint = Code(.insecureEndpoint)
        public static let invalidConfiguration = Code(.invalidConfiguration)
        public static let invalidVerifier = Code(.invalidVerifier)
        public static let issuerMismatch = Code(.issuerMismatch)
        public static let invalidMetadata = Code(.invalidMetadata)
        public static let stateMismatch = Code(.stateMismatch)
        public static let duplicateParameter = Code(.duplicateParameter)
        public static let missingCode = Code(.missingCode)
        public static let redirectMismatch = Code(.redirectMismatch)
        public static let malformedResponse = Code(.malformedResponse)
        public static let responseTooLarge = Code(.responseTooLarge)
        public static let codeInFragment = Code(.codeInFragment)
        public static let missingIssuer = Code(.missingIssuer)
        public static let unknownState = Code(.unknownState)
        public static let accessDenied = Code(.accessDenied)
        public static let invalidRequest = Code(.invalidRequest)
        public static let invalidGrant = Code(.invalidGrant)
        public static let invalidClient = Code(.invalidClient)
        public static let unauthorizedClient = Code(.unauthorizedClient)
        public static let unsupportedGrantType = Code(.unsupportedGrantType)
        public static let invalidScope = Code(.invalidScope)
        public static let serverError = Code(.serverError)
        public static let temporarilyUnavailable = Code(.temporarilyUnavailable)
        public static let providerError = Code(.providerError)
        public static let httpError = Code(.httpError)
        public static let rateLimited = Code(.rateLimited)
        public static let network = Code(.network)
        public static let invalidTokenResponse = Code(.invalidTokenResponse)
        public static let invalidIDToken = Code(.invalidIDToken)
        public static let cancelled = Code(.cancelled)
        public static let timedOut = Code(.timedOut)
        /// A second sign-in was started while one is still showing (misconfiguration: serialise your calls).
        public static let signInInProgress = Code(.signInInProgress)
        /// The browser sheet had no presentation anchor or an invalid one (misconfiguration).
        public static let presentationUnavailable = Code(.presentationUnavailable)
        /// The system browser session failed for another reason; not retried automatically.
        public static let browserFailed = Code(.browserFailed)
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

    public init(
        _ code: Code, _ reason: String = "", status: Int? = nil, retryAfter: Double? = nil,
        providerDescription: String? = nil, fromTokenEndpoint: Bool = false, file: String = #fileID, line: Int = #line
    ) {
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
        case .temporarilyUnavailable, .serverError, .rateLimited, .network, .timedOut, .keySetUnavailable:
            return .transient
        case .cancelled, .accessDenied: return .userCancelled
        case .invalidRedirectURI, .insecureEndpoint, .invalidConfiguration, .invalidVerifier, .issuerMismatch,
            .invalidMetadata, .unsupportedGrantType, .invalidScope, .signInInProgress, .presentationUnavailable,
            .browserFailed, .noRevocationEndpoint, .noEndSessionEndpoint, .noUserInfoEndpoint:
            return .misconfiguration
        default: return .rejected
        }
    }

    /// Provider text is attacker-influenced: keep printable ASCII and bound it.
    static func sanitise(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(200)))
    }
}
