import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenTestSupport

@testable import WardenJOSE

/// Claim policies are plain throwing checks: an app's own rule composes with Warden's, `AllOf` stops at the first
/// refusal, and the verifier passes the policy's error on as it was thrown (code, reason and location).
@Suite("Custom claim policies")
struct CustomClaimPolicyTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    struct TenantPolicy: ClaimPolicy {
        let tenant: String
        let calls = Locked(0)
        func check(_ context: ClaimContext) throws(JOSEError) {
            calls.withLock { $0 += 1 }
            guard try context.claims.string("tid") == tenant else {
                throw JOSEError(.invalidClaim, "the token is from another tenant")
            }
        }
    }

    static func token(_ payload: String) -> String {
        Mint.token(header: #"{"alg":"ES256"}"#, payload: payload, signer: .ec(Keys.ec))
    }

    static func verifier(_ policy: any ClaimPolicy) -> JWTVerifier {
        JWTVerifier(keys: Keys.ecSet, allowedAlgorithms: [.es256], policy: policy, now: { Self.now })
    }

    @Test func anAppsOwnRuleComposesAndItsErrorArrivesUnchanged() throws {
        let tenant = TenantPolicy(tenant: "t1")
        let policy = AllOf {
            ExpirationPolicy()
            tenant
        }
        let good = try Self.verifier(policy).verify(Self.token(#"{"exp":1800000600,"tid":"t1"}"#))
        #expect(try good.claims.string("tid") == "t1")
        let refused = #expect(throws: JOSEError(.invalidClaim)) {
            try Self.verifier(policy).verify(Self.token(#"{"exp":1800000600,"tid":"t2"}"#))
        }
        #expect(refused?.reason == "the token is from another tenant")
        #expect(refused?.file == "WardenJOSETests/CustomClaimPolicyTests.swift")
        // A claim of the wrong type is the claim reader's typed error, not a generic failure.
        let wrongType = #expect(throws: JOSEError.self) {
            try Self.verifier(policy).verify(Self.token(#"{"exp":1800000600,"tid":7}"#))
        }
        #expect(wrongType?.file.hasPrefix("WardenJOSE/") == true)
    }

    @Test func allOfStopsAtTheFirstRefusal() {
        let tenant = TenantPolicy(tenant: "t1")
        let policy = AllOf {
            ExpirationPolicy()
            tenant
        }
        #expect(throws: JOSEError(.expired)) {
            try Self.verifier(policy).verify(Self.token(#"{"exp":1799990000,"tid":"t1"}"#))
        }
        #expect(tenant.calls.current == 0, "a policy after the first refusal ran")
    }
}
