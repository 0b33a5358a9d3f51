import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenTestSupport

@testable import WardenJOSE

@Suite("OpenID Connect ID tokens")
struct IDTokenTests {
    static let t = Int(Date.fixed.timeIntervalSince1970)
    static let issuer = "https://id.example.com"

    static func token(_ claims: String, header: String = #"{"alg":"ES256","kid":"ec1"}"#) -> String {
        Mint.token(header: header, payload: claims, signer: .ec(Keys.ec))
    }

    static let validator = IDTokenVerifier(issuer: issuer, clientID: "app", keys: Keys.ecSet, now: { .fixed })

    static func claims(_ extra: String = "") -> String {
        #"{"iss":"\#(issuer)","aud":"app","sub":"u1","exp":\#(t + 300),"iat":\#(t),"nonce":"n-123"\#(extra)}"#
    }

    @Test func validToken() throws {
        let accessToken = "access-token-value"
        let atHash = IDTokenVerifier.halfHash(accessToken, .es256)
        let claims = try Self.validator.verify(
            Self.token(Self.claims(#","at_hash":"\#(atHash)""#)), nonce: "n-123", accessToken: accessToken)
        #expect(try claims.subject == "u1")
    }

    /// OIDC Core's at_hash example value (§A.3/§A.4 use the same access token): "77QmUPtjPfzWtF2AnpK9RQ".
    @Test func atHashSpecExample() {
        #expect(
            IDTokenVerifier.halfHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y", .rs256) == "77QmUPtjPfzWtF2AnpK9RQ"
        )
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        let name: String
        let claims: String
        var nonce: String? = "n-123"
        var accessToken: String? = nil
        var code: String? = nil
        var maxAge: TimeInterval? = nil
        var acrValues: [String]? = nil
        let expected: JOSEError.Code
        var testDescription: String { name }
    }

    static let bad: [Bad] = [
        Bad(name: "wrong nonce", claims: claims(), nonce: "n-124", expected: .nonceMismatch),
        Bad(
            name: "missing nonce", claims: #"{"iss":"\#(issuer)","aud":"app","exp":\#(t + 300),"iat":\#(t)}"#,
            expected: .missingClaim),
        Bad(
            name: "several audiences without azp",
            claims: claims().replacingOccurrences(of: #""aud":"app""#, with: #""aud":["app","other"]"#),
            expected: .azpMismatch),
        Bad(name: "azp of another client", claims: claims(#","azp":"other""#), expected: .azpMismatch),
        // Core §3.1.3.7 step 3: azp naming the client does not make an untrusted extra audience acceptable.
        Bad(
            name: "an untrusted audience besides the client, azp = client",
            claims: claims(#","azp":"app""#).replacingOccurrences(
                of: #""aud":"app""#, with: #""aud":["app","evil-api"]"#),
            expected: .audienceMismatch),
        Bad(
            name: "aud without the client",
            claims: claims().replacingOccurrences(of: #""aud":"app""#, with: #""aud":"api""#),
            expected: .audienceMismatch),
        Bad(
            name: "no sub", claims: claims().replacingOccurrences(of: #""sub":"u1","#, with: ""),
            expected: .missingClaim),
        Bad(
            name: "empty sub", claims: claims().replacingOccurrences(of: #""sub":"u1""#, with: #""sub":"""#),
            expected: .invalidClaim),
        Bad(
            name: "sub over 255 characters",
            claims: claims().replacingOccurrences(
                of: #""sub":"u1""#, with: #""sub":"\#(String(repeating: "u", count: 256))""#),
            expected: .invalidClaim),
        Bad(
            name: "sub not a string", claims: claims().replacingOccurrences(of: #""sub":"u1""#, with: #""sub":7"#),
            expected: .invalidClaim),
        Bad(
            name: "acr outside the requested acr_values", claims: claims(#","acr":"urn:weak""#),
            acrValues: ["urn:mfa"], expected: .acrMismatch),
        Bad(
            name: "at_hash mismatch", claims: claims(#","at_hash":"AAAAAAAAAAAAAAAAAAAAAA""#), accessToken: "tok",
            expected: .accessTokenHashMismatch),
        Bad(
            name: "c_hash mismatch", claims: claims(#","c_hash":"AAAAAAAAAAAAAAAAAAAAAA""#), code: "code",
            expected: .codeHashMismatch),
        Bad(name: "max_age without auth_time", claims: claims(), maxAge: 300, expected: .missingClaim),
        Bad(
            name: "auth_time older than max_age", claims: claims(#","auth_time":\#(t - 1000)"#), maxAge: 300,
            expected: .authTimeTooOld),
        Bad(
            name: "no iat", claims: #"{"iss":"\#(issuer)","aud":"app","exp":\#(t + 300),"nonce":"n-123"}"#,
            expected: .missingClaim),
        Bad(
            name: "iat in the future",
            claims: claims().replacingOccurrences(of: #""iat":\#(t)"#, with: #""iat":\#(t + 5)"#),
            expected: .issuedInFuture),
        Bad(
            name: "wrong issuer", claims: claims().replacingOccurrences(of: issuer, with: "https://id.example.org"),
            expected: .issuerMismatch),
        Bad(
            name: "expired",
            claims: claims().replacingOccurrences(of: #""exp":\#(t + 300)"#, with: #""exp":\#(t - 100)"#),
            expected: .expired),
    ]

    @Test(arguments: bad)
    func rejects(_ bad: Bad) {
        #expect(throws: JOSEError(bad.expected)) {
            try Self.validator.verify(
                Self.token(bad.claims), nonce: bad.nonce, accessToken: bad.accessToken, authorizationCode: bad.code,
                maxAge: bad.maxAge, acrValues: bad.acrValues)
        }
    }

    @Test func trustedAudiencesAndRequestedACRAreAccepted() throws {
        let token = Self.token(
            Self.claims(#","azp":"app","acr":"urn:mfa""#).replacingOccurrences(
                of: #""aud":"app""#, with: #""aud":["app","https://api.example.com"]"#))
        let validator = IDTokenVerifier(
            issuer: Self.issuer, clientID: "app", keys: Keys.ecSet, trustedAudiences: ["https://api.example.com"],
            now: { .fixed })
        let claims = try validator.verify(token, nonce: "n-123", acrValues: ["urn:mfa", "urn:pwd"])
        #expect(try claims.audience == ["app", "https://api.example.com"])
        // The same token without the trust: refused.
        #expect(throws: JOSEError(.audienceMismatch)) { try Self.validator.verify(token, nonce: "n-123") }
        // No acr in the token: nothing to compare (acr_values is a request, Core §3.1.2.1).
        _ = try Self.validator.verify(Self.token(Self.claims()), nonce: "n-123", acrValues: ["urn:mfa"])
    }

    static let original =
        #"{"iss":"\#(issuer)","aud":"app","sub":"u1","exp":\#(t + 300),"iat":\#(t - 100),"nonce":"n-123","auth_time":\#(t - 100)}"#

    static func refreshed(_ claims: String, key: ECPrivateKey = Keys.ec, kid: String = "ec1") -> String {
        Mint.token(header: #"{"alg":"ES256","kid":"\#(kid)"}"#, payload: claims, signer: .ec(key))
    }

    @Test func refreshedIDTokenContinuesTheOriginal() throws {
        let original = try Self.validator.verify(Self.token(Self.original), nonce: "n-123")
        let access = "refreshed-access"
        let fresh =
            #"{"iss":"\#(Self.issuer)","aud":"app","sub":"u1","exp":\#(Self.t + 300),"iat":\#(Self.t),"auth_time":\#(Self.t - 100),"at_hash":"\#(IDTokenVerifier.halfHash(access, .es256))"}"#
        #expect(
            try Self.validator.verifyRefreshed(Self.refreshed(fresh), original: original, accessToken: access).subject
                == "u1")
        // Echoing the original nonce is allowed (Core §12.2 errata); a later auth_time (re-authentication) too.
        let echoed = fresh.replacingOccurrences(
            of: "\"auth_time\":\(Self.t - 100)", with: "\"auth_time\":\(Self.t - 10),\"nonce\":\"n-123\"")
        _ = try Self.validator.verifyRefreshed(Self.refreshed(echoed), original: original, accessToken: access)
    }

    struct BadRefresh: CustomTestStringConvertible, Sendable {
        let name: String
        let claims: String
        var key: ECPrivateKey = Keys.ec
        let expected: JOSEError.Code
        var testDescription: String { name }
    }

    static let fresh =
        #"{"iss":"\#(issuer)","aud":"app","sub":"u1","exp":\#(t + 300),"iat":\#(t),"auth_time":\#(t - 100)}"#
    static let badRefreshes: [BadRefresh] = [
        BadRefresh(
            name: "another subject", claims: fresh.replacingOccurrences(of: #""sub":"u1""#, with: #""sub":"u2""#),
            expected: .subjectMismatch),
        BadRefresh(
            name: "no subject", claims: fresh.replacingOccurrences(of: #""sub":"u1","#, with: ""),
            expected: .missingClaim),
        BadRefresh(
            name: "another issuer", claims: fresh.replacingOccurrences(of: issuer, with: "https://evil.example.com"),
            expected: .issuerMismatch),
        BadRefresh(name: "signed by another key", claims: fresh, key: try! ECPrivateKey(), expected: .invalidSignature),
        BadRefresh(
            name: "auth_time earlier than the original's",
            claims: fresh.replacingOccurrences(of: "\"auth_time\":\(t - 100)", with: "\"auth_time\":\(t - 200)"),
            expected: .authTimeRegressed),
        BadRefresh(
            name: "an audience added",
            claims: fresh.replacingOccurrences(of: #""aud":"app""#, with: #""aud":["app","api"],"azp":"app""#),
            expected: .audienceMismatch),
        BadRefresh(
            name: "an azp the original did not have",
            claims: fresh.replacingOccurrences(of: #""aud":"app""#, with: #""aud":"app","azp":"app""#),
            expected: .azpMismatch),
        BadRefresh(
            name: "another nonce",
            claims: fresh.replacingOccurrences(of: #""sub":"u1""#, with: #""sub":"u1","nonce":"n-999""#),
            expected: .nonceMismatch),
        BadRefresh(
            name: "expired", claims: fresh.replacingOccurrences(of: "\"exp\":\(t + 300)", with: "\"exp\":\(t - 100)"),
            expected: .expired),
        BadRefresh(
            name: "iat in the future", claims: fresh.replacingOccurrences(of: "\"iat\":\(t)", with: "\"iat\":\(t + 5)"),
            expected: .issuedInFuture),
    ]

    @Test(arguments: badRefreshes)
    func refusesARefreshedIDTokenThatDoesNotContinueTheOriginal(_ bad: BadRefresh) throws {
        let original = try Self.validator.verify(Self.token(Self.original), nonce: "n-123")
        #expect(throws: JOSEError(bad.expected)) {
            try Self.validator.verifyRefreshed(Self.refreshed(bad.claims, key: bad.key), original: original)
        }
    }

    @Test func hs256IDTokensAreNotAcceptedByDefault() {
        let token = Mint.token(
            header: #"{"alg":"HS256"}"#, payload: Self.claims(), signer: .hmac(Keys.hmacSecret, .sha256))
        let validator = IDTokenVerifier(issuer: Self.issuer, clientID: "app", keys: Keys.hmacSet, now: { .fixed })
        #expect(throws: JOSEError(.algorithmNotAllowed)) { try validator.verify(token, nonce: "n-123") }
    }
}

/// Answers after 50 ms, so concurrent callers overlap the fetch.
final class SlowTransport: HTTPTransport {
    let response: HTTPResponse
    let count = Locked(0)
    init(response: HTTPResponse) { self.response = response }
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        count.withLock { $0 += 1 }
        try await Task.sleep(for: .milliseconds(50))
        return response
    }
}
