/// `sub` (OIDC Core §2): REQUIRED, a non-empty string of at most 255 ASCII characters.
public struct SubjectPolicy: ClaimPolicy {
    /// A policy requiring `sub` to be a string of 1 to 255 ASCII characters.
    public init() {}

    public func check(_ context: ClaimContext) throws(JOSEError) {
        guard let sub = try context.claims.subject else { throw JOSEError(.missingClaim, "the token has no sub") }
        guard !sub.isEmpty, sub.utf8.count <= 255, sub.utf8.allSatisfy({ $0 < 0x80 }) else {
            throw JOSEError(.invalidClaim, "sub must be 1 to 255 ASCII characters")
        }
    }
}
