import Foundation

/// `auth_time` with a requested `max_age` (OIDC Core §3.1.2.1): required, and not older than `max_age`.
public struct AuthTimePolicy: ClaimPolicy {
    /// The requested `max_age`, in seconds.
    public let maximumAge: TimeInterval
    /// The clock-skew allowance added to ``maximumAge``.
    public let leeway: Leeway

    /// A policy requiring `auth_time`, at most `maximumAge` plus `leeway` seconds before now; `leeway` defaults to
    /// ``Leeway/standard`` (60 s).
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
