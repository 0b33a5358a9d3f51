import Foundation

/// HMAC (RFC 2104) with any ``HashFunction``.
///
/// ```swift
/// let tag = HMAC.authenticationCode(for: message, key: key, hash: .sha256)
/// let ok = HMAC.isValid(tag, for: message, key: key, hash: .sha256)   // constant time
/// ```
public enum HMAC {
    /// Computes the full-length tag.
    public static func authenticationCode(
        for message: some ContiguousBytes, key: some ContiguousBytes, hash: HashFunction
    ) -> [UInt8] {
        key.withUnsafeBytes { key in message.withUnsafeBytes { HMACBackend.mac(hash, key: key, message: $0) } }
    }

    /// Checks a full-length tag in constant time. Truncated tags are rejected.
    public static func isValid(
        _ tag: some ContiguousBytes, for message: some ContiguousBytes, key: some ContiguousBytes, hash: HashFunction
    ) -> Bool {
        let expected = authenticationCode(for: message, key: key, hash: hash)
        return ConstantTime.equals(expected, tag)
    }
}

/// An HMAC key prepared once and reused, like a JWK `oct` key in a verifier: the keyed inner and outer states
/// are computed at construction, so each tag costs only the message hashing.
///
/// ```swift
/// let key = HMACKey(secret, hash: .sha256)
/// let ok = key.isValid(tag, for: signingInput)
/// ```
///
/// The key prints `<redacted>`. Thread-safety: immutable, `Sendable`.
public struct HMACKey: Sendable, CustomStringConvertible, CustomReflectable {
    /// The hash function.
    public let hash: HashFunction
    /// The key length in bytes (RFC 7518 §3.2 requires at least the hash output size for JOSE).
    public let byteCount: Int
    let backing: HMACKeyBacking

    /// Prepares `key` for HMAC with `hash`.
    public init(_ key: some ContiguousBytes, hash: HashFunction) {
        self.hash = hash
        byteCount = key.withUnsafeBytes { $0.count }
        backing = key.withUnsafeBytes { HMACKeyBacking(hash: hash, key: $0) }
    }

    /// The full-length tag of `message`.
    public func authenticationCode(for message: some ContiguousBytes) -> [UInt8] {
        message.withUnsafeBytes { backing.mac($0) }
    }

    /// Checks a full-length tag in constant time.
    public func isValid(_ tag: some ContiguousBytes, for message: some ContiguousBytes) -> Bool {
        ConstantTime.equals(authenticationCode(for: message), tag)
    }

    /// The full-length tag of `message` (concrete overload: no generic dispatch on the hot path).
    public func authenticationCode(for message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { backing.mac($0) }
    }

    /// Checks a full-length tag in constant time (concrete overload for the JWS hot path).
    public func isValid(_ tag: [UInt8], for message: [UInt8]) -> Bool {
        let expected = authenticationCode(for: message)
        guard expected.count == tag.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<tag.count { difference |= expected[index] ^ tag[index] }
        return difference == 0
    }

    public var description: String { "HMACKey(\(hash.rawValue), <redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
