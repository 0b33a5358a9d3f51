import WardenCore

/// `iss` (RFC 7519 §4.1.1): an exact string match, no normalisation.
public struct IssuerPolicy: ClaimPolicy {
    /// The expected `iss`, compared code point for code point.
    public let issuer: String

    /// A policy requiring `iss` to equal `issuer` exactly.
    public init(_ issuer: String) { self.issuer = issuer }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        guard let iss = try context.claims.issuer else { throw JOSEError(.missingClaim, "the token has no iss") }
        guard CodePoints.equal(iss, issuer) else {
            throw JOSEError(
                .issuerMismatch,
                "the token's iss: " + IssuerMismatch.explain(configured: issuer, announced: iss))
        }
    }
}
