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
    /// An error nobody has identified: the key is kept, but only for a few attempts in a row
    /// (``DPoPKeys/maximumUnidentifiedFailures``), after which it is taken as unusable — never transient for ever.
    case unidentified(String)

    /// Classifies what reopening a hardware key threw, by its domain and code (`error as NSError`).
    ///
    /// Replacing a key signs the user out, so only errors known to be permanent are ``unusable(_:)``: the blob cannot
    /// be decoded (`errSecDecode` -26275), or the token says its data is corrupt or the key object is gone
    /// (CryptoTokenKit `corruptedData` -3, `objectNotFound` -6). Errors known to pass are ``unavailableNow(_:)``: a
    /// locked device (`errSecInteractionNotAllowed` -25308) and LocalAuthentication's. Anything else is
    /// ``unidentified(_:)``. (The device checklist asks to record what a reset Secure Enclave reports.)
    public static func classify(_ error: any Error) -> HardwareKeyFailure {
        let reported = error as NSError
        let description = "\(reported.domain) \(reported.code)"
        switch (reported.domain, reported.code) {
        case (NSOSStatusErrorDomain, -26275), ("CryptoTokenKit", -3), ("CryptoTokenKit", -6):
            return .unusable(description)
        case (NSOSStatusErrorDomain, -25308), ("com.apple.LocalAuthentication", _):
            return .unavailableNow(description)
        default:
            return .unidentified(description)
        }
    }

    public var codeName: String {
        switch self {
        case .unavailableNow: "hardware_key_unavailable"
        case .unusable: "hardware_key_unusable"
        case .unidentified: "hardware_key_failed"
        }
    }

    /// What the system reported (its error domain and code).
    public var reason: String {
        switch self {
        case .unavailableNow(let reported): "the hardware key cannot be used now (\(reported))"
        case .unusable(let reported): "the hardware key is gone for good (\(reported))"
        case .unidentified(let reported): "the hardware key failed for a reason nobody has identified (\(reported))"
        }
    }

    /// `unavailableNow` and `unidentified` are transient (the key is kept); `unusable` is rejected (a new key
    /// replaces it).
    public var failureKind: FailureKind {
        switch self {
        case .unavailableNow, .unidentified: .transient
        case .unusable: .rejected
        }
    }
}

extension DPoPKeys {
    /// A DPoP key as it was loaded.
    public struct Loaded: Sendable {
        /// The key, ready to sign DPoP proofs.
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
        if let stored = try await store.load(service: service, account: account) {
            let record = HardwareKeyRecord(stored: stored)
            let opened: Result<any DPoPKey, HardwareKeyFailure>
            do throws(HardwareKeyFailure) { opened = .success(try maker.open(record.blob)) } catch {
                opened = .failure(error)
            }
            switch opened {
            case .success(let key):
                try await forgetFailures(store: store, service: service, account: account)
                if let created = record.accessibility, created != accessibility {
                    // The key's class was fixed when it was made; the item keeps it (rewriting the item with the
                    // caller's class would not change when the key can sign).
                    WardenLogger(category: "dpop").notice(
                        "the hardware DPoP key was made for \(created.rawValue), not \(accessibility.rawValue); it is kept"
                    )
                } else if record.accessibility == nil {
                    // Written once by a version before the record said its class: the item gets a record (its class
                    // unknown, the caller's is the best knowledge). A failed rewrite leaves the readable item as it was.
                    try? await store.save(
                        HardwareKeyRecord(blob: record.blob, accessibility: accessibility).stored, service: service,
                        account: account)
                }
                return Loaded(key: key, hardwareBacked: true, replacedUnusableKey: false)
            case .failure(let error):
                switch error {
                case .unavailableNow(let reason):
                    throw StorageError(.interactionNotAllowed, "the DPoP key cannot be used right now: \(reason)")
                case .unidentified(let reason):
                    let failures = try await countFailure(store: store, service: service, account: account)
                    guard failures >= maximumUnidentifiedFailures else {
                        throw StorageError(
                            .backendFailure,
                            "the DPoP key failed (\(failures) of \(maximumUnidentifiedFailures) tries before it is replaced): \(reason)"
                        )
                    }
                    WardenLogger(category: "dpop").warning(
                        "replacing a hardware DPoP key that failed \(failures) times in a row",
                        metadata: ["reason": reason])
                    try await replace(store: store, service: service, account: account)
                    replaced = true
                case .unusable(let reason):
                    WardenLogger(category: "dpop").warning(
                        "replacing an unusable hardware DPoP key", metadata: ["reason": reason])
                    try await replace(store: store, service: service, account: account)
                    replaced = true
                }
            }
        }
        let (blob, key) = try maker.create(accessibility: accessibility)
        try await store.save(
            HardwareKeyRecord(blob: blob, accessibility: accessibility).stored, service: service, account: account)
        return Loaded(key: key, hardwareBacked: true, replacedUnusableKey: replaced)
    }

