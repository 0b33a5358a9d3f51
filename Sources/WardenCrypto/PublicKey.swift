import Foundation

/// A public key for signature verification: RSA (≥ 2048 bits), ECDSA P-256/P-384/P-521 or Ed25519.
///
/// Every initialiser validates: EC points must lie on the curve, RSA moduli must have at least 2048 bits and a
/// sane public exponent (odd, ≥ 3, at most 64 bits), Ed25519 keys must be 32 bytes, canonical and not of small
/// order (the eight small-order points make one signature verify for every message). Inputs over 1 MiB are refused before parsing.
///
/// ```swift
/// let key = try PublicKey(curve: .p256, x: xBytes, y: yBytes)
/// let ok = try key.isValidSignature(signature, for: message, algorithm: .ecdsa(.sha256))
/// ```
///
/// Thread-safety: immutable and `Sendable`; verify from any number of threads at once.
public struct PublicKey: Sendable {
    /// What kind of key this is; the kind decides which ``SignatureAlgorithm``s can be used.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// An RSA key, with the size of its modulus in bits.
        case rsa(modulusBits: Int)
        /// An ECDSA key on the given curve.
        case ec(EllipticCurve)
        /// An Ed25519 key.
        case ed25519

        public var description: String {
            switch self {
            case .rsa(let bits): "RSA-\(bits)"
            case .ec(let curve): "EC \(curve.rawValue)"
            case .ed25519: "Ed25519"
            }
        }
    }

    /// The smallest RSA modulus Warden accepts, in bits.
    public static let minimumRSAModulusBits = 2048
    /// The largest RSA modulus Warden accepts, in bits (bounds verification cost for attacker-chosen keys).
    public static let maximumRSAModulusBits = 16384
    /// The largest encoded key input accepted (PEM or DER).
    public static let maximumInputBytes = 1 << 20

    /// The key's kind.
    public let kind: Kind
    let backing: PublicKeyBacking

    init(kind: Kind, backing: PublicKeyBacking) {
        self.kind = kind
        self.backing = backing
    }

    /// An RSA key from its big-endian modulus and exponent (JWK `n`, `e`).
    public init(rsaModulus modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) {
        let bits = try Self.validateRSA(modulus: modulus, exponent: exponent)
        self.init(kind: .rsa(modulusBits: bits), backing: try .rsa(modulus: modulus, exponent: exponent))
    }

    /// An EC key from its affine coordinates (JWK `x`, `y`), each exactly the curve's field size.
    public init(curve: EllipticCurve, x: [UInt8], y: [UInt8]) throws(CryptoError) {
        guard x.count == curve.fieldByteCount, y.count == curve.fieldByteCount else {
            throw CryptoError(.invalidKey, "\(curve.rawValue) coordinates must be \(curve.fieldByteCount) bytes each")
        }
        self.init(kind: .ec(curve), backing: try .ec(curve: curve, uncompressedPoint: [0x04] + x + y))
    }

    /// An Ed25519 key from its 32 raw bytes (JWK `x` of an `OKP` key).
    public init(ed25519 rawRepresentation: [UInt8]) throws(CryptoError) {
        if let refusal = Ed25519KeyCheck.refusal(rawRepresentation) { throw CryptoError(.invalidKey, refusal) }
        self.init(kind: .ed25519, backing: try .ed25519(rawRepresentation))
    }

    /// A key from a DER `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7). Trailing bytes are rejected.
    public init(spkiDER: [UInt8]) throws(CryptoError) {
        guard !spkiDER.isEmpty else { throw CryptoError(.malformedInput, "empty SubjectPublicKeyInfo") }
        guard spkiDER.count <= Self.maximumInputBytes else { throw CryptoError(.inputTooLarge, "key over 1 MiB") }
        // The portable reader decides first, so both backends accept the same SubjectPublicKeyInfo: a key BIT
        // STRING with unused bits is refused, and EC points must be uncompressed (a compressed point would be kept
        // as is by OpenSSL and then sliced as x || y).
        let parsed: (algorithm: [UInt8], parameter: [UInt8]?, key: [UInt8])
        do { parsed = try DER.parseSPKI(spkiDER) } catch {
            throw CryptoError(.invalidKey, "not a DER SubjectPublicKeyInfo")
        }
        if parsed.algorithm == DER.ecPublicKey {
            guard let curve = EllipticCurve.allCases.first(where: { DER.curveOID($0) == parsed.parameter }) else {
                throw CryptoError(.unsupportedKey, "unsupported curve")
            }
            guard parsed.key.first == 0x04, parsed.key.count == 1 + 2 * curve.fieldByteCount else {
                throw CryptoError(.unsupportedKey, "only uncompressed EC points are accepted")
            }
        }
        if parsed.algorithm == DER.ed25519, let refusal = Ed25519KeyCheck.refusal(parsed.key) {
            throw CryptoError(.invalidKey, refusal)
        }
        let (kind, backing) = try PublicKeyBacking.fromSPKI(spkiDER)
        self.init(kind: kind, backing: backing)
    }

    /// A key from a PEM `PUBLIC KEY` block.
    public init(pem: String) throws(CryptoError) {
        let der = try PEM.decodeSingle(pem, label: "PUBLIC KEY")
        try self.init(spkiDER: der)
    }

    /// The DER `SubjectPublicKeyInfo` of this key.
    public var spkiDER: [UInt8] { backing.spkiDER }

    /// The key's public parameters, read from its SPKI with the shared DER reader: RSA `(n, e)`, the EC point's
    /// `(x, y)`, or the 32 Ed25519 bytes (as `x`, with an empty `y`). Used to publish JWKs.
    public var components: (first: [UInt8], second: [UInt8]) {
        guard let spki = try? DER.parseSPKI(spkiDER) else { preconditionFailure("a valid key has a valid SPKI") }
        switch kind {
        case .rsa:
            guard let (n, e) = try? DER.parseRSAPublicKey(spki.key) else { preconditionFailure("a valid RSA SPKI") }
            return (Array(n.drop { $0 == 0 }), Array(e.drop { $0 == 0 }))
        case .ec(let curve):
            let point = spki.key.dropFirst()  // 0x04 || x || y
            return (Array(point.prefix(curve.fieldByteCount)), Array(point.suffix(curve.fieldByteCount)))
        case .ed25519:
            return (spki.key, [])
        }
    }

    /// Verifies `signature` over `message`.
    ///
    /// - Returns: `true` for a valid signature, `false` for a well-formed signature that does not verify.
    /// - Throws: ``CryptoErrorDomain/Code/algorithmMismatch`` when the algorithm does not fit this key;
    ///   ``CryptoErrorDomain/Code/malformedSignature`` for a signature of the wrong length or, for ECDSA, with `r` or
    ///   `s` zero or not below the group order.
    public func isValidSignature(
        _ signature: some ContiguousBytes, for message: some ContiguousBytes, algorithm: SignatureAlgorithm
    ) throws(CryptoError) -> Bool {
        try checkCompatible(algorithm)
        return try signature.withBytes { (signature) throws(CryptoError) in
            if case .ec(let curve) = kind { try ECDSAScalars.check(signature, curve: curve) }
            if case .ed25519 = kind, signature.count != 64 {
                throw CryptoError(.malformedSignature, "Ed25519 signatures are 64 bytes")
            }
            return message.withUnsafeBytes { backing.verify(signature, message: $0, algorithm: algorithm) }
        }
    }

    /// Concrete overload of `isValidSignature(_:for:algorithm:)` (no generic dispatch on the hot path).
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8], algorithm: SignatureAlgorithm)
        throws(CryptoError)
        -> Bool
    {
        try checkCompatible(algorithm)
        return try signature.withBytes { (signature) throws(CryptoError) in
            if case .ec(let curve) = kind { try ECDSAScalars.check(signature, curve: curve) }
            if case .ed25519 = kind, signature.count != 64 {
                throw CryptoError(.malformedSignature, "Ed25519 signatures are 64 bytes")
            }
            return message.withUnsafeBytes { backing.verify(signature, message: $0, algorithm: algorithm) }
        }
    }

    /// Verifies an ASN.1 DER ECDSA signature (the form WebAuthn and X.509 use) over `message` with `hash`.
    ///
    /// The DER is parsed strictly and `r`, `s` are range-checked first; the backend then verifies the original
    /// bytes without a conversion round trip.
    ///
    /// - Throws: ``CryptoErrorDomain/Code/algorithmMismatch`` for a non-EC key or a hash that does not fit the curve;
    ///   ``CryptoErrorDomain/Code/malformedSignature`` for non-DER or out-of-range signatures.
    public func isValidSignature(derECDSA signature: [UInt8], for message: [UInt8], hash: HashFunction)
        throws(CryptoError) -> Bool
    {
        try checkCompatible(.ecdsa(hash))
        guard case .ec(let curve) = kind else { throw CryptoError(.algorithmMismatch, "ECDSA needs an EC key") }
        let raw = try ECDSASignature.raw(fromDER: signature, curve: curve)
        try raw.withBytes { (bytes) throws(CryptoError) in try ECDSAScalars.check(bytes, curve: curve) }
        return backing.verifyECDSA(der: signature, raw: raw, message: message, hash: hash)
    }

    /// Throws ``CryptoErrorDomain/Code/algorithmMismatch`` unless `algorithm` can be used with this key.
    public func checkCompatible(_ algorithm: SignatureAlgorithm) throws(CryptoError) {
        switch (kind, algorithm) {
        case (.rsa, .rsaPKCS1v15), (.rsa, .rsaPSS), (.ed25519, .ed25519): return
        case (.ec(let curve), .ecdsa(let hash)) where curve.signatureHash == hash: return
        default: throw CryptoError(.algorithmMismatch, "\(algorithm) cannot be used with a \(kind) key")
        }
    }

    static func validateRSA(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) -> Int {
        let n = modulus.drop { $0 == 0 }
        let e = exponent.drop { $0 == 0 }
        guard let top = n.first, let lastN = n.last, lastN & 1 == 1 else {
            throw CryptoError(.invalidKey, "RSA modulus must be a positive odd number")
        }
        let bits = n.count * 8 - top.leadingZeroBitCount
        guard bits >= minimumRSAModulusBits else {
            throw CryptoError(.weakKey, "RSA modulus of \(bits) bits is below the \(minimumRSAModulusBits)-bit minimum")
        }
        guard bits <= maximumRSAModulusBits else {
            throw CryptoError(.unsupportedKey, "RSA modulus of \(bits) bits is over \(maximumRSAModulusBits) bits")
        }
        guard let lastE = e.last, e.count <= 8, lastE & 1 == 1, !(e.count == 1 && lastE < 3) else {
            throw CryptoError(.weakKey, "RSA public exponent must be odd, at least 3 and at most 64 bits")
        }
        return bits
    }

    /// The largest RSA modulus accepted from a key an unauthenticated party chooses (a DPoP proof's `jwk`, a passkey
    /// being registered): verification cost grows with the cube of the size, so a 16,384-bit key with a 64-bit
    /// exponent costs a verifier ~60 times an ES256 proof. 4096 bits is what authenticators and clients use.
    public static let maximumUntrustedRSAModulusBits = 4096
    /// The only RSA public exponent accepted from such keys (F4), what every key generator produces.
    public static let untrustedRSAExponent: [UInt8] = [0x01, 0x00, 0x01]

    /// Refuses a key an unauthenticated party chose when it is costlier to verify than any real one: RSA over
    /// ``maximumUntrustedRSAModulusBits`` bits or with an exponent other than 65537 (``CryptoErrorDomain/Code/unsupportedKey``).
    /// EC and Ed25519 keys pass (their cost is fixed).
    public func checkUntrustedCost() throws(CryptoError) {
        guard case .rsa(let bits) = kind else { return }
        guard bits <= Self.maximumUntrustedRSAModulusBits else {
            throw CryptoError(
                .unsupportedKey,
                "an RSA key of \(bits) bits is over the \(Self.maximumUntrustedRSAModulusBits) accepted here")
        }
        guard components.second == Self.untrustedRSAExponent else {
            throw CryptoError(.unsupportedKey, "an RSA key's exponent must be 65537 here")
        }
    }
}
