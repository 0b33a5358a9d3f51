import Foundation
import WardenSession
import WardenStorage

/// A test store that misbehaves (or observes) in one way and otherwise is its `inner` store (an ``InMemoryStore``
/// unless it says otherwise): a conformer writes only what it changes (usually `save`), the rest — reads, deletes,
/// listing and the grant lock — goes to `inner`.
protocol DelegatingStore: CredentialStore {
    associatedtype Inner: CredentialStore
    var inner: Inner { get }
}

extension DelegatingStore {
    func save(_ data: Data, service: String, account: String) async throws(StorageError) {
        try await inner.save(data, service: service, account: account)
    }
    func load(service: String, account: String) async throws(StorageError) -> Data? {
        try await inner.load(service: service, account: account)
    }
    func delete(service: String, account: String) async throws(StorageError) {
        try await inner.delete(service: service, account: account)
    }
    func deleteAll(service: String) async throws(StorageError) { try await inner.deleteAll(service: service) }
    func accounts(service: String) async throws(StorageError) -> [String] {
        try await inner.accounts(service: service)
    }
    var grantLock: any GrantLock { inner.grantLock }
}

/// A test token store that observes or changes one thing and otherwise is its `inner` token store, forwarding every
/// requirement — as the README asks of an app's own wrapper (`records` to the inner store's `records`).
protocol DelegatingTokenStore: TokenStore {
    associatedtype Inner: TokenStore
    var inner: Inner { get }
}

extension DelegatingTokenStore {
    func loadTokens(service: String, account: String) async throws(StorageError) -> TokenSet? {
        try await inner.loadTokens(service: service, account: account)
    }
    func saveTokens(_ tokens: TokenSet, service: String, account: String) async throws(StorageError) {
        try await inner.saveTokens(tokens, service: service, account: account)
    }
    func deleteTokens(service: String, account: String) async throws(StorageError) {
        try await inner.deleteTokens(service: service, account: account)
    }
    func loadRefreshToken(service: String, account: String) async throws(StorageError) -> String? {
        try await inner.loadRefreshToken(service: service, account: account)
    }
    var keepsRefreshTokensApart: Bool { inner.keepsRefreshTokensApart }
    var grantLock: any GrantLock { inner.grantLock }
    var records: any CredentialStore { inner.records }
}
