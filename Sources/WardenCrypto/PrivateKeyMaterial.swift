import Foundation

/// A private key read from PEM by portable code, before any backend sees it, so the OpenSSL and the
/// CryptoKit/Security backends accept and refuse exactly the same inputs.
///
/// Accepted: one `PRIVATE KEY` (PKCS#8, RFC 5208/5958), `EC PRIVATE KEY` (SEC 1, RFC 5915, with its named curve) or
/// `RSA PRIVATE KEY` (PKCS#1, RFC 8017 A.1.2) block, with any text around it (`Bag Attributes` preambles, an
/// `EC PARAMETERS` block as `openssl ecparam -genkey` writes it) and base64 lines of any length. Refused: encrypted
/// keys (`ENCRYPTED PRIVATE KEY`, `Proc-Type: 4,ENCRYPTED`), several key blocks, unknown algorithms or curves,
/// and DER that is not exactly the structure named by its label. CryptoKit's own PEM parser would refuse some of
/// the accepted forms; it is never used.
///
/// Each backend then builds its key from these components (CryptoKit: `rawRepresentation`; Security: PKCS#1 DER;
/// OpenSSL: the PKCS#8 DER of ``pkcs8DER``).
enum PrivateKeyMaterial: Equatable {
    /// PKCS#1 `RSAPrivateKey` DER.
    case rsa(pkcs1: [UInt8])
    /// The private scalar, left-padded to the curve's size.
    case ec(EllipticCurve, scalar: [UInt8])
    /// The 32-byte RFC 8032 seed.
    case ed25519(seed: [UInt8])

    static let keyLabels: Set<String> = ["PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY"]

    static func parse(pem: String) throws(CryptoError) -> PrivateKeyMaterial {
        if pem.contains("ENCRYPTED") {
            throw CryptoError(.unsupportedKey, "encrypted private keys are not supported; decrypt it first")
        }
        let keys = try PEM.blocks(pem).filter { keyLabels.contains($0.label) }
        guard keys.count == 1 else {
            throw CryptoError(
                .malformedInput,
                keys.isEmpty ? "not a PEM private key" : "expected one private key block, found \(keys.count)")
        }
        switch keys[0].label {
        case "RSA PRIVATE KEY": return .rsa(pkcs1: try checkedPKCS1(keys[0].der))
        case "EC PRIVATE KEY": return try sec1(keys[0].der, curve: nil)
        default: return try pkcs8(keys[0].der)
        }
    }

    private static func malformed(_ reason: String) -> CryptoError {
        CryptoError(.malformedInput, "private key: \(reason)")
    }

    /// PKCS#8 `PrivateKeyInfo` / `OneAsymmetricKey`.
    static func pkcs8(_ der: [UInt8]) throws(CryptoError) -> PrivateKeyMaterial {
        let info = try DER.single(der)
        let parts = try DER.children(info)
        guard info.tag == 0x30, parts.count >= 3, parts.count <= 5, parts[0].tag == 0x02,
            parts[0].contents == [0] || parts[0].contents == [1], parts[1].tag == 0x30, parts[2].tag == 0x04
        else { throw malformed("not a PKCS#8 PrivateKeyInfo") }
        let algorithm = try DER.children(parts[1])
        guard let oid = algorithm.first, oid.tag == 0x06 else { throw malformed("no algorithm OID") }
        let key = Array(parts[2].contents)
        switch Array(oid.contents) {
        case DER.rsaEncryption:
            guard algorithm.count == 1 || (algorithm.count == 2 && algorithm[1].tag == 0x05) else {
                throw malformed("RSA parameters must be NULL")
            }
            return .rsa(pkcs1: try checkedPKCS1(key))
        case DER.ecPublicKey:
            guard algorithm.count == 2, algorithm[1].tag == 0x06,
                let curve = EllipticCurve.allCases.first(where: { DER.curveOID($0) == Array(algorithm[1].contents) })
            else { throw CryptoError(.unsupportedKey, "unsupported or missing EC curve") }
            return try sec1(key, curve: curve)
        case DER.ed25519:
            guard algorithm.count == 1 else { throw malformed("Ed25519 takes no parameters") }
            let seed = try DER.single(key)
            guard seed.tag == 0x04, seed.contents.count == 32 else { throw malformed("Ed25519 seed is not 32 bytes") }
            return .ed25519(seed: Array(seed.contents))
        default:
            throw CryptoError(.unsupportedKey, "unsupported private key algorithm")
        }
    }