    /// How many launches in a row a stored hardware key may fail with an error nobody has identified before it is
    /// replaced: a hiccup passes, a failure that repeats is not kept for ever (each attempt fails the refresh). A
    /// launch counts once, however many times it asks.
    public static let maximumUnidentifiedFailures = 3

    private static func failureService(_ service: String) -> String { service + ".failures" }

    /// The keys whose failure this process already counted: a launch counts once, however many times it asks (the
    /// app and its extensions, or several calls in one launch, must not use up the tries within seconds).
    private static let countedThisLaunch = Locked<Set<String>>([])

    private static func countFailure(store: any CredentialStore, service: String, account: String)
        async throws(StorageError) -> Int
    {
        let counter = failureService(service)
        let previous =
            try await store.load(service: counter, account: account).flatMap {
                Int(String(decoding: $0, as: UTF8.self))
            } ?? 0
        let key = service + "\u{0}" + account
        guard countedThisLaunch.withLock({ $0.insert(key).inserted }) else { return previous }
        let failures = previous + 1
        try await store.save(Data(String(failures).utf8), service: counter, account: account)
        return failures
    }

    /// Forgets which keys this process counted (tests stand for several launches).
    package static func newLaunch() { countedThisLaunch.withLock { $0.removeAll() } }

    private static func forgetFailures(store: any CredentialStore, service: String, account: String)
        async throws(StorageError)
    {
        let counter = failureService(service)
        countedThisLaunch.withLock { _ = $0.remove(service + "\u{0}" + account) }
        if try await store.load(service: counter, account: account) != nil {
            try await store.delete(service: counter, account: account)
        }
    }

    private static func replace(store: any CredentialStore, service: String, account: String)
        async throws(StorageError)
    {
        try await store.delete(service: service, account: account)
        try await store.delete(service: failureService(service), account: account)
    }
}

/// What is stored for a hardware key: `warden-hw1 <class>` on the first line, then the hardware's opaque blob — so the
/// item says the class its key was made with, and is written once instead of at every launch. A blob written before
/// the record existed has no header.
struct HardwareKeyRecord: Equatable {
    static let header = Array("warden-hw1 ".utf8)
    let blob: Data
    /// The class the key was made with; nil for a blob written before records said it.
    let accessibility: KeychainAccessibility?

    init(blob: Data, accessibility: KeychainAccessibility) {
        self.blob = blob
        self.accessibility = accessibility
    }

    init(stored: Data) {
        let bytes = Array(stored)
        if bytes.starts(with: Self.header), let newline = bytes.firstIndex(of: 0x0A),
            let accessibility = KeychainAccessibility(
                rawValue: String(decoding: bytes[Self.header.count..<newline], as: UTF8.self))
        {
            self.accessibility = accessibility
            blob = Data(bytes[(newline + 1)...])
        } else {
            accessibility = nil
            blob = stored
        }
    }

    var stored: Data {
        guard let accessibility else { return blob }
        return Data(Self.header + Array(accessibility.rawValue.utf8) + [0x0A]) + blob
    }
}
