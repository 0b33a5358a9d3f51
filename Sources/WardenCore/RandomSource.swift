/// A source of cryptographically secure random bytes that fails closed.
///
/// Public initialisers across Warden default to the system CSPRNG (`SecureRandom` in WardenCrypto); tests pass a
/// deterministic or failing source through internal initialisers. An implementation must throw when it cannot
/// produce random bytes; it must never return zeros or a partial buffer.
public protocol RandomSource: Sendable {
    /// Returns `count` random bytes or throws.
    func bytes(count: Int) throws -> [UInt8]
}
