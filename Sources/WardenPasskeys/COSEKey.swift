import WardenCore
import WardenCrypto

/// A COSE signature algorithm identifier (IANA "COSE Algorithms") that WebAuthn credentials use.
public struct COSEAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// ECDSA P-256 with SHA-256.
    public static let es256 = COSEAlgorithm(rawValue: -7)
    /// ECDSA P-384 with SHA-384.
    public static let es384 = COSEAlgorithm(rawValue: -35)
    /// ECDSA P-521 with SHA-512.
    public static let es512 = COSEAlgorithm(rawValue: -36)
    /// EdDSA (Ed25519 with a WebAuthn credential).
    public static let edDSA = COSEAlgorithm(rawValue: -8)
    /// Ed25519, the fully-specified name (RFC 9864).
    public static let ed25519 = COSEAlgorithm(rawValue: -19)
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    public static let rs256 = COSEAlgorithm(rawValue: -257)
    /// RSASSA-PSS with SHA-256.
    public static let ps256 = COSEAlgorithm(rawValue: -37)

    /// Every algorithm Warden verifies, in the preference order used for `pubKeyCredParams`.
    public static let supported: [COSEAlgorithm] = [.es256, .edDSA, .ed25519, .es384, .es512, .ps256, .rs256]

    public var description: String {
        switch self {
        case .es256: "ES256"
        case .es384: "ES384"
        case .es512: "ES512"
        case .edDSA: "EdDSA"
        case .ed25519: "Ed25519"
        case .rs256: "RS256"
        case .ps256: "PS256"
        default: "COSE(\(rawValue))"
        }
    }

    /// The curve an ECDSA algorithm requires.
    var curve: EllipticCurve? {
        switch self {
        case .es256: .p256
        case .es384: .p384
        case .es512: .p521
        default: nil
        }
    }
}

/// A credential public key in COSE_Key form (RFC 9052 §7, RFC 9053) converted to a WardenCrypto key, with the
/// consistency checks WebAuthn needs: `alg` present and matching the key type and curve (ES256 only with P-256,
/// EdDSA only with Ed25519, RS256/PS256 only with RSA), coordinates of the curve's exact size, no private
/// parameters.
///
/// ```swift
/// let key = try COSEKey(bytes: record.publicKey)
/// let ok = try key.isValidSignature(signature, for: authenticatorData + clientDataHash)
/// ```
public struct COSEKey: Sendable {
    /// The algorithm the key is bound to.
    public let algorithm: COSEAlgorithm
    /// The key.
    public let publicKey: PublicKey
    /// The COSE_Key encoding it was read from (what a credential record stores).
    public let encoded: [UInt8]

    /// The COSE `crv` of a NIST curve (RFC 9053 §7.1: P-256 1, P-384 2, P-521 3).
    static func crv(_ curve: EllipticCurve) -> Int64 {
        switch curve {
        case .p256: 1
        case .p384: 2
        case .p521: 3
        }
    }

    private enum Label {
        static let kty: Int64 = 1
        static let alg: Int64 = 3
        static let crvOrN: Int64 = -1
        static let xOrE: Int64 = -2
        static let y: Int64 = -3
        static let d: Int64 = -4
    }

    /// Decoded keys by encoding. Building a key validates it in the crypto backend (an EC point check costs more
    /// than a signature verification), so sign-ins with a stored credential reuse it. Public keys only; bounded.
    private static let cache = Locked([[UInt8]: COSEKey]())
    static let cacheCapacity = 4096

    /// The key for `bytes`, decoded once per process and then served from a bounded cache (what
    /// ``RelyingParty/verifyAssertion(_:challenge:credential:allowCredentials:expectedUserHandle:requireUserVerification:)``
    /// uses).
    public static func cached(bytes: [UInt8]) throws(PasskeyError) -> COSEKey {
        if let key = cache.withLock({ $0[bytes] }) { return key }
        let key = try COSEKey(bytes: bytes)
        cache.withLock { table in
            if table.count >= cacheCapacity { table.removeAll(keepingCapacity: true) }
            table[bytes] = key
        }
        return key
    }

