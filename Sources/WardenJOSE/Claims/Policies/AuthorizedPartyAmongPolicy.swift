import WardenCore

/// `azp` among the allowed clients: required when `aud` names several audiences, checked whenever present.
struct AuthorizedPartyAmongPolicy: ClaimPolicy {
    let allowed: Set<String>

    func check(_ context: ClaimContext) throws(JOSEError) {
        let azp = try context.claims.string("azp")
        if try context.claims.audience.count > 1, azp == nil {
            throw JOSEError(.azpMismatch, "several audiences and no azp")
        }
        if let azp, !CodePoints.contains(allowed, azp) {
            throw JOSEError(.azpMismatch, "azp is not one of the allowed clients")
        }
    }
}
