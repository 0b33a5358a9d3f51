import Foundation
import WardenCore
import WardenCrypto

/// What a claim policy sees: the verified header and claims, and "now" read once through the injected clock.
public struct ClaimContext: Sendable {
    /// The token's verified protected header.
    public let header: JOSEHeader
    /// The token's claims.
    public let claims: JWTClaims
    /// The time the policy checks against, read once per verification.
    public let now: Date

    /// A context for checking a policy on its own (an app's unit test of its policy); ``JWTVerifier`` builds one for
    /// every verified token.
    public init(header: JOSEHeader, claims: JWTClaims, now: Date) {
        self.header = header
        self.claims = claims
        self.now = now
    }
}

/// One rule about a token's claims. Policies compose with ``ClaimPolicyBuilder``.
///
/// ```swift
/// let policy = AllOf {
///     ExpirationPolicy()
///     IssuedAtPolicy(maximumAge: 600)
///     IssuerPolicy("https://id.example.com")
///     AudiencePolicy("my-api")
/// }
/// ```
///
/// A policy is a plain throwing check: it returns when the token meets it and throws the ``JOSEError`` that says
/// why not, which ``JWTVerifier/verify(_:)`` passes on unchanged. One policy per file, in `Claims/Policies/`.
public protocol ClaimPolicy: Sendable {
    /// Checks the token; throws why it fails the policy.
    func check(_ context: ClaimContext) throws(JOSEError)
}

/// Builds a list of policies that must all hold.
@resultBuilder
public enum ClaimPolicyBuilder {
    /// Lifts one policy into a one-element list.
    public static func buildExpression(_ policy: any ClaimPolicy) -> [any ClaimPolicy] { [policy] }
    /// Concatenates the policies of a block's statements, in order.
    public static func buildBlock(_ parts: [any ClaimPolicy]...) -> [any ClaimPolicy] { parts.flatMap { $0 } }
    /// The policies of an `if` without `else`: none when the condition is false.
    public static func buildOptional(_ part: [any ClaimPolicy]?) -> [any ClaimPolicy] { part ?? [] }
    /// The policies of the first branch of an `if`-`else` or `switch`.
    public static func buildEither(first: [any ClaimPolicy]) -> [any ClaimPolicy] { first }
    /// The policies of the second branch of an `if`-`else` or `switch`.
    public static func buildEither(second: [any ClaimPolicy]) -> [any ClaimPolicy] { second }
    /// Concatenates the policies a `for` loop produced, in iteration order.
    public static func buildArray(_ parts: [[any ClaimPolicy]]) -> [any ClaimPolicy] { parts.flatMap { $0 } }
}

/// Every policy must hold; the first failure is reported.
public struct AllOf: ClaimPolicy {
    /// The policies checked, in order.
    public let policies: [any ClaimPolicy]

    /// A policy that requires every policy the builder block lists, checked in order.
    public init(@ClaimPolicyBuilder _ policies: () -> [any ClaimPolicy]) { self.policies = policies() }
    /// A policy that requires every policy in `policies`, checked in order.
    public init(_ policies: [any ClaimPolicy]) { self.policies = policies }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        for policy in policies { try policy.check(context) }
    }
}
