import Foundation
import WardenStorage

/// Keeps a ``TokenSet``'s refresh token in its own, more protected item, so it can be bound to biometry while
/// the access token stays readable for background work.
///
/// With one item for the whole set, binding it to `.biometryCurrentSet` makes every session restore prompt and
/// background refresh impossible. Split, the `tokens` store (e.g. `afterFirstUnlockThisDeviceOnly`) holds the
/// access and ID tokens with a marker, and the `refreshTokens` store (e.g. `.biometryCurrentSet`) holds only the
/// refresh token; `AuthSession` reads it (``loadRefreshToken(service:account:)``) only when it refreshes.
///
/// **Two items, two primary keys.** A Keychain generic-password item is keyed by class + service + account (+ access
/// group), whatever its protection: two stores writing the same service and account write one item, and the token set
/// would overwrite the biometric-bound refresh token. The refresh token is therefore kept under its own service,
/// ``refreshTokenService(for:)`` (`<service>.refresh-token`), same account. Both stores may be the same Keychain,
/// the same access group, even the same store.
///
/// Rotation safety: the refresh token is written first, then the rest; if the second write fails the rotated
/// refresh token is already safe. ``deleteTokens(service:account:)`` and ``records`` (what sign-out, pending
/// revocations and ``InstallSentinel`` use) remove both items: give a session this store, not one of its halves.
///
/// ```swift
/// let store = SplitTokenStore(
///     tokens: KeychainStore(accessibility: .afterFirstUnlockThisDeviceOnly),
///     refreshTokens: KeychainStore(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet))
/// ```
///
/// Thread-safety: stateless; as safe as the two stores.
public struct SplitTokenStore: TokenStore {
    /// The store of the access and ID tokens (the set, with a marker instead of its refresh token) and of the
    /// session's other records.
    public let tokens: any CredentialStore
    /// The store of the refresh tokens alone, under ``refreshTokenService(for:)``.
    public let refreshTokens: any CredentialStore

    /// A split store over `tokens` and `refreshTokens` (which may be the same store: the keys differ).
    public init(tokens: any CredentialStore, refreshTokens: any CredentialStore) {
        self.tokens = tokens
        self.refreshTokens = refreshTokens
    }

    /// Both halves of a grant are refreshed together: the lock is the `tokens` store's.
    public var grantLock: any GrantLock { tokens.grantLock }

    /// True: the refresh token has its own item.
    public var keepsRefreshTokensApart: Bool { true }

    /// The `tokens` store for every other record, and both halves for deletions: deleting a service or an account
    /// here deletes its refresh-token items too.
    public var records: any CredentialStore { Records(split: self) }

    /// What is appended to a service name to key its refresh-token items.
    public static let refreshTokenSuffix = ".refresh-token"

    /// The service the refresh token of `service` is stored under, in the `refreshTokens` store.
    ///
    /// Throws ``StorageErrorDomain/Code/invalidName`` when the name leaves no room for the suffix (or is invalid).
    public static func refreshTokenService(for service: String) throws(StorageError) -> String {
        try CredentialStoreLimits.check(service: service)
        guard service.utf8.count + refreshTokenSuffix.utf8.count <= CredentialStoreLimits.maximumNameBytes else {
            throw StorageError(
                .invalidName,
                "the service name is over \(CredentialStoreLimits.maximumNameBytes - refreshTokenSuffix.utf8.count) "
                    + "bytes, which leaves no room for its refresh-token item")
        }
        return service + refreshTokenSuffix
    }

    /// Stores the refresh token (if the set has one) in `refreshTokens`, then the rest in `tokens`.
    public func saveTokens(_ tokens: TokenSet, service: String, account: String) async throws(StorageError) {
        var set = tokens
        let refreshService = try Self.refreshTokenService(for: service)
        if let refresh = set.refreshToken {
            try await refreshTokens.save(Data(refresh.unredacted().utf8), service: refreshService, account: account)
            set.refreshToken = nil
            set.refreshTokenHeldSeparately = true
        } else if !set.refreshTokenHeldSeparately {
            try await refreshTokens.delete(service: refreshService, account: account)
        }
        try await self.tokens.save(try set.encoded(), service: service, account: account)
    }

    /// The token set without its refresh token (``TokenSet/refreshTokenHeldSeparately`` tells that one exists);
    /// never touches the protected item, so it never prompts.
    public func loadTokens(service: String, account: String) async throws(StorageError) -> TokenSet? {
        guard let data = try await tokens.load(service: service, account: account) else { return nil }
        return try TokenSet(encoded: data)
    }

    /// The refresh token from `refreshTokens` (a prompt, for a biometric-bound item), or nil when its item is gone;
    /// a pre-0.1.0 item under the set's own service is moved to its own service first.
    public func loadRefreshToken(service: String, account: String) async throws(StorageError) -> String? {
        let refreshService = try Self.refreshTokenService(for: service)
        if let data = try await refreshTokens.load(service: refreshService, account: account) {
            return try Self.refreshToken(data)
        }
        return try await migrateLegacyRefreshToken(service: service, refreshService: refreshService, account: account)
    }

    private static func refreshToken(_ data: Data) throws(StorageError) -> String {
        guard let text = String(data: data, encoding: .utf8), !text.isEmpty else {
            throw StorageError(.corruptedData, "the stored refresh token cannot be read")
        }
        return text
    }

    /// Versions before 0.1.0 kept the refresh token under the token set's own service. Where the two halves were
    /// separate items (other access groups, other stores) it is still there: it moves to its own service. Where they
    /// shared one Keychain item, that item holds the token set (no refresh token is left to move).
    private func migrateLegacyRefreshToken(service: String, refreshService: String, account: String)
        async throws(StorageError) -> String?
    {
        guard let legacy = try await refreshTokens.load(service: service, account: account),
            (try? TokenSet(encoded: legacy)) == nil
        else { return nil }
        let token = try Self.refreshToken(legacy)
        try await refreshTokens.save(legacy, service: refreshService, account: account)
        try await refreshTokens.delete(service: service, account: account)
        return token
    }

    /// Deletes the token set and its refresh-token item.
    public func deleteTokens(service: String, account: String) async throws(StorageError) {
        try await tokens.delete(service: service, account: account)
        // A pre-0.1.0 refresh token under the token set's own service goes too (the same key as the token set's
        // where both halves share a Keychain, which `tokens` just deleted anyway).
        try await refreshTokens.delete(service: service, account: account)
        // A name with no room for the suffix never had a refresh-token item.
        if let refreshService = try? Self.refreshTokenService(for: service) {
            try await refreshTokens.delete(service: refreshService, account: account)
        }
    }

    /// ``records``: the `tokens` store, with deletions that reach both halves.
    struct Records: CredentialStore {
        let split: SplitTokenStore

        func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            try await split.tokens.save(data, service: service, account: account)
        }

        func load(service: String, account: String) async throws(StorageError) -> Data? {
            try await split.tokens.load(service: service, account: account)
        }

        func delete(service: String, account: String) async throws(StorageError) {
            try await split.deleteTokens(service: service, account: account)
        }

        func deleteAll(service: String) async throws(StorageError) {
            try await split.tokens.deleteAll(service: service)
            try await split.refreshTokens.deleteAll(service: service)
            if let refreshService = try? SplitTokenStore.refreshTokenService(for: service) {
                try await split.refreshTokens.deleteAll(service: refreshService)
            }
        }

        func accounts(service: String) async throws(StorageError) -> [String] {
            try await split.tokens.accounts(service: service)
        }

        var grantLock: any GrantLock { split.grantLock }
    }
}
