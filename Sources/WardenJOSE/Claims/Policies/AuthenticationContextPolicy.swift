/// `acr` against the requested `acr_values` (OIDC Core §3.1.2.1, §2): a returned `acr` must be one of them.
public struct AuthenticationContextPolicy: ClaimPolicy {
    /// The requested `acr_values`.
    public let requested: [String]

    /// A policy accepting a token without `acr`, or whose `acr` is one of `requested`.
    public init(_ requested: [String]) { self.requested = requested }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        guard let acr = try context.claims.string("acr") else { return }
        guard requested.contains(acr) else {
            throw JOSEError(.acrMismatch, "acr is not one of the requested acr_values")
        }
    }
}
