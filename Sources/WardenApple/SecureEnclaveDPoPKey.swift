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
    /// encrypted blob only this device's Secure Enclave can use) is kept in the Keychain, ThisDeviceOnly. Created
    /// with access control `.privateKeyUsage` and `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` (or
    /// after-first-unlock for background refresh). Where there is no Secure Enclave (the simulator, Macs without
    /// one), ``loadOrCreate(store:service:account:accessibility:)`` falls back to a software key in the same store and
    /// says so (`hardwareBacked == false`).
    ///
    /// ```swift
    /// let (key, hardwareBacked) = try await SecureEnclaveDPoPKey.loadOrCreate(
    ///     store: KeychainStore(), service: "com.example.app.dpop", account: "alice")
    /// configuration.dpop = DPoPBinding(key: key)
    /// ```
    public struct SecureEnclaveDPoPKey: DPoPKey {
        /// The key's `dataRepresentation`: a blob only this device's Secure Enclave can use (Sendable, unlike the
        /// key handle, so each signature reopens the handle from it).
        let blob: Data
        public let publicJWK: String
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

        public func sign(_ input: [UInt8]) throws -> [UInt8] {
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
            return Array(try key.signature(for: Data(input)).rawRepresentation)
        }

        /// The account's DPoP key: the Secure Enclave one (created on first use), or a software key where there is
        /// no Secure Enclave.
        public static func loadOrCreate(
            store: any CredentialStore, service: String, account: String,
            accessibility: KeychainAccessibility = .whenUnlockedThisDeviceOnly
        ) async throws -> (key: any DPoPKey, hardwareBacked: Bool) {
            guard SecureEnclave.isAvailable else {
                return (try await DPoPKeys.software(store: store, service: service, account: account), false)
            }
            if let blob = try await store.load(service: service, account: account) {
                do { return (try SecureEnclaveDPoPKey(try .init(dataRepresentation: blob)), true) } catch {
                    throw StorageError(.corruptedData, "the stored Secure Enclave key is not usable on this device")
                }
            }
            let protection: CFString =
                accessibility == .afterFirstUnlockThisDeviceOnly
                ? kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly : kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            guard let control = SecAccessControlCreateWithFlags(nil, protection, .privateKeyUsage, nil) else {
                throw StorageError(.accessControlUnavailable, "the Secure Enclave key's access control failed")
            }
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: control)
            try await store.save(key.dataRepresentation, service: service, account: account)
            return (try SecureEnclaveDPoPKey(key), true)
        }
    }
#endif
