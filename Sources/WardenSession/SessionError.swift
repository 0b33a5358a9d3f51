import Foundation
import WardenCore
import WardenOAuth
import WardenStorage

/// Why a session could not give a valid access token.
public struct SessionError: CodedError {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: String, Sendable {
            case signedOut = "signed_out"
            case degraded
            case refreshLoop = "refresh_loop"
            case persistenceFailed = "persistence_failed"
            case noRefreshToken = "no_refresh_token"
            case refreshTokenLocked = "refresh_token_locked"
            case rateLimited = "rate_limited"
            case idTokenRejected = "id_token_rejected"
        }
        fileprivate let backing: Backing
        fileprivate init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        /// The grant is gone; the user must sign in again.
        public static let signedOut = Code(.signedOut)
        /// A transient failure; the session is kept and will retry.
        public static let degraded = Code(.degraded)
        /// More refreshes than the guard allows in its window (a server or clock bug).
        public static let refreshLoop = Code(.refreshLoop)
        /// The refreshed tokens could not be persisted; the in-memory tokens still serve.
        public static let persistenceFailed = Code(.persistenceFailed)
        /// The access token expired and there is no refresh token.
        public static let noRefreshToken = Code(.noRefreshToken)
        /// The biometric-bound refresh token was not released (the user cancelled or failed the prompt): the
        /// session is kept; ask again on the user's next action, never in a loop.
        public static let refreshTokenLocked = Code(.refreshTokenLocked)
        /// The server asked to wait longer than the caller's budget (`Retry-After`); ``SessionError/retryAt`` says
        /// until when. Nothing was retried early.
        public static let rateLimited = Code(.rateLimited)
        /// A refresh returned an ID token that does not continue the session's (OpenID Connect Core §12.2:
        /// another `sub` or `iss`, a bad signature, an `auth_time` moved back): the refreshed tokens were refused,
        /// nothing was stored and the session ended. The user must sign in again.
        public static let idTokenRejected = Code(.idTokenRejected)
    }

    public let code: Code
    public let reason: String
    /// Where Warden raised the error (`#fileID`: module and file), for bug reports; never compared by `==`.
    public let file: String
    /// The line of ``file``.
    public let line: Int
    /// The failure underneath, when there is one.
    public let underlying: (any WardenError)?
    /// For ``Code/rateLimited`` (and a degraded session backing off): the earliest time to try again.
    public let retryAt: Date?

    /// Creates an error; an empty `reason` reads as the code in words (`signed_out` gives "signed out"), as every
    /// other Warden error does.
    public init(
        _ code: Code, _ reason: String = "", underlying: (any WardenError)? = nil, retryAt: Date? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.file = file
        self.line = line
        self.code = code
        self.retryAt = retryAt
        self.reason = Self.reason(reason, or: code)
        self.underlying = underlying
    }

    public var failureKind: FailureKind {
        switch code.backing {
        case .signedOut, .noRefreshToken, .idTokenRejected: .terminal
        case .degraded, .persistenceFailed, .refreshLoop, .rateLimited: .transient
        case .refreshTokenLocked: .userCancelled
        }
    }
}

/// What the UI shows: signed in, kept but read-only for a reason the app can switch over, or signed out and why.
///
/// ```swift
/// switch await session.state {
/// case .signedIn: showAccount()
/// case .degraded(reason: .offline): showOfflineBanner()  // the session is kept; mutations wait
/// case .degraded: showRetryLater()
/// case .signedOut(reason: .userSignedOut): showWelcome()
/// case .signedOut(reason: let why): showSignIn(message: why.description)
/// }
/// ```
public enum SessionState: Sendable, Equatable {
    /// A usable session: mutations enabled (``canMutate`` is `true`).
    case signedIn
    /// Transient trouble: keep the session, read-only UI (`canMutate` false).
    case degraded(reason: DegradedReason)
    /// No usable session: the user must sign in (again).
    case signedOut(reason: SignedOutReason)

    /// Whether mutations should be enabled.
    public var canMutate: Bool { self == .signedIn }
}

/// Why a session is kept but read-only (``SessionState/degraded(reason:)``). Every reason is transient: the session
/// leaves it by itself when a request or a refresh gets through, or when the network returns.
public enum DegradedReason: Sendable, Equatable, CustomStringConvertible {
    /// An API request failed in transport (after its retries): the device is offline, or the API unreachable.
    case offline(TransportError.Code)
    /// A refresh failed transiently (the network, a 5xx, `temporarily_unavailable`, rate limiting): the session backs
    /// off, honouring `Retry-After`, and tries again.
    case refreshFailed(OAuthError.Code)
    /// The store cannot be read right now (the device is locked, the keyring too, the grant lock timed out).
    case storeUnavailable(StorageErrorDomain.Code)
    /// The refreshed tokens could not be stored; they serve from memory and are written again at the next chance.
    case tokensNotStored(StorageErrorDomain.Code)
    /// Another holder of the grant (an extension, another process) rotated it during this refresh: ask again.
    case grantRotatedElsewhere

    public var description: String {
        switch self {
        case .offline(let code): "offline (\(code))"
        case .refreshFailed(let code): "the refresh failed (\(code)); the session is kept"
        case .storeUnavailable(let code): "the stored session cannot be read now (\(code))"
        case .tokensNotStored(let code): "tokens could not be stored: \(code)"
        case .grantRotatedElsewhere: "the grant was rotated by another holder"
        }
    }
}

/// Why there is no session (``SessionState/signedOut(reason:)``).
public enum SignedOutReason: Sendable, Equatable, CustomStringConvertible {
    /// Nothing was stored: the user never signed in on this install, or the reinstall check purged it.
    case noSession
    /// The app signed the user out (``AuthSession/signOut()``).
    case userSignedOut
    /// Another holder of the grant (the app, an extension) signed out or purged it.
    case signedOutElsewhere
    /// The provider refused the grant at the token endpoint (`invalid_grant`, or 401 there): revoked, expired, or
    /// spent by a rotation nothing stored.
    case grantRejected
    /// The access token expired and there is no refresh token to renew it.
    case noRefreshToken
    /// The biometric-bound refresh token is gone (the enrolled fingers or faces changed): the user signs in again.
    case refreshTokenUnreadable
    /// The stored tokens are bound to a DPoP key this holder does not have (a Bearer fallback would be a downgrade).
    case dpopKeyUnavailable
    /// A refresh returned an ID token that does not continue the session's (OpenID Connect Core §12.2).
    case idTokenRejected

    public var description: String {
        switch self {
        case .noSession: "no stored session"
        case .userSignedOut: "signed out by the user"
        case .signedOutElsewhere: "signed out by another holder of the grant"
        case .grantRejected: "the provider rejected the grant"
        case .noRefreshToken: "the access token expired and there is no refresh token"
        case .refreshTokenUnreadable:
            "the protected refresh token is no longer readable (biometry changed?); sign in again"
        case .dpopKeyUnavailable: "the stored tokens are bound to a DPoP key this holder does not have"
        case .idTokenRejected: "the refreshed ID token was rejected"
        }
    }
}
