import Foundation
import WardenCore
import WardenOAuth
import WardenStorage

/// Where a client's DPoP key lives between launches. On Apple platforms `SecureEnclaveDPoPKey.loadOrCreate`
/// (WardenApple) keeps a Secure Enclave key and falls back to this software key where there is no Secure Enclave
/// (the simulator, older Macs); on Linux the software key is kept in the credential store (the Secret Service).
///
/// The tokens record the key's thumbprint; if the stored key is lost, the session signs out instead of using the
/// tokens (`AuthSession.restore(store:service:account:refresher:sentinel:now:dpop:)`).
///
/// ```swift
/// let key = try await DPoPKeys.software(store: SecretServiceStore(), service: "com.example.dpop", account: "alice")
/// ```
public enum DPoPKeys {
    /// The software P-256 key stored for `account`, created and stored on first use.
    public static func software(store: any CredentialStore, service: String, account: String) async throws
        -> SoftwareDPoPKey
    {
        if let data = try await store.load(service: service, account: account) {
            guard let pem = String(data: data, encoding: .utf8), let key = try? SoftwareDPoPKey(pem: pem) else {
                throw StorageError(.corruptedData, "the stored DPoP key cannot be read; delete it and sign in again")
            }
            return key
        }
        let key = try SoftwareDPoPKey()
        try await store.save(Data(key.pkcs8PEM().unredacted().utf8), service: service, account: account)
        return key
    }
}

/// A maker of hardware-held DPoP keys (the Secure Enclave on Apple platforms, `SecureEnclaveDPoPKey`): the private key
/// never leaves the hardware, and what is stored is an opaque blob only this device's hardware can use.
public protocol HardwareDPoPKeyMaker: Sendable {
    /// Whether this device has the hardware (false in the simulator and on Macs without a Secure Enclave).
    var isAvailable: Bool { get }
    /// A new key, usable under `accessibility`, and its blob.
    func create(accessibility: KeychainAccessibility) throws -> (blob: Data, key: any DPoPKey)
    /// The key of a stored blob.
    func open(_ blob: Data) throws(HardwareKeyFailure) -> any DPoPKey
}

/// Why a stored hardware key could not be opened.
public enum HardwareKeyFailure: WardenError, Equatable {
    /// Not now (the device is locked, the keychain not readable yet): try again later; the key is fine.
    case unavailableNow(String)
    /// The blob will never work again (another device's, the hardware key was invalidated or erased).
    case unusable(String)

    /// Classifies what reopening a hardware key threw, by its domain and code (`error as NSError`).
    ///
    /// Replacing a key signs the user out, so only errors known to be permanent are ``unusable(_:)``: the blob cannot
    /// be decoded (`errSecDecode` -26275), or the token says its data is corrupt or the key object is gone
    /// (CryptoTokenKit `corruptedData` -3, `objectNotFound` -6). Everything else — a locked device, LocalAuthentication,
    /// a Secure Enclave or daemon hiccup, an error nobody has identified — is ``unavailableNow(_:)``: the key is kept
    /// and the call fails transiently. (The device checklist asks to record what a reset Secure Enclave reports.)
    public static func classify(_ error: any Error) -> HardwareKeyFailure {
        let reported = error as NSError
        let description = "\(reported.domain) \(reported.code)"
        switch (reported.domain, reported.code) {
        case (NSOSStatusErrorDomain, -26275), ("CryptoTokenKit", -3), ("CryptoTokenKit", -6):
            return .unusable(description)
        default:
            return .unavailableNow(description)
        }
    }

    public var codeName: String {
        switch self {
        case .unavailableNow: "hardware_key_unavailable"
        case .unusable: "hardware_key_unusable"
        }
    }

    /// What the system reported (its error domain and code).
    public var reason: String {
        switch self {
        case .unavailableNow(let reported): "the hardware key cannot be used now (\(reported))"
        case .unusable(let reported): "the hardware key is gone for good (\(reported))"
        }
    }

    /// `unavailableNow` is transient (the key is kept); `unusable` is rejected (a new key replaces it).
    public var failureKind: FailureKind {
        switch self {
        case .unavailableNow: .transient
        case .unusable: .rejected
        }
    }
}

extension DPoPKeys {
    /// A DPoP key as it was loaded.
    public struct Loaded: Sendable {
        public let key: any DPoPKey
        /// Whether the key is held by hardware (false: the software fallback, where there is none).
        public let hardwareBacked: Bool
        /// Whether a stored key was unusable and has been replaced by a new one: tokens bound to the old key can no
        /// longer be used (the session signs out when it sees the other thumbprint), and the user signs in again.
        public let replacedUnusableKey: Bool
    }

    /// The account's hardware DPoP key, created on first use; a software key in the same store where the device has
    /// no hardware.
    ///
    /// - The blob is kept in `store`, which must protect it as the key is (`SecureEnclaveDPoPKey.loadOrCreate` builds a
    ///   Keychain store with the key's accessibility, so a background refresh that may use the key can read it).
    /// - Two first calls at once make **one** key: the call holds the store's ``CredentialStore/grantLock`` for
    ///   `service`/`account` and re-reads the store inside it. Within a process that is the default lock; for the app
    ///   and its extensions give the store a ``FileGrantLock`` in the app group container.
    /// - A blob that cannot be opened *now* (a locked device) throws ``StorageErrorDomain/Code/interactionNotAllowed``
    ///   (transient: keep the session). A blob that will never open again is deleted and replaced, and the result
    ///   says so (``Loaded/replacedUnusableKey``), instead of failing at every launch.
    public static func hardware(
        store: any CredentialStore, service: String, account: String, maker: any HardwareDPoPKeyMaker,
        accessibility: KeychainAccessibility = .whenUnlockedThisDeviceOnly
    ) async throws -> Loaded {
        guard maker.isAvailable else {
            return Loaded(
                key: try await software(store: store, service: service, account: account), hardwareBacked: false,
                replacedUnusableKey: false)
        }
        let lease = try await store.grantLock.acquire(service: service, account: account)
        do {
            let loaded = try await loadOrCreateHeld(
                store: store, service: service, account: account, maker: maker, accessibility: accessibility)
            await lease.release()
            return loaded
        } catch {
            await lease.release()
            throw error
        }
    }

    private static func loadOrCreateHeld(
        store: any CredentialStore, service: String, account: String, maker: any HardwareDPoPKeyMaker,
        accessibility: KeychainAccessibility
    ) async throws -> Loaded {
        var replaced = false
        if let blob = try await store.load(service: service, account: account) {
            do throws(HardwareKeyFailure) {
                let key = try maker.open(blob)
                // Written again with this store's protection: a blob an earlier version saved in a store of another
                // class (when-unlocked where the key now needs after-first-unlock) gets the class its key has. A
                // failed rewrite leaves the readable item as it was.
                try? await store.save(blob, service: service, account: account)
                return Loaded(key: key, hardwareBacked: true, replacedUnusableKey: false)
            } catch {
                switch error {
                case .unavailableNow(let reason):
                    throw StorageError(.interactionNotAllowed, "the DPoP key cannot be used right now: \(reason)")
                case .unusable(let reason):
                    WardenLogger(category: "dpop").warning(
                        "replacing an unusable hardware DPoP key", metadata: ["reason": reason])
                    try await store.delete(service: service, account: account)
                    replaced = true
                }
            }
        }
        let (blob, key) = try maker.create(accessibility: accessibility)
        try await store.save(blob, service: service, account: account)
        return Loaded(key: key, hardwareBacked: true, replacedUnusableKey: replaced)
    }
}
