import WardenCore

/// `iss` against a ``TenantIssuerTemplate``: the token names its tenant in `tid`, its `iss` is the template filled
/// with that `tid` (compared byte for byte), and the tenant is allowed.
public struct TenantIssuerPolicy: ClaimPolicy {
    /// The template that `iss`, filled with the token's `tid`, must match.
    public let template: TenantIssuerTemplate

    /// A policy checking `iss` and `tid` against `template`.
    public init(_ template: TenantIssuerTemplate) { self.template = template }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        guard let iss = try context.claims.issuer else { throw JOSEError(.missingClaim, "the token has no iss") }
        guard let tid = try context.claims.string("tid") else {
            throw JOSEError(.missingClaim, "the token has no tid to fill the issuer template \(template.template)")
        }
        guard TenantIssuerTemplate.isTenantID(tid) else {
            throw JOSEError(.invalidClaim, "tid is not a tenant ID (a GUID)")
        }
        guard let expected = template.issuer(forTenant: tid) else {
            throw JOSEError(.issuerMismatch, "the token's tenant (tid) is not one of the allowed tenants")
        }
        guard CodePoints.equal(iss, expected) else {
            throw JOSEError(
                .issuerMismatch,
                "the token's iss is not the issuer template filled with its own tid: "
                    + IssuerMismatch.explain(configured: expected, announced: iss))
        }
    }
}