    /// SEC 1 `ECPrivateKey`; `curve` from the PKCS#8 wrapper, else its own `[0]` parameters.
    static func sec1(_ der: [UInt8], curve outer: EllipticCurve?) throws(CryptoError) -> PrivateKeyMaterial {
        let key = try DER.single(der)
        let parts = try DER.children(key)
        guard key.tag == 0x30, parts.count >= 2, parts.count <= 4, parts[0].tag == 0x02, parts[0].contents == [1],
            parts[1].tag == 0x04
        else { throw malformed("not a SEC 1 ECPrivateKey") }
        var inner: EllipticCurve?
        for part in parts.dropFirst(2) where part.tag == 0xA0 {
            let oid = try DER.single(Array(part.contents))
            guard oid.tag == 0x06,
                let curve = EllipticCurve.allCases.first(where: { DER.curveOID($0) == Array(oid.contents) })
            else { throw CryptoError(.unsupportedKey, "unsupported EC curve") }
            inner = curve
        }
        guard let curve = outer ?? inner else { throw malformed("the EC key names no curve") }
        if let outer, let inner, outer != inner { throw malformed("the EC key names two different curves") }
        let size = curve.fieldByteCount
        let scalar = Array(parts[1].contents)
        guard !scalar.isEmpty, scalar.count <= size, scalar.contains(where: { $0 != 0 }) else {
            throw malformed("the EC private scalar has the wrong size")
        }
        let padded = [UInt8](repeating: 0, count: size - scalar.count) + scalar
        // 0 < d < n (SEC 1 §3.2.1); big-endian byte arrays of equal length compare lexicographically.
        guard padded.lexicographicallyPrecedes(ECDSAScalars.order(of: curve)) else {
            throw malformed("the EC private scalar is not below the group order")
        }
        return .ec(curve, scalar: padded)
    }

    /// A PKCS#1 `RSAPrivateKey`: version 0 and eight positive INTEGERs.
    static func checkedPKCS1(_ der: [UInt8]) throws(CryptoError) -> [UInt8] {
        let key = try DER.single(der)
        let parts = try DER.children(key)
        guard key.tag == 0x30, parts.count == 9, parts.allSatisfy({ $0.tag == 0x02 }), parts[0].contents == [0],
            parts.dropFirst().allSatisfy({ !$0.contents.isEmpty && $0.contents.first! & 0x80 == 0 })
        else { throw malformed("not a PKCS#1 RSAPrivateKey (two-prime, version 0)") }
        return der
    }

    /// The key as PKCS#8 `PrivateKeyInfo` DER (what ``RSAPrivateKey/pkcs8PEM()`` and friends print).
    var pkcs8DER: [UInt8] {
        switch self {
        case .rsa(let pkcs1):
            return DER.sequence([
                DER.integer([0]), DER.sequence([DER.encode(tag: 0x06, DER.rsaEncryption), [0x05, 0x00]]),
                DER.encode(tag: 0x04, pkcs1),
            ])
        case .ec(let curve, let scalar):
            let sec1 = DER.sequence([DER.integer([1]), DER.encode(tag: 0x04, scalar)])
            return DER.sequence([
                DER.integer([0]),
                DER.sequence([DER.encode(tag: 0x06, DER.ecPublicKey), DER.encode(tag: 0x06, DER.curveOID(curve))]),
                DER.encode(tag: 0x04, sec1),
            ])
        case .ed25519(let seed):
            return DER.sequence([
                DER.integer([0]), DER.sequence([DER.encode(tag: 0x06, DER.ed25519)]),
                DER.encode(tag: 0x04, DER.encode(tag: 0x04, seed)),
            ])
        }
    }

    /// ``pkcs8DER`` as PEM with 64-character lines.
    var pkcs8PEM: String {
        let base64 = Array(Data(pkcs8DER).base64EncodedString())
        let lines = stride(from: 0, to: base64.count, by: 64).map { String(base64[$0..<min($0 + 64, base64.count)]) }
        // warden:ignore hardcoded-secret the PEM armour lines of a key computed at run time, no key material
        return "-----BEGIN PRIVATE KEY-----\n" + lines.joined(separator: "\n") + "\n-----END PRIVATE KEY-----\n"
    }
}
