#if WARDEN_APPLE
    // Apple backend: CryptoKit for digests, HMAC, ECDSA and Ed25519; Security for RSA and randomness.
    // Compiled only on Apple platforms (WARDEN_APPLE is set in Package.swift). Every decision (key validation,
    // signature shape, SPKI layout) is made by the portable code that is tested on Linux; this file only calls the
    // frameworks.
    import CryptoKit
    import Foundation
    import Security

    enum DigestBackend {
        static func hash(_ hash: HashFunction, _ data: UnsafeRawBufferPointer) -> [UInt8] {
            switch hash {
            case .sha1: Array(Insecure.SHA1.hash(data: data))
            case .sha256: Array(SHA256.hash(data: data))
            case .sha384: Array(SHA384.hash(data: data))
            case .sha512: Array(SHA512.hash(data: data))
            }
        }
    }

    enum HMACBackend {
        static func mac(_ hash: HashFunction, key: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> [UInt8] {
            let symmetric = SymmetricKey(data: key)
            switch hash {
            case .sha1: return Array(CryptoKit.HMAC<Insecure.SHA1>.authenticationCode(for: message, using: symmetric))
            case .sha256: return Array(CryptoKit.HMAC<SHA256>.authenticationCode(for: message, using: symmetric))
            case .sha384: return Array(CryptoKit.HMAC<SHA384>.authenticationCode(for: message, using: symmetric))
            case .sha512: return Array(CryptoKit.HMAC<SHA512>.authenticationCode(for: message, using: symmetric))
            }
        }
    }

    enum RandomBackend {
        static func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
            guard let base = buffer.baseAddress else { return true }
            return SecRandomCopyBytes(kSecRandomDefault, buffer.count, base) == errSecSuccess
        }
    }

    /// A `SecKey` is immutable and documented thread-safe for verification; CryptoKit keys are `Sendable`.
    struct SendableSecKey: @unchecked Sendable { let key: SecKey }

    struct PublicKeyBacking: Sendable {
        enum Key: Sendable {
            case rsa(SendableSecKey)
            case p256(P256.Signing.PublicKey)
            case p384(P384.Signing.PublicKey)
            case p521(P521.Signing.PublicKey)
            case ed25519(Curve25519.Signing.PublicKey)
        }
        let key: Key
        let spkiDER: [UInt8]

        static func rsa(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) -> PublicKeyBacking {
            let pkcs1 = DER.sequence([DER.integer(modulus), DER.integer(exponent)])
            let attributes: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPublic,
            ]
            guard let key = SecKeyCreateWithData(Data(pkcs1) as CFData, attributes as CFDictionary, nil) else {
                throw CryptoError(.invalidKey, "Security rejected the RSA key")
            }
            return PublicKeyBacking(
                key: .rsa(SendableSecKey(key: key)), spkiDER: DER.rsaSPKI(modulus: modulus, exponent: exponent))
        }

        static func ec(curve: EllipticCurve, uncompressedPoint: [UInt8]) throws(CryptoError) -> PublicKeyBacking {
            // x963Representation validates that the point is on the curve.
            let spki = DER.ecSPKI(curve: curve, uncompressedPoint: uncompressedPoint)
            do {
                switch curve {
                case .p256:
                    return PublicKeyBacking(key: .p256(try .init(x963Representation: uncompressedPoint)), spkiDER: spki)
                case .p384:
                    return PublicKeyBacking(key: .p384(try .init(x963Representation: uncompressedPoint)), spkiDER: spki)
                case .p521:
                    return PublicKeyBacking(key: .p521(try .init(x963Representation: uncompressedPoint)), spkiDER: spki)
                }
            } catch {
                throw CryptoError(.invalidKey, "the EC point is not a valid public key on its curve")
            }
        }

        static func ed25519(_ raw: [UInt8]) throws(CryptoError) -> PublicKeyBacking {
            do {
                return PublicKeyBacking(key: .ed25519(try .init(rawRepresentation: raw)), spkiDER: DER.ed25519SPKI(raw))
            } catch {
                throw CryptoError(.invalidKey, "not an Ed25519 public key")
            }
        }

        static func fromSPKI(_ der: [UInt8]) throws(CryptoError) -> (PublicKey.Kind, PublicKeyBacking) {
            let spki: (algorithm: [UInt8], parameter: [UInt8]?, key: [UInt8])
            do { spki = try DER.parseSPKI(der) } catch {
                throw CryptoError(.invalidKey, "not a DER SubjectPublicKeyInfo")
            }
            switch spki.algorithm {
            case DER.rsaEncryption:
                let (n, e) = try DER.parseRSAPublicKey(spki.key)
                let bits = try PublicKey.validateRSA(modulus: n, exponent: e)
                return (.rsa(modulusBits: bits), try rsa(modulus: n, exponent: e))
            case DER.ecPublicKey:
                guard let curve = EllipticCurve.allCases.first(where: { DER.curveOID($0) == spki.parameter }) else {
                    throw CryptoError(.unsupportedKey, "unsupported curve")
                }
                return (.ec(curve), try ec(curve: curve, uncompressedPoint: spki.key))
            case DER.ed25519:
                return (.ed25519, try ed25519(spki.key))
            default:
                throw CryptoError(.unsupportedKey, "unsupported public key type")
            }
        }

        /// ECDSA with a DER signature: CryptoKit takes the raw form the caller already derived.
        func verifyECDSA(der: [UInt8], raw: [UInt8], message: [UInt8], hash: HashFunction) -> Bool {
            raw.withUnsafeBytes { signature in
                message.withUnsafeBytes { verify(signature, message: $0, algorithm: .ecdsa(hash)) }
            }
        }

        func verify(_ signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer, algorithm: SignatureAlgorithm)
            -> Bool
        {
            let data = Data(message)
            let signatureData = Data(signature)
            switch (key, algorithm) {
            case (.p256(let key), .ecdsa):
                guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData) else {
                    return false
                }
                return key.isValidSignature(parsed, for: data)
            case (.p384(let key), .ecdsa):
                guard let parsed = try? P384.Signing.ECDSASignature(rawRepresentation: signatureData) else {
                    return false
                }
                return key.isValidSignature(parsed, for: data)
            case (.p521(let key), .ecdsa):
                guard let parsed = try? P521.Signing.ECDSASignature(rawRepresentation: signatureData) else {
                    return false
                }
                return key.isValidSignature(parsed, for: data)
            case (.ed25519(let key), .ed25519):
                return key.isValidSignature(signatureData, for: data)
            case (.rsa(let key), .rsaPKCS1v15(let hash)), (.rsa(let key), .rsaPSS(let hash)):
                guard let secAlgorithm = Self.secAlgorithm(algorithm, hash) else { return false }
                return SecKeyVerifySignature(key.key, secAlgorithm, data as CFData, signatureData as CFData, nil)
            default:
                return false
            }
        }

        static func secAlgorithm(_ algorithm: SignatureAlgorithm, _ hash: HashFunction) -> SecKeyAlgorithm? {
            switch (algorithm, hash) {
            case (.rsaPKCS1v15, .sha1): .rsaSignatureMessagePKCS1v15SHA1
            case (.rsaPKCS1v15, .sha256): .rsaSignatureMessagePKCS1v15SHA256
            case (.rsaPKCS1v15, .sha384): .rsaSignatureMessagePKCS1v15SHA384
            case (.rsaPKCS1v15, .sha512): .rsaSignatureMessagePKCS1v15SHA512
            case (.rsaPSS, .sha256): .rsaSignatureMessagePSSSHA256
            case (.rsaPSS, .sha384): .rsaSignatureMessagePSSSHA384
            case (.rsaPSS, .sha512): .rsaSignatureMessagePSSSHA512
            default: nil
            }
        }
    }

    enum CertificateBackend {
        static func spki(fromDER der: [UInt8]) throws(CryptoError) -> [UInt8] {
            guard SecCertificateCreateWithData(nil, Data(der) as CFData) != nil else {
                throw CryptoError(.malformedInput, "not a DER X.509 certificate")
            }
            return try DER.spki(ofCertificate: der)
        }
    }
