import Foundation
import WardenCrypto

/// Encrypted files and blobs at rest: what an app keeps besides tokens (a cached profile, drafts, downloaded
/// documents), sealed with an AEAD under a key that lives in the Keychain (or the Secret Service), optionally wrapped
/// by the Secure Enclave.
///
/// ```swift
/// let drafts = try SealedStore(
///     directory: FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
///         .appendingPathComponent("Drafts"),
///     keyStore: PlatformStore.make(), keyService: "com.example.app.drafts")
/// try await drafts.write(Data("Dear…".utf8), named: "draft-1")
/// let draft = try await drafts.read(named: "draft-1")        // nil when there is none
/// try await drafts.removeAll()                              // at sign-out: every file and the key
/// ```
///
/// **What it guarantees.** Each file is sealed under its own key (HKDF-SHA256 from the master key and a random
/// 32-byte salt) with a random nonce, with AES-256-GCM (default) or ChaCha20-Poly1305; the header and the file's name
/// are authenticated, so a changed, cut or renamed file, or one sealed under another key, reads as
/// ``StorageErrorDomain/Code/tampered`` and nothing of it is returned. Writes are atomic (a private temporary file,
/// synced, renamed over the old one); files are mode 0600 and opened without following links (a link, FIFO or
/// device at a name is ``StorageErrorDomain/Code/notARegularFile``); reads stop at ``maximumFileBytes``.
///
/// **Where the key lives.** A master key, made at the first write, kept in `keyStore` under `keyService` (account
/// `sealing-keys`). On Apple platforms pass a `KeychainStore` (its default accessibility is
/// `WhenUnlockedThisDeviceOnly`: the key never leaves the device in a backup), optionally with a
/// ``SealingKeyWrapper`` such as ``SecureEnclaveKeyWrapper``, so the stored key is useless without this
/// device's Secure Enclave. On Linux, the Secret Service.
///
/// **Data protection.** Files get ``DataProtectionClass/complete`` unless `protection` says otherwise (a background
/// task that reads while the device is locked needs `.completeUntilFirstUserAuthentication`); the class is set on the
/// directory and on each file before a byte is written. While a `.complete` file cannot be opened, a read is
/// ``StorageErrorDomain/Code/locked``. ``protection(ofFileNamed:)`` reads the class back (the guide's
/// `.protectionKey` check); Linux has none.
///
/// **One writer of keys.** Any process sharing the directory and key item (an app and its extensions) reads and
/// writes; rotate keys (``rotateKey()``) from one of them.
///
/// Thread-safety: an actor.
public actor SealedStore {
    /// Files above this are refused, on write and on read (64 MiB unless configured).
    public let maximumFileBytes: Int
    /// The AEAD new files are sealed with. Files sealed with the other one still open.
    public let algorithm: AEADAlgorithm
    /// The data protection class of the files (Apple platforms).
    public let fileProtection: DataProtectionClass

    private let files: SealedFiles
    private let keyStore: any CredentialStore
    private let keyService: String
    private let wrapper: (any SealingKeyWrapper)?
    /// The key list last read; used only to open files (a seal always reads the stored list first).
    private var keyring: SealingKeyring?
    /// One operation at a time, in arrival order: the actor alone would let `removeAll()` run while `rotateKey()`
    /// waits on the key store, and rotation would then write back files and a key that sign-out had just removed.
    private let operations = ProcessGrantLock()

    private func exclusive<T>(_ body: () async throws(StorageError) -> T) async throws(StorageError) -> T {
        let lease = try await operations.acquire(service: keyService, account: "operations")
        do throws(StorageError) {
            let value = try await body()
            await lease.release()
            return value
        } catch {
            await lease.release()
            throw error
        }
    }

    private static let keyAccount = "sealing-keys"

    /// A store of sealed files in `directory` (created 0700 at the first write).
    ///
    /// - Parameters:
    ///   - directory: the store's own directory; the store lists and removes the files in it.
    ///   - keyStore: where the master key is kept (`KeychainStore` on Apple, `SecretServiceStore` on Linux).
    ///   - keyService: the key item's service name, one per store.
    ///   - wrapper: wraps the master key before it is stored (`SecureEnclaveKeyWrapper` on Apple), or nil.
    ///   - algorithm: the AEAD for new files.
    ///   - protection: the files' data protection class.
    ///   - maximumFileBytes: the largest file written or read.
    /// - Throws: ``StorageErrorDomain/Code/invalidName`` for an empty or control-character service name.
    public init(
        directory: URL, keyStore: any CredentialStore, keyService: String, wrapper: (any SealingKeyWrapper)? = nil,
        algorithm: AEADAlgorithm = .aes256GCM, protection: DataProtectionClass = .complete,
        maximumFileBytes: Int = 64 << 20
    ) throws(StorageError) {
        try self.init(
            directory: directory, keyStore: keyStore, keyService: keyService, wrapper: wrapper, algorithm: algorithm,
            protection: protection, maximumFileBytes: maximumFileBytes, fileProtection: SystemFileProtection())
    }

    /// The same, with the data protection seam (the model in tests).
    package init(
        directory: URL, keyStore: any CredentialStore, keyService: String, wrapper: (any SealingKeyWrapper)?,
        algorithm: AEADAlgorithm, protection: DataProtectionClass, maximumFileBytes: Int,
        fileProtection: any FileProtection
    ) throws(StorageError) {
        try CredentialStoreLimits.check(service: keyService)
        guard maximumFileBytes > 0 else { throw StorageError(.invalidName, "maximumFileBytes must be positive") }
        self.maximumFileBytes = maximumFileBytes
        self.algorithm = algorithm
        self.fileProtection = protection
        self.keyStore = keyStore
        self.keyService = keyService
        self.wrapper = wrapper
        files = SealedFiles(
            directory: directory.standardizedFileURL.path, protection: fileProtection, fileClass: protection)
    }

    // MARK: Files

    /// Seals `data` and writes it as `name`, replacing any file of that name atomically.
    /// - Throws: ``StorageErrorDomain/Code/invalidName`` for a name that is not one path component;
    ///   ``StorageErrorDomain/Code/itemTooLarge`` above ``maximumFileBytes``; the key store's errors.
    public func write(_ data: some DataProtocol, named name: String) async throws(StorageError) {
        try SealedFiles.check(name: name)
        let plaintext = Array(data)
        guard plaintext.count + SealedFormat.overhead <= maximumFileBytes else {
            throw StorageError(.itemTooLarge, "a sealed file is limited to \(maximumFileBytes) bytes")
        }
        try await exclusive { () async throws(StorageError) in
            let sealed = try await sealLocked(plaintext, context: name)
            try files.prepare()
            try files.write(sealed, name: name)
        }
    }

    /// The opened contents of `name`, or nil when there is no such file.
    /// - Throws: ``StorageErrorDomain/Code/tampered``, ``StorageErrorDomain/Code/notARegularFile``,
    ///   ``StorageErrorDomain/Code/corruptedData`` (not a sealed file), ``StorageErrorDomain/Code/unknownKey``,
    ///   ``StorageErrorDomain/Code/locked`` (protected while the device is locked),
    ///   ``StorageErrorDomain/Code/itemTooLarge``.
    public func read(named name: String) async throws(StorageError) -> Data? {
        try SealedFiles.check(name: name)
        return try await exclusive { () async throws(StorageError) -> Data? in
            guard let sealed = try files.read(name: name, maximumBytes: maximumFileBytes) else { return nil }
            return Data(try await openLocked(sealed, context: name))
        }
    }

    /// Removes `name`; no such file is not an error.
    public func remove(named name: String) async throws(StorageError) {
        try SealedFiles.check(name: name)
        try await exclusive { () throws(StorageError) in try files.remove(name: name) }
    }

    /// The names of the stored files, sorted.
    public func names() throws(StorageError) -> [String] { try files.list().names }

    /// Removes every file of the store, its leftover temporary files and its key: what sign-out does with data at
    /// rest. Files already copied elsewhere stay sealed under a key that no longer exists.
    public func removeAll() async throws(StorageError) {
        try await exclusive { () async throws(StorageError) in
            let listing = try files.list()
            for name in listing.names + listing.temporary { try files.remove(name: name) }
            try await keyStore.delete(service: keyService, account: Self.keyAccount)
            keyring = nil
        }
    }

    /// The data protection class the system reports for `name` (the iOS security guide's `.protectionKey` check),
    /// or nil on Linux or for a missing file.
    public func protection(ofFileNamed name: String) throws(StorageError) -> DataProtectionClass? {
        try SealedFiles.check(name: name)
        return files.protectionClass(name: name)
    }

    // MARK: Blobs

    /// Seals `plaintext` for `context` (what it is, e.g. a record's ID: the same context opens it).
    public func seal(_ plaintext: [UInt8], context: String) async throws(StorageError) -> [UInt8] {
        try await exclusive { () async throws(StorageError) in try await sealLocked(plaintext, context: context) }
    }

    /// Seals under the *stored* current key, read again each time: another process may have rotated it, and a file
    /// sealed under a key it has dropped could never be opened again.
    private func sealLocked(_ plaintext: [UInt8], context: String) async throws(StorageError) -> [UInt8] {
        try Self.check(context: context)
        keyring = nil
        let current = try await loadKeyring(creating: true)!.current
        return try SealedFormat.seal(
            plaintext, context: context, master: current.key, keyID: current.id, algorithm: algorithm)
    }

    /// Opens what ``seal(_:context:)`` (or ``write(_:named:)``, with the name as context) sealed.
    /// - Throws: ``StorageErrorDomain/Code/tampered``, ``StorageErrorDomain/Code/corruptedData``,
    ///   ``StorageErrorDomain/Code/unknownKey``, ``StorageErrorDomain/Code/itemTooLarge``.
    public func open(_ sealed: [UInt8], context: String) async throws(StorageError) -> [UInt8] {
        try await exclusive { () async throws(StorageError) in try await openLocked(sealed, context: context) }
    }

    private func openLocked(_ sealed: [UInt8], context: String) async throws(StorageError) -> [UInt8] {
        try Self.check(context: context)
        let parts = try SealedFormat.parse(sealed, maximumBytes: maximumFileBytes)
        var master = try await loadKeyring(creating: false)?.key(for: parts.header.keyID)
        if master == nil {
            // Another process may have rotated the key since this one read it.
            keyring = nil
            master = try await loadKeyring(creating: false)?.key(for: parts.header.keyID)
        }
        guard let master else {
            throw StorageError(.unknownKey, "'\(context)' was sealed under a key this store no longer has")
        }
        return try SealedFormat.open(
            header: parts.header, ciphertext: parts.ciphertext, tag: parts.tag, context: context, master: master)
    }

    // MARK: Keys

    /// Makes a new master key, seals every file again under it, then forgets the old keys. Returns how many files
    /// were sealed again. Interrupted, it leaves both keys stored and every file readable; run it again to finish.
    /// Blobs sealed with ``seal(_:context:)`` and kept elsewhere must be sealed again before, or they no longer open.
    @discardableResult
    public func rotateKey() async throws(StorageError) -> Int {
        try await exclusive { () async throws(StorageError) in try await rotateLocked() }
    }

    private func rotateLocked() async throws(StorageError) -> Int {
        keyring = nil
        var ring = try await loadKeyring(creating: false) ?? SealingKeyring(entries: [])
        // A list of more than one key is an interrupted rotation: finish it with its new key, not another one.
        if ring.entries.count <= 1 {
            ring.entries.insert(try SealingKeyring.generate(), at: 0)
            try await saveKeyring(ring)
        }
        keyring = ring
        var count = 0
        for name in try files.list().names {
            guard let sealed = try files.read(name: name, maximumBytes: maximumFileBytes) else { continue }
            let data = try await openLocked(sealed, context: name)
            try files.write(
                try SealedFormat.seal(
                    data, context: name, master: ring.current.key, keyID: ring.current.id, algorithm: algorithm),
                name: name)
            count += 1
        }
        let kept = SealingKeyring(entries: [ring.current])
        try await saveKeyring(kept)
        keyring = kept
        return count
    }

    private static func check(context: String) throws(StorageError) {
        guard context.utf8.count <= SealedFormat.maximumContextBytes else {
            throw StorageError(.invalidName, "a sealing context is at most \(SealedFormat.maximumContextBytes) bytes")
        }
    }

    private func loadKeyring(creating: Bool) async throws(StorageError) -> SealingKeyring? {
        if let keyring { return keyring }
        if let stored = try await keyStore.load(service: keyService, account: Self.keyAccount) {
            let ring = try SealingKeyring(bytes: try await unwrap(Array(stored)))
            keyring = ring
            return ring
        }
        guard creating else { return nil }
        // The first key is made under the key store's grant lock (a `FileGrantLock` shared by an app and its
        // extensions, as for tokens), and only when the item is still absent inside it: a second process waits, then
        // finds the first one's key instead of overwriting it (files sealed under an overwritten key would be lost).
        let lease = try await keyStore.grantLock.acquire(service: keyService, account: Self.keyAccount)
        do {
            if try await keyStore.load(service: keyService, account: Self.keyAccount) == nil {
                try await saveKeyring(SealingKeyring(entries: [try SealingKeyring.generate()]))
            }
        } catch {
            await lease.release()
            throw error
        }
        await lease.release()
        guard let stored = try await keyStore.load(service: keyService, account: Self.keyAccount) else {
            throw StorageError(.backendFailure, "the sealed store's key was not kept by the key store")
        }
        let ring = try SealingKeyring(bytes: try await unwrap(Array(stored)))
        keyring = ring
        return ring
    }

    private func saveKeyring(_ ring: SealingKeyring) async throws(StorageError) {
        guard ring.entries.count <= SealingKeyring.maximumKeys else {
            throw StorageError(.itemTooLarge, "a sealed store keeps at most \(SealingKeyring.maximumKeys) keys")
        }
        let bytes: [UInt8]
        if let wrapper {
            bytes = [1] + (try await wrapper.wrap(ring.bytes))
        } else {
            bytes = [0] + ring.bytes
        }
        try await keyStore.save(Data(bytes), service: keyService, account: Self.keyAccount)
    }

    private func unwrap(_ stored: [UInt8]) async throws(StorageError) -> [UInt8] {
        switch (stored.first, wrapper) {
        case (0, nil): return Array(stored.dropFirst())
        case (1, let wrapper?): return try await wrapper.unwrap(Array(stored.dropFirst()))
        case (1, nil):
            throw StorageError(.unknownKey, "the sealed store's key is wrapped, and this store was given no wrapper")
        case (0, .some):
            throw StorageError(
                .corruptedData, "the sealed store's key is stored unwrapped, but this store expects a wrapped key")
        default: throw StorageError(.corruptedData, "the sealed store's key item is not one this version reads")
        }
    }
}

