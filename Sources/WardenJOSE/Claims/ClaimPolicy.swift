import Foundation
import WardenCore
import WardenCrypto

/// What a claim policy sees: the verified header and claims, and "now" read once through the injected clock.
public struct ClaimContext: Sendable {
    public let header: JOSEHeader
    public let claims: JWTClaims
    public let now: Date
}

/// The outcome of a policy: failures are values, not exceptions (swift-certificates' `PolicyEvaluationResult`).
public enum PolicyResult: Sendable {
    case meetsPolicy
    case failsToMeetPolicy(JOSEError)
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
public protocol ClaimPolicy: Sendable {
    /// Checks the token.
    func check(_ context: ClaimContext) -> PolicyResult
}

/// Builds a list of policies that must all hold.
@resultBuilder
public enum ClaimPolicyBuilder {
    public static func buildExpression(_ policy: any ClaimPolicy) -> [any ClaimPolicy] { [policy] }
    public static func buildBlock(_ parts: [any ClaimPolicy]...) -> [any ClaimPolicy] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any ClaimPolicy]?) -> [any ClaimPolicy] { part ?? [] }
    public static func buildEither(first: [any ClaimPolicy]) -> [any ClaimPolicy] { first }
    public static func buildEither(second: [any ClaimPolicy]) -> [any ClaimPolicy] { second }
    public static func buildArray(_ parts: [[any ClaimPolicy]]) -> [any ClaimPolicy] { parts.flatMap { $0 } }
}

/// Every policy must hold; the first failure is reported.
public struct AllOf: ClaimPolicy {
    public let policies: [any ClaimPolicy]

    public init(@ClaimPolicyBuilder _ policies: () -> [any ClaimPolicy]) { self.policies = policies() }
    public init(_ policies: [any ClaimPolicy]) { self.policies = policies }

    public func check(_ context: ClaimContext) -> PolicyResult {
        for policy in policies {
            if case .failsToMeetPolicy(let reason) = policy.check(context) { return .failsToMeetPolicy(reason) }
        }
        return .meetsPolicy
    }
}

/// A clock-skew allowance, 0–300 seconds (RFC 7519 §4.1.4 allows "a small leeway").
public struct Leeway: Sendable, Hashable {
    /// The allowance in seconds.
    public let seconds: TimeInterval
    /// The default: 60 s.
    public static let standard = Leeway(checked: 60)

    /// A leeway; throws ``JOSEError/Code/invalidConfiguration`` outside 0...300 s.
    public init(seconds: TimeInterval) throws(JOSEError) {
        guard seconds.isFinite, (0...300).contains(seconds) else {
            throw JOSEError(.invalidConfiguration, "leeway must be between 0 and 300 seconds")
        }
        self.seconds = seconds
    }

    private init(checked seconds: TimeInterval) { self.seconds = seconds }
}

/// `exp` (RFC 7519 §4.1.4): required by default; the token is expired when `now > exp + leeway`.
public struct ExpirationPolicy: ClaimPolicy {
    public let leeway: Leeway
    public let required: Bool

    public init(leeway: Leeway = .standard, required: Bool = true) {
        self.leeway = leeway
        self.required = required
    }

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
            guard let exp = try context.claims.expiration else {
                if required { throw JOSEError(.missingClaim, "the token has no exp") }
                return
            }
            if context.now.timeIntervalSince(exp) > leeway.seconds {
                throw JOSEError(.expired, "the token has expired")
            }
        }
    }
}

/// `nbf` (RFC 7519 §4.1.5): not valid before `nbf - leeway`.
public struct NotBeforePolicy: ClaimPolicy {
    public let leeway: Leeway

    public init(leeway: Leeway = .standard) { self.leeway = leeway }

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
            guard let nbf = try context.claims.notBefore else { return }
            if nbf.timeIntervalSince(context.now) > leeway.seconds {
                throw JOSEError(.notYetValid, "the token is not valid yet (nbf)")
            }
        }
    }
}

