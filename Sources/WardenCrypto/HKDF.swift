import Foundation

/// HKDF (RFC 5869): derives keys from a secret that is not itself a uniform key (an X25519 shared secret), or
/// several independent keys from one (a key per file from a master key).
///
/// ```swift
/// let fileKey = try HKDF.deriveKey(from: masterKey, salt: salt, info: Array("warden sealed v1".utf8), byteCount: 32)
/// ```
///
/// OpenSSL's `HKDF` KDF on Linux, CryptoKit's `HKDF` on Apple.
public enum HKDF {
    /// Extract-then-expand: `byteCount` bytes of output keying material.
    ///
    /// - Parameters:
    ///   - inputKeyMaterial: the secret (any length, empty included).
    ///   - salt: non-secret randomness; empty means a hash-length string of zeros (RFC 5869 §2.2).
    ///   - info: what the key is for, so keys for different purposes differ.
    ///   - byteCount: 1 to 255 × the hash length (8,160 bytes for SHA-256).
    ///   - hash: SHA-256 unless a protocol says otherwise.
    /// - Throws: ``CryptoErrorDomain/Code/malformedInput`` for a `byteCount` outside that range.
    public static func deriveKey(
        from inputKeyMaterial: some ContiguousBytes, salt: some ContiguousBytes, info: some ContiguousBytes,
        byteCount: Int, hash: HashFunction = .sha256
    ) throws(CryptoError) -> [UInt8] {
        let maximum = 255 * hash.byteCount
        guard (1...maximum).contains(byteCount) else {
            throw CryptoError(
                .malformedInput, "HKDF output is 1 to \(maximum) bytes with \(hash.rawValue), not \(byteCount)")
        }
        let output = inputKeyMaterial.withUnsafeBytes { ikm in
            salt.withUnsafeBytes { salt in
                info.withUnsafeBytes { info in
                    HKDFBackend.derive(hash, ikm: ikm, salt: salt, info: info, byteCount: byteCount)
                }
            }
        }
        guard let output, output.count == byteCount else {
            throw CryptoError(.backendFailure, "the crypto backend's HKDF failed")
        }
        return output
    }
}
