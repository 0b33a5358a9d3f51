/// A signature scheme, independent of any token format.
///
/// The key decides which schemes are possible: `PublicKey.isValidSignature(_:for:algorithm:)` throws
/// ``CryptoErrorDomain/Code/algorithmMismatch`` when the scheme does not fit the key.
public enum SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
    /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2).
    case rsaPKCS1v15(HashFunction)
    /// RSASSA-PSS (RFC 8017 §8.1) with MGF1 over the same hash and salt length = hash length.
    case rsaPSS(HashFunction)
    /// ECDSA with the raw `r||s` (IEEE P1363) signature form used by JOSE and WebAuthn's COSE keys.
    case ecdsa(HashFunction)
    /// Ed25519 (RFC 8032).
    case ed25519

    public var description: String {
        switch self {
        case .rsaPKCS1v15(let hash): "RSASSA-PKCS1-v1_5/\(hash.rawValue)"
        case .rsaPSS(let hash): "RSASSA-PSS/\(hash.rawValue)"
        case .ecdsa(let hash): "ECDSA/\(hash.rawValue)"
        case .ed25519: "Ed25519"
        }
    }
}
