/// The refusal of a policy built without an audience: no token passes until the caller names the audience it
/// accepts, or opts out explicitly (``JWTVerifier/standardPolicy(issuer:audience:acceptingAnyAudience:leeway:maximumAge:)``).
public struct AudienceConfiguredPolicy: ClaimPolicy {
    /// A policy that refuses every token with ``JOSEErrorDomain/Code/invalidConfiguration``.
    public init() {}

    public func check(_ context: ClaimContext) throws(JOSEError) {
        throw JOSEError(
            .invalidConfiguration,
            "no audience is configured: give the audience this service accepts, or opt out explicitly "
                + "(acceptingAnyAudience)")
    }
}
