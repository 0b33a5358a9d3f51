import Foundation
import WardenCore

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

/// What the UI shows.
public enum SessionState: Sendable, Equatable {
    case signedIn
    /// Transient trouble: keep the session, read-only UI (`canMutate` false).
    case degraded(reason: String)
    case signedOut(reason: String)

    /// Whether mutations should be enabled.
    public var canMutate: Bool { self == .signedIn }
}
