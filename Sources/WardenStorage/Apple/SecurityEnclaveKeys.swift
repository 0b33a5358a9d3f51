#if WARDEN_APPLE
    import Foundation
    import Security

    /// ``SecureEnclaveKeyAPI`` on Security: only maps the calls; every decision is the portable wrapper's.
    struct SecurityEnclaveKeys: SecureEnclaveKeyAPI {
        private static let algorithm = SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM

        private func query(_ tag: String) -> [CFString: Any] {
            [
                kSecClass: kSecClassKey, kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrApplicationTag: Data(tag.utf8), kSecAttrTokenID: kSecAttrTokenIDSecureEnclave,
            ]
        }

        private func key(_ tag: String) -> (Int32, SecKey?) {
            var query = query(tag)
            query[kSecReturnRef] = true
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            guard status == errSecSuccess, let result else {
                return (status == errSecSuccess ? KeychainStatus.itemNotFound : status, nil)
            }
            // kSecReturnRef with kSecClassKey returns a SecKey.
            return (status, (result as! SecKey))
        }

        func findKey(tag: String) -> Int32 { key(tag).0 }

        func createKey(tag: String) -> Int32 {
            guard
                let access = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil)
            else { return KeychainStatus.accessControlUnavailable }
            let attributes: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256,
                kSecAttrTokenID: kSecAttrTokenIDSecureEnclave,
                kSecPrivateKeyAttrs: [
                    kSecAttrIsPermanent: true, kSecAttrApplicationTag: Data(tag.utf8), kSecAttrAccessControl: access,
                ] as [CFString: Any],
            ]
            var error: Unmanaged<CFError>?
            guard SecKeyCreateRandomKey(attributes as CFDictionary, &error) != nil else {
                return Self.status(error) ?? KeychainStatus.notAvailable
            }
            return KeychainStatus.success
        }

        func encrypt(_ plaintext: [UInt8], tag: String) -> (Int32, [UInt8]?) {
            let (status, privateKey) = key(tag)
            guard let privateKey, let publicKey = SecKeyCopyPublicKey(privateKey) else {
                return (status == errSecSuccess ? KeychainStatus.itemNotFound : status, nil)
            }
            var error: Unmanaged<CFError>?
            guard let output = SecKeyCreateEncryptedData(publicKey, Self.algorithm, Data(plaintext) as CFData, &error)
            else { return (Self.status(error) ?? -50, nil) }
            return (KeychainStatus.success, Array(output as Data))
        }

        func decrypt(_ ciphertext: [UInt8], tag: String) -> (Int32, [UInt8]?) {
            let (status, privateKey) = key(tag)
            guard let privateKey else { return (status, nil) }
            var error: Unmanaged<CFError>?
            guard let output = SecKeyCreateDecryptedData(privateKey, Self.algorithm, Data(ciphertext) as CFData, &error)
            else { return (Self.status(error) ?? -50, nil) }
            return (KeychainStatus.success, Array(output as Data))
        }

        /// The `OSStatus` a Security `CFError` carries (its code, in `NSOSStatusErrorDomain`).
        private static func status(_ error: Unmanaged<CFError>?) -> Int32? {
            guard let error = error?.takeRetainedValue() else { return nil }
            return Int32(truncatingIfNeeded: (error as any Error as NSError).code)
        }
    }
#endif
