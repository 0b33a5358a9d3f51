import Foundation
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
