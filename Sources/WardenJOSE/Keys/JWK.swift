import WardenCore
import WardenCrypto

/// A JSON Web Key (RFC 7517/7518/8037) for verification: an RSA, EC or OKP public key, or an `oct` HMAC secret.
///
/// Parsing validates the key itself (points on the curve, RSA ≥ 2048 bits with a sane exponent, not a ROCA
/// key), and refuses asymmetric JWKs that carry private members (`d`, `p`, ...): a verification key set that
/// contains private keys is a leak to fix, not something to use.
///
/// ```swift
/// let key = try JWK(json: #"{"kty":"EC","crv":"P-256","x":"...","y":"..."}"#)
/// key.thumbprint   // RFC 7638
/// ```
///
/// `oct` keys print `<redacted>`. Thread-safety: immutable, `Sendable`.
public struct JWK: Sendable, CustomStringConvertible, JSONDocument {
    /// RFC 7518 §6.1 key types.
    public enum KeyType: String, Sendable {
        /// `RSA`: an RSA public key.
        case rsa = "RSA"
        /// `EC`: an elliptic-curve public key.
        case ec = "EC"
        /// `OKP`: an octet key pair; Warden accepts Ed25519 public keys.
        case okp = "OKP"
        /// `oct`: a symmetric HMAC secret.
        case oct
    }

    enum Material: Sendable {
        case publicKey(PublicKey)
        case symmetric(HMACKeyMaterial)
    }

    /// An `oct` secret with one prepared ``HMACKey`` per hash, so verification never re-derives key state.
    struct HMACKeyMaterial: Sendable {
        let byteCount: Int
        let sha256: HMACKey
        let sha384: HMACKey
        let sha512: HMACKey

        init(_ secret: [UInt8]) {
            byteCount = secret.count
            sha256 = HMACKey(secret, hash: .sha256)
            sha384 = HMACKey(secret, hash: .sha384)
            sha512 = HMACKey(secret, hash: .sha512)
        }

        func key(for hash: HashFunction) -> HMACKey {
            switch hash {
            case .sha384: sha384
            case .sha512: sha512
            default: sha256
            }
        }
    }

    /// `kty`.
    public let keyType: KeyType
    /// `kid`, if any.
    public let keyID: String?
    /// The key's own `alg`, if any.
    public let algorithm: String?
    /// `use`, if any.
    public let use: String?
    /// `key_ops`, if any.
    public let keyOperations: [String]?
    /// `crv` for EC and OKP keys.
    public let curve: String?
    /// The RFC 7638 SHA-256 thumbprint, base64url.
    public let thumbprint: String
    let material: Material

    /// The public key (nil for `oct`).
    public var publicKey: PublicKey? {
        if case .publicKey(let key) = material { return key }
        return nil
    }

    public var description: String {
        "JWK(kty: \(keyType.rawValue)\(keyID.map { ", kid: \($0)" } ?? "")\(keyType == .oct ? ", <redacted>" : ""))"
    }

    /// Parses a JWK from its JSON document (at most 64 KiB); `String` and `Data` forms come from ``JSONDocument``.
    public init(json bytes: [UInt8]) throws(JOSEError) {
        try self.init(object: try JSONReader(maximumBytes: 64 * 1024).parseObject(bytes))
    }

    /// Members that only private keys have (RFC 7518 §6.2.2, §6.3.2; RFC 8037 §2).
    static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth"]

