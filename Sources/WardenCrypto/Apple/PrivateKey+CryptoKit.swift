#if WARDEN_APPLE
    // Apple backend for the private key types: CryptoKit for EC and Ed25519, Security for RSA.
    import CryptoKit
    import Foundation
    import Security

    struct PrivateKeyBacking: Sendable {
        enum Key: Sendable {
            case rsa(SendableSecKey)
            case p256(P256.Signing.PrivateKey)
            case p384(P384.Signing.PrivateKey)
            case p521(P521.Signing.PrivateKey)
            case ed25519(Curve25519.Signing.PrivateKey)
        }
        let key: Key
        let publicKey: PublicKey
        let pkcs8PEM: String

        /// Reads through the portable ``PrivateKeyMaterial`` (never CryptoKit's PEM parser, which refuses
        /// `openssl ecparam -genkey` output, `Bag Attributes` preambles and unwrapped base64 that OpenSSL accepts).
        static func fromPEM(_ pem: String) throws(CryptoError) -> PrivateKeyBacking {
            let material = try PrivateKeyMaterial.parse(pem: pem)
            do {
                switch material {
                case .ec(.p256, let scalar): return try make(.p256(try .init(rawRepresentation: scalar)))
                case .ec(.p384, let scalar): return try make(.p384(try .init(rawRepresentation: scalar)))
                case .ec(.p521, let scalar): return try make(.p521(try .init(rawRepresentation: scalar)))
                case .ed25519(let seed): return try make(.ed25519(try .init(rawRepresentation: seed)))
                case .rsa(let pkcs1): return try make(.rsa(try rsaKey(pkcs1)))
                }
            } catch let error as CryptoError {
                throw error
            } catch {
                throw CryptoError(.invalidKey, "the private key was refused by CryptoKit")
            }
        }

        static func rsaKey(_ pkcs1: [UInt8]) throws(CryptoError) -> SendableSecKey {
            let attributes: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
            ]
            guard let key = SecKeyCreateWithData(Data(pkcs1) as CFData, attributes as CFDictionary, nil) else {
                throw CryptoError(.malformedInput, "not a PEM private key")
            }
            return SendableSecKey(key: key)
        }

        static func generateRSA(bits: Int) throws(CryptoError) -> PrivateKeyBacking {
            let attributes: [CFString: Any] = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: bits]
            guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, nil) else {
                throw CryptoError(.randomUnavailable, "RSA key generation failed")
            }
            return try make(.rsa(SendableSecKey(key: key)))
        }

        static func generateEC(_ curve: EllipticCurve) throws(CryptoError) -> PrivateKeyBacking {
            switch curve {
            case .p256: try make(.p256(.init()))
            case .p384: try make(.p384(.init()))
            case .p521: try make(.p521(.init()))
            }
        }

        static func generateEd25519(seed: [UInt8]?) throws(CryptoError) -> PrivateKeyBacking {
            guard let seed else { return try make(.ed25519(.init())) }
            let key: Curve25519.Signing.PrivateKey
            do { key = try .init(rawRepresentation: seed) } catch {
                throw CryptoError(.invalidKey, "an Ed25519 seed is 32 bytes")
            }
            return try make(.ed25519(key))
        }

        /// The backing with its public key and its PKCS#8 PEM, written by the portable encoder for every key type
        /// (generated keys included).
        private static func make(_ key: Key) throws(CryptoError) -> PrivateKeyBacking {
            let publicKey: PublicKey
            let material: PrivateKeyMaterial
            switch key {
            case .rsa(let secKey):
                guard let pub = SecKeyCopyPublicKey(secKey.key),
                    let data = SecKeyCopyExternalRepresentation(pub, nil) as Data?,
                    let pkcs1 = SecKeyCopyExternalRepresentation(secKey.key, nil) as Data?
                else { throw CryptoError(.invalidKey, "cannot export the RSA key") }
                let (n, e) = try DER.parseRSAPublicKey(Array(data))
                publicKey = try PublicKey(rsaModulus: n, exponent: e)
                material = .rsa(pkcs1: Array(pkcs1))
            case .p256(let k):
                publicKey = try PublicKey(spkiDER: Array(k.publicKey.derRepresentation))
                material = .ec(.p256, scalar: Array(k.rawRepresentation))
            case .p384(let k):
                publicKey = try PublicKey(spkiDER: Array(k.publicKey.derRepresentation))
                material = .ec(.p384, scalar: Array(k.rawRepresentation))
            case .p521(let k):
                publicKey = try PublicKey(spkiDER: Array(k.publicKey.derRepresentation))
                material = .ec(.p521, scalar: Array(k.rawRepresentation))
            case .ed25519(let k):
                publicKey = try PublicKey(ed25519: Array(k.publicKey.rawRepresentation))
                material = .ed25519(seed: Array(k.rawRepresentation))
            }
            return PrivateKeyBacking(key: key, publicKey: publicKey, pkcs8PEM: material.pkcs8PEM)
        }

        func sign(_ message: UnsafeRawBufferPointer, algorithm: SignatureAlgorithm) throws(CryptoError) -> [UInt8] {
            let data = Data(message)
            // CryptoKit's signing throws its own errors; WardenCrypto throws only CryptoError.
            func signed(_ sign: () throws -> Data) throws(CryptoError) -> [UInt8] {
                do { return Array(try sign()) } catch { throw CryptoError(.backendFailure, "signing failed") }
            }
            switch (key, algorithm) {
            case (.p256(let k), .ecdsa): return try signed { try k.signature(for: data).rawRepresentation }
            case (.p384(let k), .ecdsa): return try signed { try k.signature(for: data).rawRepresentation }
            case (.p521(let k), .ecdsa): return try signed { try k.signature(for: data).rawRepresentation }
            case (.ed25519(let k), .ed25519): return try signed { try k.signature(for: data) }
            case (.rsa(let k), .rsaPKCS1v15(let hash)), (.rsa(let k), .rsaPSS(let hash)):
                guard let secAlgorithm = PublicKeyBacking.secAlgorithm(algorithm, hash),
                    let signature = SecKeyCreateSignature(k.key, secAlgorithm, data as CFData, nil) as Data?
                else { throw CryptoError(.backendFailure, "signing failed") }
                return Array(signature)
            default:
                throw CryptoError(.algorithmMismatch, "\(algorithm) does not fit this key")
            }
        }
    }
#endif