/// `iat` (RFC 7519 §4.1.6): never in the future — with **no** leeway, since a positive `iat` leeway opens a replay
/// window for pre-minted tokens — and optionally not older than `maximumAge`.
public struct IssuedAtPolicy: ClaimPolicy {
    public let maximumAge: TimeInterval?
    public let required: Bool

    public init(maximumAge: TimeInterval? = nil, required: Bool = false) {
        self.maximumAge = maximumAge
        self.required = required || maximumAge != nil
    }

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
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
}

/// `iss` (RFC 7519 §4.1.1): an exact string match, no normalisation.
public struct IssuerPolicy: ClaimPolicy {
    public let issuer: String

    public init(_ issuer: String) { self.issuer = issuer }

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
            guard let iss = try context.claims.issuer else { throw JOSEError(.missingClaim, "the token has no iss") }
            guard CodePoints.equal(iss, issuer) else {
                throw JOSEError(
                    .issuerMismatch,
                    "the token's iss: " + IssuerMismatch.explain(configured: issuer, announced: iss))
            }
        }
    }
}

/// The refusal of a policy built without an audience: no token passes until the caller names the audience it
/// accepts, or opts out explicitly (``JWTVerifier/standardPolicy(issuer:audience:acceptingAnyAudience:leeway:maximumAge:)``).
public struct AudienceConfiguredPolicy: ClaimPolicy {
    public init() {}

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
            throw JOSEError(
                .invalidConfiguration,
                "no audience is configured: give the audience this service accepts, or opt out explicitly "
                    + "(acceptingAnyAudience)")
        }
    }
}

/// `aud` (RFC 7519 §4.1.3): a string or array that contains the expected value.
public struct AudiencePolicy: ClaimPolicy {
    public let audience: String

    public init(_ audience: String) { self.audience = audience }

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
            let audiences = try context.claims.audience
            guard !audiences.isEmpty else { throw JOSEError(.missingClaim, "the token has no aud") }
            guard CodePoints.contains(audiences, audience) else {
                throw JOSEError(.audienceMismatch, "aud does not contain the expected audience")
            }
        }
    }
}

/// The header `typ` (RFC 7515 §4.1.9), compared as a media type: case-insensitive, `application/` optional
/// (e.g. `at+jwt` for RFC 9068 access tokens).
public struct TypePolicy: ClaimPolicy {
    public let type: String

    public init(_ type: String) { self.type = type }

    static func normalise(_ value: String) -> String {
        let lower = value.lowercased()
        return lower.hasPrefix("application/") ? String(lower.dropFirst(12)) : lower
    }

    public func check(_ context: ClaimContext) -> PolicyResult {
        guard let typ = context.header.type, Self.normalise(typ) == Self.normalise(type) else {
            return .failsToMeetPolicy(JOSEError(.typeMismatch, "the header typ is not \(type)"))
        }
        return .meetsPolicy
    }
}

/// `nonce` compared in constant time with the value the client stored.
public struct NoncePolicy: ClaimPolicy {
    let expected: String

    public init(_ expected: String) { self.expected = expected }

    public func check(_ context: ClaimContext) -> PolicyResult {
        evaluate {
            guard let nonce = try context.claims.nonce else { throw JOSEError(.missingClaim, "the token has no nonce") }
            guard ConstantTime.equals(nonce, expected) else { throw JOSEError(.nonceMismatch, "nonce does not match") }
        }
    }
}

/// Claims that must be present.
public struct RequiredClaimsPolicy: ClaimPolicy {
    public let names: [String]

    public init(_ names: [String]) { self.names = names }

    public func check(_ context: ClaimContext) -> PolicyResult {
        for name in names where !context.claims.object.contains(name) {
            return .failsToMeetPolicy(JOSEError(.missingClaim, "the token has no \(name)"))
        }
        return .meetsPolicy
    }
}

/// Runs a throwing check and turns its error into a policy failure.
func evaluate(_ body: () throws -> Void) -> PolicyResult {
    do {
        try body()
        return .meetsPolicy
    } catch let error as JOSEError {
        return .failsToMeetPolicy(error)
    } catch {
        return .failsToMeetPolicy(JOSEError(.invalidClaim, "claim check failed"))
    }
}
