/// `aud` must contain one of several allowed client IDs.
public struct AudienceSetPolicy: ClaimPolicy {
    /// The client IDs of which `aud` must contain at least one.
    public let allowed: Set<String>

    /// A policy requiring `aud` to contain at least one of `allowed`.
    public init(allowed: Set<String>) { self.allowed = allowed }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        let audiences = try context.claims.audience
        guard audiences.contains(where: allowed.contains) else {
            throw JOSEError(.audienceMismatch, "aud is not one of the configured client IDs")
        }
    }
}
