import Foundation

/// An X25519 private key (RFC 7748): Diffie-Hellman key agreement on Curve25519, for wrapping a key to a recipient
/// or agreeing on one with a peer. Feed the shared secret to ``HKDF`` before using it as a key.
///
/// ```swift
/// let mine = try X25519PrivateKey()
/// let secret = try mine.sharedSecret(with: theirs)          // 32 bytes, never all zeros
/// let key = try HKDF.deriveKey(from: secret, salt: salt, info: Array("my protocol v1".utf8), byteCount: 32)
/// ```
///
/// The key prints `<redacted>`. Thread-safety: immutable, `Sendable`.
public struct X25519PrivateKey: Sendable, CustomStringConvertible, CustomReflectable {
    let raw: [UInt8]
    private let backing: X25519KeyBacking
    /// The public key to give the peer.
    public let publicKey: X25519PublicKey

    /// A new random key.
    /// - Throws: ``CryptoErrorDomain/Code/randomUnavailable``.
    public init() throws(CryptoError) {
        try self.init(rawRepresentation: try SecureRandom().bytes(count: 32))
    }

    /// A key from its 32-byte scalar (RFC 7748 §5 clamps it when used).
    /// - Throws: ``CryptoErrorDomain/Code/invalidKey`` for any other length.
    public init(rawRepresentation: some ContiguousBytes) throws(CryptoError) {
        let raw = rawRepresentation.withUnsafeBytes { Array($0) }
        guard raw.count == 32 else {
            throw CryptoError(.invalidKey, "an X25519 private key is 32 bytes, not \(raw.count)")
        }
        guard let backing = X25519KeyBacking(privateKey: raw) else {
            throw CryptoError(.backendFailure, "the crypto backend could not compute the X25519 public key")
        }
        self.raw = raw
        self.backing = backing
        publicKey = try X25519PublicKey(rawRepresentation: backing.publicKey)
    }

    /// The 32-byte scalar, for storing the key. Never log it.
    public var rawRepresentation: [UInt8] { raw }

    /// The shared secret with `peer` (32 bytes).
    /// - Throws: ``CryptoErrorDomain/Code/invalidKey`` when `peer` is a point of small order, whose shared secret is
    ///   all zeros whatever this key is (RFC 7748 §6.1: "check for the all-zero value and abort").
    public func sharedSecret(with peer: X25519PublicKey) throws(CryptoError) -> [UInt8] {
        guard let secret = backing.sharedSecret(with: peer.rawRepresentation),
            secret.count == 32
        else {
            throw CryptoError(.invalidKey, "the peer's X25519 key gives no usable shared secret (a small-order point)")
        }
        guard secret.contains(where: { $0 != 0 }) else {
            throw CryptoError(
                .invalidKey, "the peer's X25519 key is a small-order point: the shared secret is all zeros")
        }
        return secret
    }

    public var description: String { "X25519PrivateKey(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// An X25519 public key: 32 bytes, the u-coordinate (RFC 7748 §5).
public struct X25519PublicKey: Sendable, Equatable {
    /// The 32 bytes.
    public let rawRepresentation: [UInt8]

    /// A key from its 32 bytes. Any 32 bytes are a u-coordinate; a small-order one is refused when used.
    /// - Throws: ``CryptoErrorDomain/Code/invalidKey`` for any other length.
    public init(rawRepresentation: some ContiguousBytes) throws(CryptoError) {
        let raw = rawRepresentation.withUnsafeBytes { Array($0) }
        guard raw.count == 32 else {
            throw CryptoError(.invalidKey, "an X25519 public key is 32 bytes, not \(raw.count)")
        }
        self.rawRepresentation = raw
    }
}
