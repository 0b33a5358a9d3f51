import Foundation

/// The hash functions Warden uses.
///
/// SHA-1 exists only for OAuth 1.0a (`HMAC-SHA1`, `RSA-SHA1`) compatibility; nothing else in Warden accepts it.
///
/// ```swift
/// let digest = HashFunction.sha256.hash(Array("abc".utf8))
/// ```
public enum HashFunction: String, Sendable, Hashable, CaseIterable {
    /// SHA-1 (FIPS 180-4). OAuth 1.0a compatibility only.
    case sha1 = "SHA-1"
    /// SHA-256 (FIPS 180-4).
    case sha256 = "SHA-256"
    /// SHA-384 (FIPS 180-4).
    case sha384 = "SHA-384"
    /// SHA-512 (FIPS 180-4).
    case sha512 = "SHA-512"

    /// The digest length in bytes.
    public var byteCount: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The digest of `data`.
    public func hash(_ data: some ContiguousBytes) -> [UInt8] {
        data.withUnsafeBytes { DigestBackend.hash(self, $0) }
    }
}
