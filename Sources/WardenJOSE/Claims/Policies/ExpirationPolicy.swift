/// `exp` (RFC 7519 §4.1.4): required by default; the token is expired when `now > exp + leeway`.
public struct ExpirationPolicy: ClaimPolicy {
    public let leeway: Leeway
    public let required: Bool

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
