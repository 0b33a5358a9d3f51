/// Claims that must be present.
public struct RequiredClaimsPolicy: ClaimPolicy {
    public let names: [String]

    public init(_ names: [String]) { self.names = names }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        for name in names where !context.claims.object.contains(name) {
            throw JOSEError(.missingClaim, "the token has no \(name)")
        }
    }
}
