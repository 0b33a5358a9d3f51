import WardenCore

/// `azp` (OIDC Core §2): required to equal the client when there are several audiences; when present it must
/// equal the client in any case.
public struct AuthorizedPartyPolicy: ClaimPolicy {
    /// The client ID `azp` must equal, code point for code point.
    public let clientID: String

    /// A policy checking `azp` against `clientID`.
    public init(clientID: String) { self.clientID = clientID }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        let azp = try context.claims.string("azp")
        if try context.claims.audience.count > 1, azp == nil {
            throw JOSEError(.azpMismatch, "several audiences and no azp")
        }
        if let azp, !CodePoints.equal(azp, clientID) { throw JOSEError(.azpMismatch, "azp is not this client") }
    }
}
