import Foundation

/// The Secure Enclave calls the wrapper makes, one seam: the Apple implementation calls Security
/// (`SecKeyCreateRandomKey` with `kSecAttrTokenIDSecureEnclave`, `SecKeyCreateEncryptedData` /
/// `SecKeyCreateDecryptedData` with `.eciesEncryptionCofactorVariableIVX963SHA256AESGCM`); tests use a software one.
/// Each call returns an `OSStatus` (`KeychainStatus`) and its result.
package protocol SecureEnclaveKeyAPI: Sendable {
    /// Whether a key with `tag` exists (`errSecItemNotFound` when not).
    func findKey(tag: String) -> Int32
    /// Creates a permanent P-256 key with `tag` in the Secure Enclave, usable while unlocked, this device only.
    func createKey(tag: String) -> Int32
    /// ECIES-encrypts `plaintext` to the public half of the key `tag`.
    func encrypt(_ plaintext: [UInt8], tag: String) -> (Int32, [UInt8]?)
    /// ECIES-decrypts with the key `tag`.
    func decrypt(_ ciphertext: [UInt8], tag: String) -> (Int32, [UInt8]?)
}

/// Wraps a ``SealedStore``'s master key with a P-256 key that never leaves this device's Secure Enclave
/// (`SecKeyCreateEncryptedData`, ECIES with X9.63 KDF and AES-GCM), so the stored key item is useless anywhere else —
/// a backup, another device, a copied Keychain.
///
/// ```swift
/// let store = try SealedStore(
///     directory: documents, keyStore: KeychainStore(), keyService: "com.example.app.documents",
///     wrapper: SecureEnclaveKeyWrapper(tag: "com.example.app.documents.wrap"))
/// ```
///
/// The Secure Enclave key is made at the first wrap and reused. When it is gone (the app was restored to another
/// device, or it was deleted), unwrapping is ``StorageErrorDomain/Code/unknownKey``: the sealed files cannot be
/// opened again — remove them (``SealedStore/removeAll()``) and fetch the data again. While the device is locked the
/// key cannot be used (``StorageErrorDomain/Code/interactionNotAllowed``, transient). Only on devices with a Secure
/// Enclave; elsewhere ``StorageErrorDomain/Code/serviceUnavailable``.
public struct SecureEnclaveKeyWrapper: SealingKeyWrapper {
    private let tag: String
    private let api: any SecureEnclaveKeyAPI

    #if WARDEN_APPLE
        /// A wrapper with the Secure Enclave key whose application tag is `tag` (one per store).
        public init(tag: String) throws(StorageError) {
            try self.init(tag: tag, api: SecurityEnclaveKeys())
        }
    #endif

    /// A wrapper over any implementation of the calls (a software one in tests).
    package init(tag: String, api: any SecureEnclaveKeyAPI) throws(StorageError) {
        try CredentialStoreLimits.check(service: tag)
        self.tag = tag
        self.api = api
    }

    public func wrap(_ key: [UInt8]) async throws(StorageError) -> [UInt8] {
        var status = api.findKey(tag: tag)
        if status == KeychainStatus.itemNotFound { status = api.createKey(tag: tag) }
        if let error = Self.error(status, "the Secure Enclave key") { throw error }
        let (encrypted, output) = api.encrypt(key, tag: tag)
        if let error = Self.error(encrypted, "wrapping with the Secure Enclave key") { throw error }
        guard let output else { throw StorageError(.backendFailure, "the Secure Enclave returned nothing") }
        return output
    }

    public func unwrap(_ wrapped: [UInt8]) async throws(StorageError) -> [UInt8] {
        let found = api.findKey(tag: tag)
        if found == KeychainStatus.itemNotFound {
            throw StorageError(
                .unknownKey,
                "the Secure Enclave key that wrapped this store's key is gone (restored to another device?)")
        }
        if let error = Self.error(found, "the Secure Enclave key") { throw error }
        let (status, output) = api.decrypt(wrapped, tag: tag)
        switch status {
        case KeychainStatus.success:
            guard let output else { throw StorageError(.backendFailure, "the Secure Enclave returned nothing") }
            return output
        case KeychainStatus.interactionNotAllowed, KeychainStatus.userCanceled, KeychainStatus.missingEntitlement,
            KeychainStatus.notAvailable:
            throw Self.error(status, "unwrapping")!
        default:
            // errSecParam and the CryptoKit/corecrypto failures of a changed ciphertext or tag.
            throw StorageError(.tampered, "the wrapped key does not open with this device's Secure Enclave key")
        }
    }

    private static func error(_ status: Int32, _ what: String) -> StorageError? {
        guard status != KeychainStatus.success else { return nil }
        if status == KeychainStatus.notAvailable {
            return StorageError(.serviceUnavailable, "\(what): this device has no Secure Enclave")
        }
        return KeychainStatus.error(status) ?? StorageError(.backendFailure, "\(what): status \(status)")
    }
}
