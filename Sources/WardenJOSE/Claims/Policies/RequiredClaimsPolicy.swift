/// Claims that must be present.
public struct RequiredClaimsPolicy: ClaimPolicy {
    /// The names of the claims a token must carry.
    public let names: [String]

    /// A policy requiring every claim in `names`; the first one missing fails with
    /// ``JOSEErrorDomain/Code/missingClaim``.
    public init(_ names: [String]) { self.names = names }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        for name in names where !context.claims.object.contains(name) {
            throw JOSEError(.missingClaim, "the token has no \(name)")
        }
    }
}
