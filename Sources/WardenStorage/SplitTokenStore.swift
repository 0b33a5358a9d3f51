import Foundation

/// A store whose refresh tokens can be read on their own, when a refresh needs one (``SplitTokenStore``).
public protocol RefreshTokenVault: Sendable {
    /// The refresh token kept for the account, or nil when its item is gone — for a biometric-bound item that is
    /// what a change of the enrolled fingers or faces does (`.biometryCurrentSet` invalidates the item).
    func loadRefreshToken(service: String, account: String) async throws(StorageError) -> String?
}

/// Keeps a ``TokenSet``'s refresh token in its own, more protected item, so it can be bound to biometry while
/// the access token stays readable for background work.
///
/// With one item for the whole set, binding it to `.biometryCurrentSet` makes every session restore prompt and
/// background refresh impossible. Split, the `tokens` store (e.g. `afterFirstUnlockThisDeviceOnly`) holds the
/// access and ID tokens with a marker, and the `refreshTokens` store (e.g. `.biometryCurrentSet`) holds only the
/// refresh token; ``AuthSession`` reads it through ``RefreshTokenVault`` only when it refreshes.
///
/// Rotation safety: the refresh token is written first, then the rest; if the second write fails the rotated
/// refresh token is already safe. ``delete(service:account:)`` removes both items.
///
/// ```swift
/// let store = SplitTokenStore(
///     tokens: KeychainStore(accessibility: .afterFirstUnlockThisDeviceOnly),
///     refreshTokens: KeychainStore(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet))
/// ```
///
/// Thread-safety: stateless; as safe as the two stores.
public struct SplitTokenStore: CredentialStore, RefreshTokenVault {
    public let tokens: any CredentialStore
    public let refreshTokens: any CredentialStore

    public init(tokens: any CredentialStore, refreshTokens: any CredentialStore) {
        self.tokens = tokens
        self.refreshTokens = refreshTokens
    }

    /// Both halves of a grant are refreshed together: the lock is the `tokens` store's.
    public var grantLock: any GrantLock { tokens.grantLock }

    /// Splits a ``TokenSet``; any other item (a pending revocation record) is stored in `tokens` as it is.
    public func save(_ data: Data, service: String, account: String) async throws(StorageError) {
        guard var set = try? TokenSet(encoded: data) else {
            try await tokens.save(data, service: service, account: account)
            return
        }
        if let refresh = set.refreshToken {
            try await refreshTokens.save(Data(refresh.unredacted().utf8), service: service, account: account)
            set.refreshToken = nil
            set.refreshTokenHeldSeparately = true
        } else if !set.refreshTokenHeldSeparately {
            try await refreshTokens.delete(service: service, account: account)
        }
        try await tokens.save(try set.encoded(), service: service, account: account)
    }

    /// The token set without its refresh token (``TokenSet/refreshTokenHeldSeparately`` tells that one exists);
    /// never touches the protected item, so it never prompts.
    public func load(service: String, account: String) async throws(StorageError) -> Data? {
        try await tokens.load(service: service, account: account)
    }

    public func loadRefreshToken(service: String, account: String) async throws(StorageError) -> String? {
        guard let data = try await refreshTokens.load(service: service, account: account) else { return nil }
        guard let text = String(data: data, encoding: .utf8), !text.isEmpty else {
            throw StorageError(.corruptedData, "the stored refresh token cannot be read")
        }
        return text
    }

    public func delete(service: String, account: String) async throws(StorageError) {
        try await tokens.delete(service: service, account: account)
        try await refreshTokens.delete(service: service, account: account)
    }

    public func deleteAll(service: String) async throws(StorageError) {
        try await tokens.deleteAll(service: service)
        try await refreshTokens.deleteAll(service: service)
    }

    public func accounts(service: String) async throws(StorageError) -> [String] {
        try await tokens.accounts(service: service)
    }
}
