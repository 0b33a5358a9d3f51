/// The NIST curves Warden verifies ECDSA signatures on.
public enum EllipticCurve: String, Sendable, Hashable, CaseIterable {
    /// P-256 (secp256r1).
    case p256 = "P-256"
    /// P-384 (secp384r1).
    case p384 = "P-384"
    /// P-521 (secp521r1).
    case p521 = "P-521"

    /// Bytes of one coordinate or scalar; a raw `r||s` signature is twice this.
    public var fieldByteCount: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        case .p521: 66
        }
    }

    /// The hash ECDSA pairs with this curve in JOSE and COSE (ES256, ES384, ES512).
    public var signatureHash: HashFunction {
        switch self {
        case .p256: .sha256
        case .p384: .sha384
        case .p521: .sha512
        }
    }

    /// The curve named by a JWK `crv` value (`P-256`, `P-384`, `P-521`).
    public init?(jwkName: String) { self.init(rawValue: jwkName) }
}
