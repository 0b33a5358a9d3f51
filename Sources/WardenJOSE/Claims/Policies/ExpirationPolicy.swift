/// `exp` (RFC 7519 §4.1.4): required by default; the token is expired when `now > exp + leeway`.
public struct ExpirationPolicy: ClaimPolicy {
    /// How long after `exp` a token is still accepted.
    public let leeway: Leeway
    /// Whether a token without `exp` is refused (``JOSEErrorDomain/Code/missingClaim``).
    public let required: Bool

    /// A policy checking `exp`; `leeway` defaults to ``Leeway/standard`` (60 s), and `required: false` accepts a token
    /// without `exp`.
    public init(leeway: Leeway = .standard, required: Bool = true) {
        self.leeway = leeway
        self.required = required
    }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        guard let exp = try context.claims.expiration else {
            if required { throw JOSEError(.missingClaim, "the token has no exp") }
            return
        }
        if context.now.timeIntervalSince(exp) > leeway.seconds {
            throw JOSEError(.expired, "the token has expired")
        }
    }
}
