import WardenCore

/// The system CSPRNG (the kernel's `getrandom(2)` on Linux, OpenSSL `RAND_bytes` where that call fails; `SecRandomCopyBytes` on
/// Apple), failing closed.
///
/// ```swift
/// let verifierBytes = try SecureRandom().bytes(count: 32)
/// ```
///
/// Thread-safety: stateless; safe from any thread.
public struct SecureRandom: RandomSource {
    /// The system source.
    public init() {}

    /// `count` random bytes, or ``CryptoErrorDomain/Code/randomUnavailable`` — never zeros.
    public func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        guard count >= 0 else { throw CryptoError(.malformedInput, "negative random byte count") }
        var output = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return output }
        let ok = output.withUnsafeMutableBytes { RandomBackend.fill($0) }
        guard ok else { throw CryptoError(.randomUnavailable, "the system random source failed") }
        return output
    }
}
