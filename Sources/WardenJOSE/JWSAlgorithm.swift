import WardenCrypto

/// The JWS algorithms Warden verifies (RFC 7518 §3, RFC 8037, RFC 9864). `none` does not exist here.
///
/// `Ed25519` (RFC 9864's fully-specified name) and `EdDSA` are both accepted for Ed25519 keys.
public enum JWSAlgorithm: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// HMAC with SHA-256, with an `oct` key.
    case hs256 = "HS256"
    /// HMAC with SHA-384, with an `oct` key.
    case hs384 = "HS384"
    /// HMAC with SHA-512, with an `oct` key.
    case hs512 = "HS512"
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = "RS256"
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    case rs384 = "RS384"
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    case rs512 = "RS512"
    /// RSASSA-PSS with SHA-256.
    case ps256 = "PS256"
    /// RSASSA-PSS with SHA-384.
    case ps384 = "PS384"
    /// RSASSA-PSS with SHA-512.
    case ps512 = "PS512"
    /// ECDSA on P-256 with SHA-256.
    case es256 = "ES256"
    /// ECDSA on P-384 with SHA-384.
    case es384 = "ES384"
    /// ECDSA on P-521 with SHA-512.
    case es512 = "ES512"
    /// EdDSA (RFC 8037), verified with Ed25519 keys only.
    case edDSA = "EdDSA"
    /// Ed25519 (RFC 9864), the fully-specified name for EdDSA with an Ed25519 key.
    case ed25519 = "Ed25519"

    public var description: String { rawValue }

    /// Every asymmetric algorithm: the default allowlist for tokens from an identity provider.
    public static let asymmetric: Set<JWSAlgorithm> = Set(allCases.filter { $0.hmacHash == nil })

    /// Reads a header `alg`. `none` in any casing is ``JOSEErrorDomain/Code/algNone``; anything unknown is
    /// ``JOSEErrorDomain/Code/unsupportedAlgorithm``.
    public static func parse(_ name: String) throws(JOSEError) -> JWSAlgorithm {
        if let algorithm = JWSAlgorithm(rawValue: name) { return algorithm }
        if name.lowercased() == "none" { throw JOSEError(.algNone, "unsecured JWS (alg none) is never accepted") }
        let shown = name.count <= 16 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        throw JOSEError(.unsupportedAlgorithm, "unsupported alg \(shown ? "'\(name)'" : "value")")
    }

    /// The HMAC hash for `HS*`, nil otherwise.
    public var hmacHash: HashFunction? {
        switch self {
        case .hs256: .sha256
        case .hs384: .sha384
        case .hs512: .sha512
        default: nil
        }
    }

    /// The signature scheme for asymmetric algorithms.
    public var signatureAlgorithm: SignatureAlgorithm? {
        switch self {
        case .hs256, .hs384, .hs512: nil
        case .rs256: .rsaPKCS1v15(.sha256)
        case .rs384: .rsaPKCS1v15(.sha384)
        case .rs512: .rsaPKCS1v15(.sha512)
        case .ps256: .rsaPSS(.sha256)
        case .ps384: .rsaPSS(.sha384)
        case .ps512: .rsaPSS(.sha512)
        case .es256: .ecdsa(.sha256)
        case .es384: .ecdsa(.sha384)
        case .es512: .ecdsa(.sha512)
        case .edDSA, .ed25519: .ed25519
        }
    }

    /// The hash used for OpenID Connect `at_hash` / `c_hash` (Core §3.1.3.6): the alg's hash, SHA-512 for
    /// Ed25519.
    public var claimHash: HashFunction {
        switch self {
        case .hs256, .rs256, .ps256, .es256: .sha256
        case .hs384, .rs384, .ps384, .es384: .sha384
        case .hs512, .rs512, .ps512, .es512, .edDSA, .ed25519: .sha512
        }
    }

    /// The JWK `kty` this algorithm needs.
    var keyType: JWK.KeyType {
        switch self {
        case .hs256, .hs384, .hs512: .oct
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: .rsa
        case .es256, .es384, .es512: .ec
        case .edDSA, .ed25519: .okp
        }
    }

    /// The curve an EC algorithm needs.
    var curve: EllipticCurve? {
        switch self {
        case .es256: .p256
        case .es384: .p384
        case .es512: .p521
        default: nil
        }
    }

    /// Whether a JWK's own `alg` names this algorithm (`EdDSA` and `Ed25519` name the same thing).
    func matches(jwkAlgorithm: String) -> Bool {
        if jwkAlgorithm == rawValue { return true }
        return (self == .edDSA || self == .ed25519) && (jwkAlgorithm == "EdDSA" || jwkAlgorithm == "Ed25519")
    }
}