    /// Decodes a COSE_Key that fills `bytes` exactly.
    public init(bytes: [UInt8]) throws(PasskeyError) {
        let value: CBORValue
        do {
            value = try CBORDecoder(maximumBytes: 16 * 1024, maximumDepth: 4).decode(bytes)
        } catch {
            throw PasskeyError(.invalidKey, "credential public key: \(error)")
        }
        try self.init(value: value, encoded: bytes)
    }

    /// Reads a decoded COSE_Key map (`encoded` is its CBOR encoding).
    public init(value: CBORValue, encoded: [UInt8]) throws(PasskeyError) {
        guard case .map = value else { throw PasskeyError(.invalidKey, "COSE_Key is not a map") }
        guard let kty = value[Label.kty]?.integer else { throw PasskeyError(.invalidKey, "COSE_Key without kty") }
        guard let alg = value[Label.alg]?.integer else {
            throw PasskeyError(.invalidKey, "COSE_Key without alg (WebAuthn requires it)")
        }
        let algorithm = COSEAlgorithm(rawValue: alg)
        guard COSEAlgorithm.supported.contains(algorithm) else {
            throw PasskeyError(.unsupportedAlgorithm, "COSE algorithm \(alg) is not supported")
        }
        func bytes(_ label: Int64, _ name: String) throws(PasskeyError) -> [UInt8] {
            guard case .bytes(let data)? = value[label] else {
                throw PasskeyError(.invalidKey, "COSE_Key parameter \(name) missing or not a byte string")
            }
            return data
        }
        let key: PublicKey
        do {
            switch kty {
            case 2:  // EC2
                guard let curve = algorithm.curve else {
                    throw PasskeyError(.invalidKey, "\(algorithm) does not use an EC2 key")
                }
                guard value[Label.crvOrN]?.integer == Self.crv(curve) else {
                    throw PasskeyError(.invalidKey, "\(algorithm) requires curve \(curve.rawValue)")
                }
                guard value[Label.d] == nil else { throw PasskeyError(.invalidKey, "COSE_Key holds a private key") }
                let x = try bytes(Label.xOrE, "x")
                let y = try bytes(Label.y, "y")
                guard x.count == curve.fieldByteCount, y.count == curve.fieldByteCount else {
                    throw PasskeyError(.invalidKey, "\(curve.rawValue) coordinates are \(curve.fieldByteCount) bytes")
                }
                key = try PublicKey(curve: curve, x: x, y: y)
            case 1:  // OKP
                guard algorithm == .edDSA || algorithm == .ed25519 else {
                    throw PasskeyError(.invalidKey, "\(algorithm) does not use an OKP key")
                }
                guard value[Label.crvOrN]?.integer == 6 else {
                    throw PasskeyError(.invalidKey, "only the Ed25519 OKP curve (6) is supported")
                }
                guard value[Label.d] == nil else { throw PasskeyError(.invalidKey, "COSE_Key holds a private key") }
                key = try PublicKey(ed25519: try bytes(Label.xOrE, "x"))
            case 3:  // RSA
                guard algorithm == .rs256 || algorithm == .ps256 else {
                    throw PasskeyError(.invalidKey, "\(algorithm) does not use an RSA key")
                }
                guard value[Label.y] == nil else { throw PasskeyError(.invalidKey, "COSE_Key holds a private key") }
                key = try PublicKey(rsaModulus: try bytes(Label.crvOrN, "n"), exponent: try bytes(Label.xOrE, "e"))
                // Registered by whoever signs up, and paid at every sign-in: no RSA key costlier than a real one.
                try key.checkUntrustedCost()
            default:
                throw PasskeyError(.unsupportedAlgorithm, "COSE key type \(kty) is not supported")
            }
        } catch let error as PasskeyError {
            throw error
        } catch {
            throw PasskeyError(
                .invalidKey, "credential public key: \((error as? any WardenError)?.summary ?? "\(error)")")
        }
        self.algorithm = algorithm
        self.publicKey = key
        self.encoded = encoded
    }

