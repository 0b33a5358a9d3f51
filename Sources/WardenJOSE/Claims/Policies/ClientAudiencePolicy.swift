import WardenCore

/// An ID token's `aud` (OIDC Core §3.1.3.7 step 3): it must contain the client ID, and a token that also names an
/// audience the client does not trust is refused — `azp` does not make it acceptable.
public struct ClientAudiencePolicy: ClaimPolicy {
    /// This client's ID, which `aud` must contain.
    public let clientID: String
    /// Audiences besides ``clientID`` that `aud` may also name; any other audience is refused.
    public let trusted: Set<String>

    /// A policy requiring `aud` to contain `clientID` and name nothing outside `clientID` and `trusted` (empty by
    /// default).
    public init(clientID: String, trusted: Set<String> = []) {
        self.clientID = clientID
        self.trusted = trusted
    }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        let audiences = try context.claims.audience
        guard !audiences.isEmpty else { throw JOSEError(.missingClaim, "the token has no aud") }
        guard CodePoints.contains(audiences, clientID) else {
            throw JOSEError(.audienceMismatch, "aud does not contain this client")
        }
        let untrusted = audiences.filter { !CodePoints.equal($0, clientID) && !CodePoints.contains(trusted, $0) }
        guard untrusted.isEmpty else {
            throw JOSEError(
                .audienceMismatch,
                "aud also names \(untrusted.count) audience(s) this client does not trust (configure trusted audiences)"
            )
        }
    }
}