    /// Parses a JWK from a JSON object.
    public init(object: JSONObject) throws(JOSEError) {
        guard let ktyText = object["kty"]?.stringValue else { throw JOSEError(.invalidKey, "JWK without a string kty") }
        guard let kty = KeyType(rawValue: ktyText) else { throw JOSEError(.invalidKey, "unsupported kty") }
        keyType = kty
        keyID = try Self.optionalString(object, "kid")
        algorithm = try Self.optionalString(object, "alg")
        use = try Self.optionalString(object, "use")
        if let ops = object["key_ops"] {
            guard let array = ops.arrayValue else { throw JOSEError(.invalidKey, "key_ops must be an array") }
            var names: [String] = []
            for op in array {
                guard let name = op.stringValue else { throw JOSEError(.invalidKey, "key_ops must hold strings") }
                names.append(name)
            }
            keyOperations = names
        } else {
            keyOperations = nil
        }
        curve = try Self.optionalString(object, "crv")
        if kty != .oct, let member = Self.privateMembers.first(where: { object.contains($0) }) {
            throw JOSEError(.privateKeyInSet, "the JWK contains the private member '\(member)'; use its public part")
        }
        func field(_ name: String) throws(JOSEError) -> [UInt8] {
            guard let text = object[name]?.stringValue else { throw JOSEError(.invalidKey, "JWK without '\(name)'") }
            do { return try Base64URL.decode(text) } catch {
                throw JOSEError(.invalidKey, "JWK '\(name)' is not base64url")
            }
        }
        func string(_ name: String) throws(JOSEError) -> String {
            guard let text = object[name]?.stringValue else { throw JOSEError(.invalidKey, "JWK without '\(name)'") }
            return text
        }
        do {
            switch kty {
            case .rsa:
                let n = try field("n")
                let e = try field("e")
                guard n.first != 0 else { throw JOSEError(.invalidKey, "RSA 'n' has a leading zero byte") }
                // RFC 7518 §6.3.1.2: the minimal encoding; otherwise one key has several RFC 7638 thumbprints.
                guard e.first != 0 else { throw JOSEError(.invalidKey, "RSA 'e' has a leading zero byte") }
                guard !RSAFingerprint.isROCA(modulus: n) else {
                    throw JOSEError(.weakKey, "the RSA modulus has the ROCA (CVE-2017-15361) fingerprint")
                }
                material = .publicKey(try PublicKey(rsaModulus: n, exponent: e))
                thumbprint = Self.thumbprint(#"{"e":"\#(try string("e"))","kty":"RSA","n":"\#(try string("n"))"}"#)
            case .ec:
                guard let name = curve, let ellipticCurve = EllipticCurve(jwkName: name) else {
                    throw JOSEError(.invalidKey, "unsupported or missing EC crv")
                }
                material = .publicKey(try PublicKey(curve: ellipticCurve, x: try field("x"), y: try field("y")))
                thumbprint = Self.thumbprint(
                    #"{"crv":"\#(name)","kty":"EC","x":"\#(try string("x"))","y":"\#(try string("y"))"}"#)
            case .okp:
                guard curve == "Ed25519" else { throw JOSEError(.invalidKey, "unsupported or missing OKP crv") }
                material = .publicKey(try PublicKey(ed25519: try field("x")))
                thumbprint = Self.thumbprint(#"{"crv":"Ed25519","kty":"OKP","x":"\#(try string("x"))"}"#)
            case .oct:
                let secret = try field("k")
                guard !secret.isEmpty else { throw JOSEError(.weakKey, "empty oct key") }
                material = .symmetric(HMACKeyMaterial(secret))
                thumbprint = Self.thumbprint(#"{"k":"\#(try string("k"))","kty":"oct"}"#)
            }
        } catch let error as CryptoError {
            throw JOSEError(error.code == .weakKey ? .weakKey : .invalidKey, error.reason)
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError(.invalidKey, "invalid JWK")
        }
    }

    /// A JWK for a public key (for publishing a JWKS, as the local demo provider does).
    public init(publicKey: PublicKey, keyID: String?, algorithm: JWSAlgorithm?) throws(JOSEError) {
        var members = Self.keyMembers(publicKey)
        if let keyID { members.append(#""kid":"# + Self.jsonString(keyID)) }
        if let algorithm { members.append(#""alg":"\#(algorithm.rawValue)""#) }
        members.append(#""use":"sig""#)
        try self.init(json: "{" + members.joined(separator: ",") + "}")
    }

    /// The public JWK as JSON text (never includes secrets; `oct` keys return nil).
    public var publicJSON: String? {
        guard let key = publicKey else { return nil }
        var members = Self.keyMembers(key)
        if let keyID { members.append(#""kid":"# + Self.jsonString(keyID)) }
        if let algorithm { members.append(#""alg":"# + Self.jsonString(algorithm)) }
        if let use { members.append(#""use":"# + Self.jsonString(use)) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A JSON string literal (RFC 8259 §7): quotes, backslashes and control characters escaped, so a `kid` such as
    /// `x","x":"…` stays one string instead of adding members.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The key-type members (`kty`, `crv`, `x`, `y` / `n`, `e`) of a public key, as JSON member texts.
    private static func keyMembers(_ key: PublicKey) -> [String] {
        let (first, second) = key.components
        switch key.kind {
        case .ec(let curve):
            return [
                #""kty":"EC""#, #""crv":"\#(curve.rawValue)""#, #""x":"\#(Base64URL.encode(first))""#,
                #""y":"\#(Base64URL.encode(second))""#,
            ]
        case .ed25519:
            return [#""kty":"OKP""#, #""crv":"Ed25519""#, #""x":"\#(Base64URL.encode(first))""#]
        case .rsa:
            return [#""kty":"RSA""#, #""n":"\#(Base64URL.encode(first))""#, #""e":"\#(Base64URL.encode(second))""#]
        }
    }

    private static func optionalString(_ object: JSONObject, _ name: String) throws(JOSEError) -> String? {
        guard let value = object[name] else { return nil }
        guard let text = value.stringValue else { throw JOSEError(.invalidKey, "JWK '\(name)' must be a string") }
        return text
    }

    private static func thumbprint(_ canonical: String) -> String {
        Base64URL.encode(HashFunction.sha256.hash(Array(canonical.utf8)))
    }

    /// Why this key cannot verify `algorithm`, or nil when it can (RFC 8725 §3.1: the key decides).
    func incompatibility(with algorithm: JWSAlgorithm) -> JOSEError? {
        guard keyType == algorithm.keyType else {
            return JOSEError(
                .keyAlgorithmMismatch, "\(algorithm) needs a \(algorithm.keyType.rawValue) key, not \(keyType.rawValue)"
            )
        }
        if let own = self.algorithm, !algorithm.matches(jwkAlgorithm: own) {
            return JOSEError(
                .keyAlgorithmMismatch, "the key is for \(own.count <= 16 ? own : "another alg"), not \(algorithm)")
        }
        if let use, use != "sig" { return JOSEError(.keyAlgorithmMismatch, "the key's use is not 'sig'") }
        if let keyOperations, !keyOperations.contains("verify") {
            return JOSEError(.keyAlgorithmMismatch, "the key's key_ops do not include 'verify'")
        }
        switch material {
        case .publicKey(let key):
            if let curve = algorithm.curve, key.kind != .ec(curve) {
                return JOSEError(.keyAlgorithmMismatch, "\(algorithm) needs a \(curve.rawValue) key")
            }
        case .symmetric(let secret):
            if let hash = algorithm.hmacHash, secret.byteCount < hash.byteCount {
                return JOSEError(
                    .weakKey, "\(algorithm) needs a key of at least \(hash.byteCount) bytes (RFC 7518 §3.2)")
            }
        }
        return nil
    }
}
