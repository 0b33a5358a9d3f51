import Foundation

/// A ``CredentialStore`` in memory, for tests and the demo. Nothing survives the process.
///
/// Thread-safety: an actor.
public actor InMemoryStore: CredentialStore {
    private var items: [String: [String: Data]] = [:]
    /// Failure injection for tests: the next calls throw this error.
    private var injectedFailure: StorageError?
    /// Holders of this store's grants (two sessions over the same instance) wait for each other; another
    /// instance is another store, with its own lock.
    public nonisolated let grantLock: any GrantLock = ProcessGrantLock()

    /// An empty store with its own in-process ``grantLock``.
    public init() {}

    /// Makes every call throw `error` until ``clearFailure()`` (tests of locked keychains and full disks).
    package func injectFailure(_ error: StorageError) { injectedFailure = error }
    package func clearFailure() { injectedFailure = nil }

    public func save(_ data: Data, service: String, account: String) throws(StorageError) {
        try CredentialStoreLimits.check(service: service, account: account)
        try CredentialStoreLimits.check(item: data)
        if let injectedFailure { throw injectedFailure }
        items[service, default: [:]][account] = data
    }

    public func load(service: String, account: String) throws(StorageError) -> Data? {
        try CredentialStoreLimits.check(service: service, account: account)
        if let injectedFailure { throw injectedFailure }
        return items[service]?[account]
    }

    public func delete(service: String, account: String) throws(StorageError) {
        try CredentialStoreLimits.check(service: service, account: account)
        if let injectedFailure { throw injectedFailure }
        items[service]?[account] = nil
    }

    public func deleteAll(service: String) throws(StorageError) {
        try CredentialStoreLimits.check(service: service)
        if let injectedFailure { throw injectedFailure }
        items[service] = nil
    }

    public func accounts(service: String) throws(StorageError) -> [String] {
        try CredentialStoreLimits.check(service: service)
        if let injectedFailure { throw injectedFailure }
        return (items[service] ?? [:]).keys.sorted()
    }

    /// Every stored byte, for leak tests.
    package func allItems() -> [Data] { items.values.flatMap(\.values) }
}
