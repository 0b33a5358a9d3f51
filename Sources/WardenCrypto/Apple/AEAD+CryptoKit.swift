#if WARDEN_APPLE
    // CryptoKit's AES.GCM, ChaChaPoly, HKDF and Curve25519.KeyAgreement (iOS 13/14+, inside the deployment target).
    // Lengths were checked by the portable callers; these only call CryptoKit and report failure as nil.
    import CryptoKit
    import Foundation

    /// A key's CryptoKit form, made once.
    final class AEADKeyBacking: Sendable {
        private let algorithm: AEADAlgorithm
        private let key: SymmetricKey

        init(_ algorithm: AEADAlgorithm, key: [UInt8]) {
            self.algorithm = algorithm
            self.key = SymmetricKey(data: key)
        }

        func seal(nonce: [UInt8], plaintext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer)
            -> (ciphertext: [UInt8], tag: [UInt8])?
        {
            AEADBackend.seal(algorithm, key: key, nonce: nonce, plaintext: plaintext, aad: aad)
        }

        func open(nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], aad: UnsafeRawBufferPointer) -> [UInt8]? {
            AEADBackend.open(algorithm, key: key, nonce: nonce, ciphertext: ciphertext, tag: tag, aad: aad)
        }
    }

    enum AEADBackend {
        static func seal(
            _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], plaintext: UnsafeRawBufferPointer,
            aad: UnsafeRawBufferPointer
        ) -> (ciphertext: [UInt8], tag: [UInt8])? {
            seal(algorithm, key: SymmetricKey(data: key), nonce: nonce, plaintext: plaintext, aad: aad)
        }

        static func open(
            _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8],
            aad: UnsafeRawBufferPointer
        ) -> [UInt8]? {
            open(algorithm, key: SymmetricKey(data: key), nonce: nonce, ciphertext: ciphertext, tag: tag, aad: aad)
        }

        static func seal(
            _ algorithm: AEADAlgorithm, key symmetric: SymmetricKey, nonce: [UInt8], plaintext: UnsafeRawBufferPointer,
            aad: UnsafeRawBufferPointer
        ) -> (ciphertext: [UInt8], tag: [UInt8])? {
            do {
                switch algorithm {
                case .aes256GCM:
                    let box = try AES.GCM.seal(
                        plaintext, using: symmetric, nonce: try AES.GCM.Nonce(data: nonce), authenticating: aad)
                    return (Array(box.ciphertext), Array(box.tag))
                case .chaCha20Poly1305:
                    let box = try ChaChaPoly.seal(
                        plaintext, using: symmetric, nonce: try ChaChaPoly.Nonce(data: nonce), authenticating: aad)
                    return (Array(box.ciphertext), Array(box.tag))
                }
            } catch {
                return nil
            }
        }

        static func open(
            _ algorithm: AEADAlgorithm, key symmetric: SymmetricKey, nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8],
            aad: UnsafeRawBufferPointer
        ) -> [UInt8]? {
            do {
                switch algorithm {
                case .aes256GCM:
                    let box = try AES.GCM.SealedBox(
                        nonce: try AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
                    return Array(try AES.GCM.open(box, using: symmetric, authenticating: aad))
                case .chaCha20Poly1305:
                    let box = try ChaChaPoly.SealedBox(
                        nonce: try ChaChaPoly.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
                    return Array(try ChaChaPoly.open(box, using: symmetric, authenticating: aad))
                }
            } catch {
                return nil
            }
        }
    }

    enum HKDFBackend {
        static func derive(
            _ hash: HashFunction, ikm: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
            info: UnsafeRawBufferPointer, byteCount: Int
        ) -> [UInt8]? {
            let key = SymmetricKey(data: ikm)
            let derived: SymmetricKey =
                switch hash {
                case .sha1:
                    CryptoKit.HKDF<Insecure.SHA1>.deriveKey(
                        inputKeyMaterial: key, salt: salt, info: info, outputByteCount: byteCount)
                case .sha256:
                    CryptoKit.HKDF<SHA256>.deriveKey(
                        inputKeyMaterial: key, salt: salt, info: info, outputByteCount: byteCount)
                case .sha384:
                    CryptoKit.HKDF<SHA384>.deriveKey(
                        inputKeyMaterial: key, salt: salt, info: info, outputByteCount: byteCount)
                case .sha512:
                    CryptoKit.HKDF<SHA512>.deriveKey(
                        inputKeyMaterial: key, salt: salt, info: info, outputByteCount: byteCount)
                }
            return derived.withUnsafeBytes { Array($0) }
        }
    }

    /// An X25519 private key in CryptoKit's form, made once.
    final class X25519KeyBacking: Sendable {
        private let key: Curve25519.KeyAgreement.PrivateKey
        let publicKey: [UInt8]

        init?(privateKey: [UInt8]) {
            guard let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey) else { return nil }
            self.key = key
            publicKey = Array(key.publicKey.rawRepresentation)
        }

        func sharedSecret(with publicKey: [UInt8]) -> [UInt8]? {
            guard let peer = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey),
                let secret = try? key.sharedSecretFromKeyAgreement(with: peer)
            else { return nil }
            return secret.withUnsafeBytes { Array($0) }
        }
    }
#endif
