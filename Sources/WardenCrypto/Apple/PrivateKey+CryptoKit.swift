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

        static func fromPEM(_ pem: String) throws -> PrivateKeyBacking {
            guard !pem.contains("ENCRYPTED") else {
                throw CryptoError(.unsupportedKey, "encrypted private keys are not supported; decrypt it first")
            }
            let blocks = try PEM.blocks(pem)
            if let block = blocks.first(where: { $0.label == "PRIVATE KEY" || $0.label == "EC PRIVATE KEY" }),
                let p256 = try? P256.Signing.PrivateKey(pemRepresentation: pem)
            {
                _ = block
                return try make(.p256(p256))
            }
            if let p384 = try? P384.Signing.PrivateKey(pemRepresentation: pem) { return try make(.p384(p384)) }
            if let p521 = try? P521.Signing.PrivateKey(pemRepresentation: pem) { return try make(.p521(p521)) }
            guard let block = blocks.first(where: { $0.label == "RSA PRIVATE KEY" || $0.label == "PRIVATE KEY" }) else {
                throw CryptoError(.malformedInput, "not a PEM private key")
            }
            // Security imports PKCS#1 RSAPrivateKey; unwrap PKCS#8 (SEQUENCE { version, algorithm, OCTET STRING }).
            var pkcs1 = block.der
            if block.label == "PRIVATE KEY" {
                let parts = try DER.children(try DER.single(block.der))
                guard parts.count >= 3, parts[2].tag == 0x04 else { throw CryptoError(.malformedInput, "bad PKCS#8") }
                pkcs1 = Array(parts[2].contents)
            }
            let attributes: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
            ]
            guard let key = SecKeyCreateWithData(Data(pkcs1) as CFData, attributes as CFDictionary, nil) else {
                throw CryptoError(.malformedInput, "not a PEM private key")
            }
            return try make(.rsa(SendableSecKey(key: key)), pem: pem)
        }

        static func generateRSA(bits: Int) throws -> PrivateKeyBacking {
            let attributes: [CFString: Any] = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: bits]
            guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, nil) else {
                throw CryptoError(.randomUnavailable, "RSA key generation failed")
            }
            return try make(.rsa(SendableSecKey(key: key)))
        }

        static func generateEC(_ curve: EllipticCurve) throws -> PrivateKeyBacking {
            switch curve {
            case .p256: try make(.p256(.init()))
            case .p384: try make(.p384(.init()))
            case .p521: try make(.p521(.init()))
            }
        }

        static func generateEd25519(seed: [UInt8]?) throws -> PrivateKeyBacking {
            guard let seed else { return try make(.ed25519(.init())) }
            return try make(.ed25519(try .init(rawRepresentation: seed)))
        }

        private static func make(_ key: Key, pem: String = "") throws -> PrivateKeyBacking {
            let publicKey: PublicKey
            var pkcs8 = pem
            switch key {
            case .rsa(let secKey):
                guard let pub = SecKeyCopyPublicKey(secKey.key),
                    let data = SecKeyCopyExternalRepresentation(pub, nil) as Data?
                else { throw CryptoError(.invalidKey, "cannot derive the RSA public key") }
                let (n, e) = try DER.parseRSAPublicKey(Array(data))
                publicKey = try PublicKey(rsaModulus: n, exponent: e)
            case .p256(let k):
                publicKey = try PublicKey(spkiDER: Array(k.publicKey.derRepresentation))
                pkcs8 = k.pemRepresentation
            case .p384(let k):
                publicKey = try PublicKey(spkiDER: Array(k.publicKey.derRepresentation))
                pkcs8 = k.pemRepresentation
            case .p521(let k):
                publicKey = try PublicKey(spkiDER: Array(k.publicKey.derRepresentation))
                pkcs8 = k.pemRepresentation
            case .ed25519(let k):
                publicKey = try PublicKey(ed25519: Array(k.publicKey.rawRepresentation))
            }
            return PrivateKeyBacking(key: key, publicKey: publicKey, pkcs8PEM: pkcs8)
        }

        func sign(_ message: UnsafeRawBufferPointer, algorithm: SignatureAlgorithm) throws -> [UInt8] {
            let data = Data(message)
            switch (key, algorithm) {
            case (.p256(let k), .ecdsa): return Array(try k.signature(for: data).rawRepresentation)
            case (.p384(let k), .ecdsa): return Array(try k.signature(for: data).rawRepresentation)
            case (.p521(let k), .ecdsa): return Array(try k.signature(for: data).rawRepresentation)
            case (.ed25519(let k), .ed25519): return Array(try k.signature(for: data))
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