/// Wraps a sealed store's master key before it is stored, so that the stored item alone opens nothing.
///
/// ``SecureEnclaveKeyWrapper`` encrypts it to a Secure Enclave P-256 key (`SecKeyCreateEncryptedData`,
/// ECIES with AES-GCM); ``X25519KeyWrapper`` does the same in software with a key the caller keeps.
public protocol SealingKeyWrapper: Sendable {
    /// The wrapped form of `key`.
    func wrap(_ key: [UInt8]) async throws(StorageError) -> [UInt8]
    /// `key` back from its wrapped form.
    /// - Throws: ``StorageErrorDomain/Code/unknownKey`` when the wrapping key is gone (a Secure Enclave key after a
    ///   restore to another device), ``StorageErrorDomain/Code/tampered`` when the wrapped bytes were changed.
    func unwrap(_ wrapped: [UInt8]) async throws(StorageError) -> [UInt8]
}

/// ECIES over X25519 in software: an ephemeral key agrees with the recipient's, HKDF-SHA256 turns the shared secret
/// into an AES-256-GCM key, and the output is `ephemeral public key ‖ nonce ‖ ciphertext ‖ tag`.
///
/// For servers and tests, where the recipient key is kept by the caller (a file readable only by the service, an
/// HSM export). On Apple devices prefer `SecureEnclaveKeyWrapper`, whose key never leaves the hardware.
public struct X25519KeyWrapper: SealingKeyWrapper {
    private let recipient: X25519PrivateKey

