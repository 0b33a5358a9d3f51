import Foundation

/// Where credentials live: one item (bytes) per `service` + `account`.
///
/// Implementations: `KeychainStore` (Apple), `SecretServiceStore` (Linux), ``InMemoryStore`` (tests, the
/// demo) and the explicitly insecure ``PlaintextFileStore``. All of them validate names and sizes the same way
/// (512-byte names, 64 KiB items), return nil for a missing item, and classify failures with ``StorageError``.
///
/// Thread-safety: implementations are `Sendable` and safe to call concurrently.
public protocol CredentialStore: Sendable {
    /// Stores `data`, replacing any existing item.
    func save(_ data: Data, service: String, account: String) async throws(StorageError)
    /// The item, or nil when there is none.
    func load(service: String, account: String) async throws(StorageError) -> Data?
    /// Deletes the item (no error when it does not exist).
    func delete(service: String, account: String) async throws(StorageError)
    /// Deletes every item of `service` (sign-out, reinstall hygiene).
    func deleteAll(service: String) async throws(StorageError)
    /// The accounts that have an item under `service`.
    func accounts(service: String) async throws(StorageError) -> [String]
    /// The lock every holder of this store takes before it refreshes a grant stored here, so that the app, its
    /// extensions and other processes never spend the same rotated refresh token twice. The default,
    /// ``ProcessGrantLock/shared``, serialises holders within one process; stores shared across processes take a
    /// ``FileGrantLock`` in a directory all of them reach.
    var grantLock: any GrantLock { get }
}

extension CredentialStore {
    public var grantLock: any GrantLock { ProcessGrantLock.shared }
}

/// The limits every store enforces.
package enum CredentialStoreLimits {
    /// Maximum service/account length in UTF-8 bytes.
    package static let maximumNameBytes = 512
    /// Maximum item size.
    package static let maximumItemBytes = 64 * 1024

    /// Throws ``StorageErrorDomain/Code/invalidName`` for empty, over-long or control-character names.
    package static func check(service: String, account: String? = nil) throws(StorageError) {
        for (label, name) in [("service", service), ("account", account)] {
            guard let name else { continue }
            guard !name.isEmpty else { throw StorageError(.invalidName, "the \(label) name is empty") }
            guard name.utf8.count <= maximumNameBytes else {
                throw StorageError(.invalidName, "the \(label) name is over \(maximumNameBytes) bytes")
            }
            guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw StorageError(.invalidName, "the \(label) name contains NUL or a control character")
            }
        }
    }

    /// Throws ``StorageErrorDomain/Code/itemTooLarge`` over 64 KiB.
    package static func check(item: Data) throws(StorageError) {
        guard item.count <= maximumItemBytes else {
            throw StorageError(.itemTooLarge, "items are limited to \(maximumItemBytes) bytes")
        }
    }
}
