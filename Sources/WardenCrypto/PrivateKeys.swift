import Foundation
import WardenCore

/// An RSA private key for RSASSA-PKCS1-v1_5 signing (OAuth 1.0a `RSA-SHA1`/`RSA-SHA256`, test fixtures).
///
/// ```swift
/// let key = try RSAPrivateKey(pem: pemText)
/// let signature = try key.signature(for: Array(baseString.utf8), hash: .sha1)
/// ```
///
/// The key prints `<redacted>`. Thread-safety: immutable, `Sendable`.
public struct RSAPrivateKey: Sendable, CustomStringConvertible, CustomReflectable {
    let backing: PrivateKeyBacking

    /// Reads an unencrypted PEM private key (`PRIVATE KEY` PKCS#8 or `RSA PRIVATE KEY` PKCS#1). Encrypted keys,
    /// non-RSA keys and moduli under 2048 bits are rejected.
    public init(pem: String) throws(CryptoError) {
        backing = try PrivateKeyBacking.fromPEM(pem)
        guard case .rsa(let bits) = backing.publicKey.kind else {
            throw CryptoError(.algorithmMismatch, "not an RSA private key")
        }
        guard bits >= PublicKey.minimumRSAModulusBits else { throw CryptoError(.weakKey, "RSA key under 2048 bits") }
    }

    /// Generates a fresh key (for tests and the local demo provider).
    public init(generatingBits bits: Int = 2048) throws(CryptoError) {
        guard bits >= PublicKey.minimumRSAModulusBits, bits <= 8192 else {
            throw CryptoError(.weakKey, "RSA keys are generated with 2048 to 8192 bits")
        }
        backing = try PrivateKeyBacking.generateRSA(bits: bits)
    }

    /// The matching public key.
    public var publicKey: PublicKey { backing.publicKey }

    /// An RSASSA-PKCS1-v1_5 signature over `message`.
    public func signature(for message: some ContiguousBytes, hash: HashFunction) throws(CryptoError) -> [UInt8] {
        try message.withBytes { (bytes) throws(CryptoError) in try backing.sign(bytes, algorithm: .rsaPKCS1v15(hash)) }
    }

    /// An RSASSA-PSS signature (MGF1 with the same hash, salt = hash length) over `message`.
    public func pssSignature(for message: some ContiguousBytes, hash: HashFunction) throws(CryptoError) -> [UInt8] {
        try message.withBytes { (bytes) throws(CryptoError) in try backing.sign(bytes, algorithm: .rsaPSS(hash)) }
    }

    /// The key as an unencrypted PKCS#8 PEM. Handle the result as a secret.
    public func pkcs8PEM() -> Redacted<String> { Redacted(backing.pkcs8PEM) }

    public var description: String { "RSAPrivateKey(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// An ECDSA private key (P-256 by default) producing raw `r||s` signatures, as JOSE (ES256) and DPoP need.
///
/// ```swift
/// let key = try ECPrivateKey()                       // fresh P-256 key from the system CSPRNG
/// let signature = try key.signature(for: signingInput)   // 64 bytes r||s
/// ```
///
/// The key prints `<redacted>`. Thread-safety: immutable, `Sendable`.
public struct ECPrivateKey: Sendable, CustomStringConvertible, CustomReflectable {
    let backing: PrivateKeyBacking
    /// The key's curve.
    public let curve: EllipticCurve

    /// Generates a fresh key on `curve`.
    public init(curve: EllipticCurve = .p256) throws(CryptoError) {
        self.curve = curve
        backing = try PrivateKeyBacking.generateEC(curve)
    }

    /// Reads an unencrypted PEM EC private key (PKCS#8 or SEC 1).
    public init(pem: String) throws(CryptoError) {
        backing = try PrivateKeyBacking.fromPEM(pem)
        guard case .ec(let curve) = backing.publicKey.kind else {
            throw CryptoError(.algorithmMismatch, "not an EC private key")
        }
        self.curve = curve
    }

    /// The matching public key.
    public var publicKey: PublicKey { backing.publicKey }

    /// A raw `r||s` ECDSA signature over `message` with the curve's hash (SHA-256 for P-256).
    public func signature(for message: some ContiguousBytes) throws(CryptoError) -> [UInt8] {
        try message.withBytes { (bytes) throws(CryptoError) in
            try backing.sign(bytes, algorithm: .ecdsa(curve.signatureHash))
        }
    }

    /// The key as an unencrypted PKCS#8 PEM. Handle the result as a secret.
    public func pkcs8PEM() -> Redacted<String> { Redacted(backing.pkcs8PEM) }

    public var description: String { "ECPrivateKey(\(curve.rawValue), <redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// An Ed25519 private key (for tests, the demo provider and software passkey authenticators).
///
/// The key prints `<redacted>`. Thread-safety: immutable, `Sendable`.
public struct Ed25519PrivateKey: Sendable, CustomStringConvertible, CustomReflectable {
    let backing: PrivateKeyBacking

    /// Generates a fresh key.
    public init() throws(CryptoError) { backing = try PrivateKeyBacking.generateEd25519(seed: nil) }

    /// The key for a 32-byte RFC 8032 seed (the JWK `d` of an `OKP` key).
    public init(seed: [UInt8]) throws(CryptoError) {
        guard seed.count == 32 else { throw CryptoError(.invalidKey, "Ed25519 seeds are 32 bytes") }
        backing = try PrivateKeyBacking.generateEd25519(seed: seed)
    }

    /// The matching public key.
    public var publicKey: PublicKey { backing.publicKey }

    /// A 64-byte Ed25519 signature over `message`.
    public func signature(for message: some ContiguousBytes) throws(CryptoError) -> [UInt8] {
        try message.withBytes { (bytes) throws(CryptoError) in try backing.sign(bytes, algorithm: .ed25519) }
    }

    public var description: String { "Ed25519PrivateKey(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