#endif

#if WARDEN_APPLE
    import CryptoKit

    struct HMACKeyBacking: Sendable {
        let hash: HashFunction
        let key: SymmetricKey

        init(hash: HashFunction, key: UnsafeRawBufferPointer) {
            self.hash = hash
            self.key = SymmetricKey(data: key)
        }

        func mac(_ message: UnsafeRawBufferPointer) -> [UInt8] {
            key.withUnsafeBytes { HMACBackend.mac(hash, key: $0, message: message) }
        }
    }
#endif

#if WARDEN_APPLE
    import Foundation
    import Security

    /// X.509 path validation for ``X509Certificate/verifyChain(_:roots:at:)`` with `SecTrust`: a basic X.509
    /// policy, the given anchors only (`SecTrustSetAnchorCertificatesOnly`), and the verification date fixed.
    enum CertificateChainBackend {
        static func verify(leaf: [UInt8], intermediates: [[UInt8]], roots: [[UInt8]], at date: Date) throws(CryptoError)
        {
            func certificate(_ der: [UInt8]) throws(CryptoError) -> SecCertificate {
                guard let certificate = SecCertificateCreateWithData(nil, Data(der) as CFData) else {
                    throw CryptoError(.malformedInput, "not a DER X.509 certificate")
                }
                return certificate
            }
            let chain = try ([leaf] + intermediates).map(certificate)
            let anchors = try roots.map(certificate)
            var trust: SecTrust?
            guard SecTrustCreateWithCertificates(chain as CFArray, SecPolicyCreateBasicX509(), &trust) == errSecSuccess,
                let trust
            else { throw CryptoError(.backendFailure, "SecTrustCreateWithCertificates failed") }
            guard SecTrustSetAnchorCertificates(trust, anchors as CFArray) == errSecSuccess,
                SecTrustSetAnchorCertificatesOnly(trust, true) == errSecSuccess,
                SecTrustSetVerifyDate(trust, date as CFDate) == errSecSuccess,
                SecTrustSetNetworkFetchAllowed(trust, false) == errSecSuccess
            else { throw CryptoError(.backendFailure, "configuring SecTrust failed") }
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else {
                let reason = error.map { CFErrorCopyDescription($0) as String } ?? "unknown"
                throw CryptoError(.untrustedCertificate, "certificate chain rejected: \(reason)")
            }
        }
    }
#endif
