import Foundation

/// The portable body of `KeychainStore`: a ``CredentialStore`` over any ``KeychainAPI``, each call run off the
/// cooperative pool.
///
/// A store whose items are access-controlled runs on its own queue (``BlockingCallQueue/protectedKeychain``): a read
/// of such an item blocks in `SecItemCopyMatching` until the user answers the prompt, and every other Keychain call of
/// the process (the access token a background task needs, another account's items) must not wait behind it. Calls of
/// one store stay serialised, so an add-then-update never races another.
package struct KeychainItemStore: CredentialStore {
    let logic: KeychainLogic
    package let grantLock: any GrantLock

    package init(api: any KeychainAPI, configuration: KeychainQuery.Configuration, grantLock: any GrantLock) {
        logic = KeychainLogic(api: api, configuration: configuration)
        self.grantLock = grantLock
    }

    /// The queue this store's calls run on.
    var queue: BlockingCallQueue {
        logic.configuration.accessControl == .none ? .keychain : .protectedKeychain
    }

    package func save(_ data: Data, service: String, account: String) async throws(StorageError) {
        let logic = logic
        try await queue.run { () throws(StorageError) in try logic.save(data, service: service, account: account) }
    }
    package func load(service: String, account: String) async throws(StorageError) -> Data? {
        let logic = logic
        return try await queue.run { () throws(StorageError) in try logic.load(service: service, account: account) }
    }
    package func delete(service: String, account: String) async throws(StorageError) {
        let logic = logic
        try await queue.run { () throws(StorageError) in try logic.delete(service: service, account: account) }
    }
    package func deleteAll(service: String) async throws(StorageError) {
        let logic = logic
        try await queue.run { () throws(StorageError) in try logic.delete(service: service, account: nil) }
    }
    package func accounts(service: String) async throws(StorageError) -> [String] {
        let logic = logic
        return try await queue.run { () throws(StorageError) in try logic.accounts(service: service) }
    }
}
