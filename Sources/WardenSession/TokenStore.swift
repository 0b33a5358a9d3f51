import Foundation
import WardenStorage

/// Where a session keeps its grant: ``TokenSet``s in and out, the lock every holder of the grant takes before it
/// refreshes, and the credential store under it all.
///
/// Two implementations: ``ItemTokenStore``, one item per account in any `CredentialStore` (what `store:
/// KeychainStore()` means wherever a session takes a store), and ``SplitTokenStore``, which keeps the refresh token in
/// its own, more protected item. `AuthSession` asks the store, never its type, whether refresh tokens are kept apart:
/// a store of your own that wraps one of these (logging, metrics, a migration) forwards every requirement it does not
/// change — ``keepsRefreshTokensApart``, ``loadRefreshToken(service:account:)``, ``deleteTokens(service:account:)``,
/// ``grantLock``, and ``records`` to the inner store's `records` (not to one of its halves: purges must reach both).
///
/// Thread-safety: implementations are `Sendable` and safe to call concurrently.
public protocol TokenStore: Sendable {
    /// The account's tokens, or nil when none are stored. A store that keeps refresh tokens apart returns the set
    /// without it, with ``TokenSet/refreshTokenHeldSeparately`` set; it never reads the protected item here.
    func loadTokens(service: String, account: String) async throws(StorageError) -> TokenSet?
    /// Stores `tokens` in place of the account's (a rotated refresh token first, where it is kept apart).
    func saveTokens(_ tokens: TokenSet, service: String, account: String) async throws(StorageError)
    /// Deletes every part of the account's tokens (no error when there are none).
    func deleteTokens(service: String, account: String) async throws(StorageError)
    /// The refresh token kept apart, or nil when its item is gone — for a biometric-bound item that is what a change
    /// of the enrolled fingers or faces does. Asked only when refreshing a set whose refresh token is held apart.
    func loadRefreshToken(service: String, account: String) async throws(StorageError) -> String?
    /// Whether saved refresh tokens are kept apart: the session then drops its copy from memory once it is stored.
    var keepsRefreshTokensApart: Bool { get }
    /// The lock every holder of a grant stored here takes before refreshing it, so that the app, its extensions
    /// and other processes never spend the same rotated refresh token twice.
    var grantLock: any GrantLock { get }
    /// The credential store the session keeps its other records in (pending revocations) and that reinstall
    /// hygiene purges: deleting a service there deletes every part of the tokens stored under it.
    var records: any CredentialStore { get }
}

/// Token sets as one item per account in a credential store: a refresh-token rotation is one atomic write.
///
/// ```swift
/// let store = ItemTokenStore(KeychainStore(accessibility: .afterFirstUnlockThisDeviceOnly))
/// ```
///
/// Thread-safety: stateless; as safe as `store`.
public struct ItemTokenStore: TokenStore {
    /// The store the items are in.
    public let store: any CredentialStore

    /// Token sets stored in `store`.
    public init(_ store: any CredentialStore) { self.store = store }

    public func loadTokens(service: String, account: String) async throws(StorageError) -> TokenSet? {
        guard let data = try await store.load(service: service, account: account) else { return nil }
        return try TokenSet(encoded: data)
    }

    public func saveTokens(_ tokens: TokenSet, service: String, account: String) async throws(StorageError) {
        try await store.save(try tokens.encoded(), service: service, account: account)
    }

    public func deleteTokens(service: String, account: String) async throws(StorageError) {
        try await store.delete(service: service, account: account)
    }

    /// Nil: the refresh token is in the set's own item.
    public func loadRefreshToken(service: String, account: String) async throws(StorageError) -> String? { nil }

    /// False: one item holds the whole set.
    public var keepsRefreshTokensApart: Bool { false }

    /// The store's lock.
    public var grantLock: any GrantLock { store.grantLock }

    /// The store itself.
    public var records: any CredentialStore { store }
}
