import Foundation

/// `iat` (RFC 7519 §4.1.6): never in the future — with **no** leeway, since a positive `iat` leeway opens a replay
/// window for pre-minted tokens — and optionally not older than `maximumAge`.
public struct IssuedAtPolicy: ClaimPolicy {
    /// How old `iat` may be, in seconds; nil: any age.
    public let maximumAge: TimeInterval?
    /// Whether a token without `iat` is refused; always true when ``maximumAge`` is set.
    public let required: Bool

    /// A policy checking `iat`; a `maximumAge` makes `iat` required whatever `required` (default false) says.
    public init(maximumAge: TimeInterval? = nil, required: Bool = false) {
        self.maximumAge = maximumAge
        self.required = required || maximumAge != nil
    }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        guard let iat = try context.claims.issuedAt else {
            if required { throw JOSEError(.missingClaim, "the token has no iat") }
            return
        }
        if iat > context.now { throw JOSEError(.issuedInFuture, "the token was issued in the future (iat)") }
        if let maximumAge, context.now.timeIntervalSince(iat) > maximumAge {
            throw JOSEError(.tooOld, "the token is older than \(Int(maximumAge)) s")
        }
    }
}
