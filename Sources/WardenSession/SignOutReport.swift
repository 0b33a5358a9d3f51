import WardenCore
import WardenOAuth
import WardenStorage

/// What ``AuthSession/signOut()`` did, so the app can tell the user the truth: the device forgot the session at
/// once, and whether the provider also ended the grant.
///
/// ```swift
/// let report = await session.signOut()
/// if case .failed(_, willRetry: true) = report.revocation {
///     showNotice("Signed out on this device. The sign-out at the provider will be retried when you're online.")
/// }
/// ```
public struct SignOutReport: Sendable, Equatable {
    /// What happened at the provider (RFC 7009).
    public enum Revocation: Sendable, Equatable {
        /// The provider confirmed the revocation of the refresh token (or, when the refresh token is held in a
        /// protected item that is not read just to revoke it, of the access token).
        case revoked(tokenType: String)
        /// The revocation did not go through. `willRetry`: the token was kept in the secure store and is revoked
        /// at the next launch or when the network returns (``AuthClient/retryPendingRevocations()``).
        case failed(reason: String, willRetry: Bool)
        /// The provider has no revocation endpoint: the grant stays live there until it expires.
        case noEndpoint
        /// There was no session to revoke.
        case nothingToRevoke
    }

    /// What happened to the provider's browser session (OpenID Connect RP-Initiated Logout 1.0).
    public enum BrowserSession: Sendable, Equatable {
        /// Not asked for: the browser's cookie at the provider still signs the same user back in.
        case kept
        /// The provider sent the browser back to the post-logout redirect with the request's `state`.
        case ended
        /// The logout page was opened; without a post-logout redirect there was nothing to confirm.
        case opened
        /// It could not be ended (offline, no `end_session_endpoint`, the user closed the page, a forged return).
        case failed(reason: String)
    }

    /// Whether every stored item of the account is gone (always attempted first, before any request).
    public let localDataDeleted: Bool
    /// Why the local deletion failed, when it did (a locked keychain); the memory copy is gone regardless.
    public let localDeletionError: StorageError?
    /// What happened at the provider when the grant was revoked (RFC 7009).
    public let revocation: Revocation
    /// Whether the provider's browser session was ended too (``AuthClient/signOut(_:endingBrowserSessionWith:)``).
    public var browserSession: BrowserSession = .kept

    /// A report from its parts (normally made by ``AuthSession/signOut()``).
    public init(
        localDataDeleted: Bool, localDeletionError: StorageError? = nil, revocation: Revocation,
        browserSession: BrowserSession = .kept
    ) {
        self.localDataDeleted = localDataDeleted
        self.localDeletionError = localDeletionError
        self.revocation = revocation
        self.browserSession = browserSession
    }
}

extension SignOutReport.Revocation {
    /// The outcome of one revocation request.
    static func outcome(of error: OAuthError?, tokenType: String) -> Self {
        guard let error else { return .revoked(tokenType: tokenType) }
        if error.code == .noRevocationEndpoint { return .noEndpoint }
        return .failed(reason: error.summary, willRetry: error.failureKind == .transient)
    }
}
