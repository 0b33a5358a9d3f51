import Foundation

/// `auth_time` with a requested `max_age` (OIDC Core §3.1.2.1): required, and not older than `max_age`.
public struct AuthTimePolicy: ClaimPolicy {
    public let maximumAge: TimeInterval
    public let leeway: Leeway

    public init(maximumAge: TimeInterval, leeway: Leeway = .standard) {
        self.maximumAge = maximumAge
        self.leeway = leeway
    }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        guard let authTime = try context.claims.date("auth_time") else {
            throw JOSEError(.missingClaim, "max_age was requested but the token has no auth_time")
        }
        if context.now.timeIntervalSince(authTime) > maximumAge + leeway.seconds {
            throw JOSEError(.authTimeTooOld, "the user authenticated longer ago than max_age")
        }
    }
}
