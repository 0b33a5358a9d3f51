import WardenCrypto

/// `nonce` compared in constant time with the value the client stored.
public struct NoncePolicy: ClaimPolicy {
    let expected: String

    /// A policy requiring `nonce` to equal `expected`, the value the client stored.
    public init(_ expected: String) { self.expected = expected }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        guard let nonce = try context.claims.nonce else { throw JOSEError(.missingClaim, "the token has no nonce") }
        guard ConstantTime.equals(nonce, expected) else { throw JOSEError(.nonceMismatch, "nonce does not match") }
    }
}
