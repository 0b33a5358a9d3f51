#if WARDEN_APPLE
    import CryptoKit
    import Foundation
    import Security
    import WardenCrypto
    import WardenJOSE
    import WardenOAuth
    import WardenSession
    import WardenStorage

    /// A DPoP key in the Secure Enclave: the private key never leaves the hardware; its `dataRepresentation` (an
    /// encrypted blob only this device's Secure Enclave can use) is kept in the Keychain, ThisDeviceOnly, with the
    /// same accessibility as the key. Created with access control `.privateKeyUsage` and the requested
    /// ``KeychainAccessibility`` (`.afterFirstUnlockThisDeviceOnly` for background refresh). Where there is no Secure
    /// Enclave (the simulator, Macs without one), ``loadOrCreate(service:account:accessibility:accessGroup:grantLock:)``
    /// falls back to a software key in the same Keychain item and says so (`hardwareBacked == false`).
    ///
    /// The portable logic — one key for concurrent first calls, a locked device is transient, an unusable blob is
    /// replaced and reported — is ``DPoPKeys/hardware(store:service:account:maker:accessibility:)``, tested on Linux.
    ///
    /// ```swift
    /// let loaded = try await SecureEnclaveDPoPKey.loadOrCreate(service: "com.example.app.dpop", account: "alice")
    /// configuration.dpop = DPoPBinding(key: loaded.key)
    /// ```
    public struct SecureEnclaveDPoPKey: DPoPKey {
        /// The key's `dataRepresentation`: a blob only this device's Secure Enclave can use (Sendable, unlike the
        /// key handle, so each signature reopens the handle from it).
        let blob: Data
        /// The public key as a JWK (`kty`, `crv`, `x`, `y` only).
        public let publicJWK: String
        /// The RFC 7638 thumbprint of ``publicJWK`` (what a bound token's `cnf.jkt` must equal).
        public let thumbprint: String

        init(_ key: SecureEnclave.P256.Signing.PrivateKey) throws {
            blob = key.dataRepresentation
            let point = Array(key.publicKey.x963Representation)  // 04 || x || y
            guard point.count == 65 else { throw CryptoError(.invalidKey, "not an uncompressed P-256 point") }
            let x = Array(point[1..<33])
            let y = Array(point[33..<65])
            let jwk = try JWK(publicKey: try PublicKey(curve: .p256, x: x, y: y), keyID: nil, algorithm: nil)
            publicJWK = #"{"crv":"P-256","kty":"EC","x":"\#(Base64URL.encode(x))","y":"\#(Base64URL.encode(y))"}"#
            thumbprint = jwk.thumbprint
        }

        /// An ES256 signature (raw `r || s`) over `input`, made by the Secure Enclave after reopening the key from
        /// its blob; throws when the Secure Enclave cannot use the blob (another device, a deleted key).
        public func sign(_ input: [UInt8]) throws -> [UInt8] {
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
            return Array(try key.signature(for: Data(input)).rawRepresentation)
        }

        /// The account's DPoP key: the Secure Enclave one (created on first use), or a software key where there is
        /// no Secure Enclave.
        ///
        /// - Parameters:
        ///   - accessibility: when the key can sign; its blob's Keychain item gets the same class, so a background
        ///     refresh that may sign can also read it.
        ///   - accessGroup: a shared keychain group, for extensions that send DPoP proofs too.
        ///   - grantLock: shared by every process creating this key (a ``FileGrantLock`` in the app group container
        ///     when extensions do); two first calls at once then make one key.
        public static func loadOrCreate(
            service: String, account: String, accessibility: KeychainAccessibility = .whenUnlockedThisDeviceOnly,
            accessGroup: String? = nil, grantLock: any GrantLock = ProcessGrantLock.shared
        ) async throws -> DPoPKeys.Loaded {
            let store = KeychainStore(accessibility: accessibility, accessGroup: accessGroup, grantLock: grantLock)
            return try await DPoPKeys.hardware(
                store: store, service: service, account: account, maker: SecureEnclaveKeyMaker(),
                accessibility: accessibility)
        }
    }

    /// The Secure Enclave as a ``HardwareDPoPKeyMaker``.
    struct SecureEnclaveKeyMaker: HardwareDPoPKeyMaker {
        var isAvailable: Bool { SecureEnclave.isAvailable }

        func create(accessibility: KeychainAccessibility) throws -> (blob: Data, key: any DPoPKey) {
            guard
                let control = SecAccessControlCreateWithFlags(
                    nil, accessibility.securityConstant, .privateKeyUsage, nil)
            else {
                throw StorageError(.accessControlUnavailable, "the Secure Enclave key's access control failed")
            }
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: control)
            return (key.dataRepresentation, try SecureEnclaveDPoPKey(key))
        }

        func open(_ blob: Data) throws(HardwareKeyFailure) -> any DPoPKey {
            do {
                return try SecureEnclaveDPoPKey(try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob))
            } catch {
                throw HardwareKeyFailure.classify(error)
            }
        }
    }
#endif
