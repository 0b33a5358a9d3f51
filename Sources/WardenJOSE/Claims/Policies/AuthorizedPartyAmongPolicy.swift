import WardenCore

/// `azp` among the allowed clients: required when `aud` names several audiences, checked whenever present.
///
/// Used where one service accepts tokens minted for several clients of its own (Sign in with Apple's app and web
/// Services IDs): ``AuthorizedPartyPolicy`` pins one.
public struct AuthorizedPartyAmongPolicy: ClaimPolicy {
    /// The client identifiers `azp` may name.
    public let allowed: Set<String>

    /// A policy accepting `azp` from `allowed`.
    public init(allowed: Set<String>) { self.allowed = allowed }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        let azp = try context.claims.string("azp")
        if try context.claims.audience.count > 1, azp == nil {
            throw JOSEError(.azpMismatch, "several audiences and no azp")
        }
        if let azp, !CodePoints.contains(allowed, azp) {
            throw JOSEError(.azpMismatch, "azp is not one of the allowed clients")
        }
    }
}
