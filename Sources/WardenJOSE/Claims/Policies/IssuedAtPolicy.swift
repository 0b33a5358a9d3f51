import Foundation

/// `iat` (RFC 7519 §4.1.6): never in the future — with **no** leeway, since a positive `iat` leeway opens a replay
/// window for pre-minted tokens — and optionally not older than `maximumAge`.
public struct IssuedAtPolicy: ClaimPolicy {
    public let maximumAge: TimeInterval?
    public let required: Bool

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