    /// A wrapper to and from `recipient`.
    public init(recipient: X25519PrivateKey) { self.recipient = recipient }

    private static let info = Array("warden.wrap.x25519.v1".utf8)

    public func wrap(_ key: [UInt8]) async throws(StorageError) -> [UInt8] {
        do {
            let ephemeral = try X25519PrivateKey()
            let shared = try ephemeral.sharedSecret(with: recipient.publicKey)
            let salt = ephemeral.publicKey.rawRepresentation + recipient.publicKey.rawRepresentation
            let wrappingKey = try AEADKey(
                HKDF.deriveKey(from: shared, salt: salt, info: Self.info, byteCount: 32), algorithm: .aes256GCM)
            return ephemeral.publicKey.rawRepresentation + (try wrappingKey.seal(key, authenticating: salt)).combined
        } catch {
            throw StorageError(.backendFailure, "wrapping the key failed: \(error.reason)")
        }
    }

    public func unwrap(_ wrapped: [UInt8]) async throws(StorageError) -> [UInt8] {
        guard wrapped.count >= 32 + AEADAlgorithm.nonceByteCount + AEADAlgorithm.tagByteCount else {
            throw StorageError(.corruptedData, "a wrapped key is at least 60 bytes")
        }
        do {
            let ephemeral = try X25519PublicKey(rawRepresentation: Array(wrapped.prefix(32)))
            let shared = try recipient.sharedSecret(with: ephemeral)
            let salt = ephemeral.rawRepresentation + recipient.publicKey.rawRepresentation
            let wrappingKey = try AEADKey(
                HKDF.deriveKey(from: shared, salt: salt, info: Self.info, byteCount: 32), algorithm: .aes256GCM)
            return try wrappingKey.open(AEADSealedBox(combined: Array(wrapped.dropFirst(32))), authenticating: salt)
        } catch {
            throw StorageError(.tampered, "the wrapped key does not open with this recipient key: \(error.reason)")
        }
    }
}