    /// The COSE_Key of `publicKey` for `algorithm` (for software authenticators, tests and key export).
    ///
    /// - Throws: ``PasskeyErrorDomain/Code/invalidKey`` when the algorithm does not fit the key.
    public init(publicKey: PublicKey, algorithm: COSEAlgorithm) throws(PasskeyError) {
        let parts = publicKey.components
        var pairs: [(CBORValue, CBORValue)] = [(.unsigned(3), CBOREncoder.int(algorithm.rawValue))]
        switch publicKey.kind {
        case .ec(let curve):
            guard algorithm.curve == curve else { throw PasskeyError(.invalidKey, "\(algorithm) does not fit the key") }
            pairs += [
                (.unsigned(1), .unsigned(2)), (.negative(-1), CBOREncoder.int(Self.crv(curve))),
                (.negative(-2), .bytes(parts.first)),
                (.negative(-3), .bytes(parts.second)),
            ]
        case .ed25519:
            guard algorithm == .edDSA || algorithm == .ed25519 else {
                throw PasskeyError(.invalidKey, "\(algorithm) does not fit the key")
            }
            pairs += [
                (.unsigned(1), .unsigned(1)), (.negative(-1), .unsigned(6)), (.negative(-2), .bytes(parts.first)),
            ]
        case .rsa:
            guard algorithm == .rs256 || algorithm == .ps256 else {
                throw PasskeyError(.invalidKey, "\(algorithm) does not fit the key")
            }
            pairs += [
                (.unsigned(1), .unsigned(3)), (.negative(-1), .bytes(parts.first)),
                (.negative(-2), .bytes(parts.second)),
            ]
        }
        self.algorithm = algorithm
        self.publicKey = publicKey
        self.encoded = CBOREncoder.encode(CBOREncoder.map(pairs))
    }

    /// Verifies a WebAuthn signature made with this key: ASN.1 DER for ECDSA (WebAuthn §6.5.5), raw for EdDSA,
    /// PKCS#1 v1.5 or PSS for RSA.
    ///
    /// - Returns: `false` for a signature that is well formed and wrong; throws ``PasskeyErrorDomain/Code/invalidSignature``
    ///   for one that is not even well formed.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) throws(PasskeyError) -> Bool {
        try Self.verify(signature, message, key: publicKey, algorithm: algorithm)
    }

    /// Verifies with any key (attestation certificates) under a COSE algorithm.
    static func verify(_ signature: [UInt8], _ message: [UInt8], key: PublicKey, algorithm: COSEAlgorithm)
        throws(PasskeyError) -> Bool
    {
        do {
            switch algorithm {
            case .es256, .es384, .es512:
                guard case .ec(let curve) = key.kind, curve == algorithm.curve else {
                    throw PasskeyError(.invalidKey, "\(algorithm) needs a \(algorithm.curve!.rawValue) key")
                }
                return try key.isValidSignature(derECDSA: signature, for: message, hash: curve.signatureHash)
            case .edDSA, .ed25519:
                return try key.isValidSignature(signature, for: message, algorithm: .ed25519)
            case .rs256:
                return try key.isValidSignature(signature, for: message, algorithm: .rsaPKCS1v15(.sha256))
            case .ps256:
                return try key.isValidSignature(signature, for: message, algorithm: .rsaPSS(.sha256))
            default:
                throw PasskeyError(.unsupportedAlgorithm, "COSE algorithm \(algorithm.rawValue) is not supported")
            }
        } catch let error as PasskeyError {
            throw error
        } catch let error as CryptoError where error.code == .algorithmMismatch {
            throw PasskeyError(.invalidKey, "\(algorithm) does not fit the key")
        } catch {
            throw PasskeyError(.invalidSignature, "signature is malformed")
        }
    }
}
