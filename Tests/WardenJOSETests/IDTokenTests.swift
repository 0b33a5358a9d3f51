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

    static let validator = IDTokenValidator(issuer: issuer, clientID: "app", keys: Keys.ecSet, now: { .fixed })

    static func claims(_ extra: String = "") -> String {
        #"{"iss":"\#(issuer)","aud":"app","sub":"u1","exp":\#(t + 300),"iat":\#(t),"nonce":"n-123"\#(extra)}"#
    }

    @Test func validToken() throws {
        let accessToken = "access-token-value"
        let atHash = IDTokenValidator.halfHash(accessToken, .es256)
        let claims = try Self.validator.validate(
            Self.token(Self.claims(#","at_hash":"\#(atHash)""#)), nonce: "n-123", accessToken: accessToken)
        #expect(try claims.subject == "u1")
    }

    /// OIDC Core's at_hash example value (§A.3/§A.4 use the same access token): "77QmUPtjPfzWtF2AnpK9RQ".
    @Test func atHashSpecExample() {
        #expect(
            IDTokenValidator.halfHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y", .rs256) == "77QmUPtjPfzWtF2AnpK9RQ"
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
            try Self.validator.validate(
                Self.token(bad.claims), nonce: bad.nonce, accessToken: bad.accessToken, authorizationCode: bad.code,
                maxAge: bad.maxAge, acrValues: bad.acrValues)
        }
    }

    @Test func trustedAudiencesAndRequestedACRAreAccepted() throws {
        let token = Self.token(
            Self.claims(#","azp":"app","acr":"urn:mfa""#).replacingOccurrences(
                of: #""aud":"app""#, with: #""aud":["app","https://api.example.com"]"#))
        let validator = IDTokenValidator(
            issuer: Self.issuer, clientID: "app", keys: Keys.ecSet, trustedAudiences: ["https://api.example.com"],
            now: { .fixed })
        let claims = try validator.validate(token, nonce: "n-123", acrValues: ["urn:mfa", "urn:pwd"])
        #expect(try claims.audience == ["app", "https://api.example.com"])
        // The same token without the trust: refused.
        #expect(throws: JOSEError(.audienceMismatch)) { try Self.validator.validate(token, nonce: "n-123") }
        // No acr in the token: nothing to compare (acr_values is a request, Core §3.1.2.1).
        _ = try Self.validator.validate(Self.token(Self.claims()), nonce: "n-123", acrValues: ["urn:mfa"])
    }

    static let original =
        #"{"iss":"\#(issuer)","aud":"app","sub":"u1","exp":\#(t + 300),"iat":\#(t - 100),"nonce":"n-123","auth_time":\#(t - 100)}"#

    static func refreshed(_ claims: String, key: ECPrivateKey = Keys.ec, kid: String = "ec1") -> String {
        Mint.token(header: #"{"alg":"ES256","kid":"\#(kid)"}"#, payload: claims, signer: .ec(key))
    }

    @Test func refreshedIDTokenContinuesTheOriginal() throws {
        let original = try Self.validator.validate(Self.token(Self.original), nonce: "n-123")
        let access = "refreshed-access"
        let fresh =
            #"{"iss":"\#(Self.issuer)","aud":"app","sub":"u1","exp":\#(Self.t + 300),"iat":\#(Self.t),"auth_time":\#(Self.t - 100),"at_hash":"\#(IDTokenValidator.halfHash(access, .es256))"}"#
        #expect(
            try Self.validator.validateRefreshed(Self.refreshed(fresh), original: original, accessToken: access).subject
                == "u1")
        // Echoing the original nonce is allowed (Core §12.2 errata); a later auth_time (re-authentication) too.
        let echoed = fresh.replacingOccurrences(
            of: "\"auth_time\":\(Self.t - 100)", with: "\"auth_time\":\(Self.t - 10),\"nonce\":\"n-123\"")
        _ = try Self.validator.validateRefreshed(Self.refreshed(echoed), original: original, accessToken: access)
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
        let original = try Self.validator.validate(Self.token(Self.original), nonce: "n-123")
        #expect(throws: JOSEError(bad.expected)) {
            try Self.validator.validateRefreshed(Self.refreshed(bad.claims, key: bad.key), original: original)
        }
    }

    @Test func hs256IDTokensAreNotAcceptedByDefault() {
        let token = Mint.token(
            header: #"{"alg":"HS256"}"#, payload: Self.claims(), signer: .hmac(Keys.hmacSecret, .sha256))
        let validator = IDTokenValidator(issuer: Self.issuer, clientID: "app", keys: Keys.hmacSet, now: { .fixed })
        #expect(throws: JOSEError(.algorithmNotAllowed)) { try validator.validate(token, nonce: "n-123") }
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

@Suite("JWKS cache")
struct JWKSCacheTests {
    static func jwks(_ keys: [JWK]) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: ["Cache-Control": "public, max-age=600"],
            body: Data(#"{"keys":[\#(keys.map { $0.publicJSON! }.joined(separator: ","))]}"#.utf8))
    }

    @Test func cachesRefetchesOnUnknownKidAtMostOncePerMinuteAndKeepsLastGood() async throws {
        let clock = Locked(Date.fixed)
        let oldKey = Keys.jwk(Keys.ec.publicKey, kid: "old")
        let rotated = try ECPrivateKey()
        let transport = RecordingTransport(script: [
            .success(Self.jwks([oldKey])), .success(Self.jwks([oldKey, Keys.jwk(rotated.publicKey, kid: "new")])),
            .failure(TransportError(.timedOut)),
        ])
        let cache = JWKSCache(
            url: URL(string: "https://id.example.com/jwks")!, transport: transport, now: { clock.current })
        let verify: @Sendable (JWKSet) throws(JOSEError) -> [UInt8] = { keys throws(JOSEError) in
            try JWSVerifier(keys: keys, allowedAlgorithms: [.es256]).verify(
                Mint.token(header: #"{"alg":"ES256","kid":"new"}"#, payload: "{}", signer: .ec(rotated))
            ).payload
        }
        _ = try await cache.keySet()
        _ = try await cache.keySet()
        #expect(transport.count == 1, "served from cache")
        // The first unknown kid refetches at once (a rotation), and verifies with the new set.
        #expect(try await cache.verify("", verify) == Array("{}".utf8))
        #expect(transport.count == 2, "one refetch for the unknown kid")
        // Another unknown kid within a minute of that refetch: no request, fails closed.
        let forged: @Sendable (JWKSet) throws(JOSEError) -> [UInt8] = { keys throws(JOSEError) in
            try JWSVerifier(keys: keys, allowedAlgorithms: [.es256]).verify(
                Mint.token(header: #"{"alg":"ES256","kid":"forged"}"#, payload: "{}", signer: .ec(rotated))
            ).payload
        }
        await #expect(throws: JOSEError(.unknownKid)) { try await cache.verify("", forged) }
        #expect(transport.count == 2, "rate-limited: at most one forced refetch a minute")
        clock.withLock { $0 += 61 }
        // After max-age the set is refreshed; the refresh fails and the last good set is served.
        clock.withLock { $0 += 601 }
        #expect(try await cache.keySet().keys.count == 2)
        #expect(transport.count == 3)
        // A minute later a forged kid may refetch once more (the network fails; the last good set stays).
        await #expect(throws: JOSEError(.unknownKid)) { try await cache.verify("", forged) }
        #expect(transport.count == 4)
    }

    @Test func concurrentVerificationsOnAColdCacheShareOneFetch() async throws {
        let transport = SlowTransport(response: Self.jwks([Keys.jwk(Keys.ec.publicKey, kid: "ec1")]))
        let cache = JWKSCache(url: URL(string: "https://id.example.com/jwks")!, transport: transport)
        let token = Mint.token(header: #"{"alg":"ES256","kid":"ec1"}"#, payload: "{}", signer: .ec(Keys.ec))
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await cache.verify(token) { keys throws(JOSEError) -> Int in
                        try JWSVerifier(keys: keys, allowedAlgorithms: [.es256]).verify(token).payload.count
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.count == 20)
        #expect(transport.count.current == 1, "one fetch for twenty concurrent tokens")
    }

    @Test func failsWithoutAnyGoodSet() async {
        let transport = RecordingTransport(script: [.success(HTTPResponse(status: 500))])
        let cache = JWKSCache(url: URL(string: "https://id.example.com/jwks")!, transport: transport)
        await #expect(throws: JOSEError(.keySetUnavailable)) { try await cache.keySet() }
        let garbage = RecordingTransport(script: [.success(HTTPResponse(status: 200, body: Data("<html>".utf8)))])
        await #expect(throws: JOSEError(.keySetUnavailable)) {
            try await JWKSCache(url: URL(string: "https://id.example.com/jwks")!, transport: garbage).keySet()
        }
    }

    /// An endpoint that is down is not asked again at every token: with no set at all, a failure is answered from
    /// memory for 1 s, then 2 s, doubling up to the refetch interval; the first success ends it.
    @Test func aFailingEndpointIsNotHammered() async throws {
        let clock = Locked(Date.fixed)
        let good = Self.jwks([Keys.jwk(Keys.ec.publicKey, kid: "ec1")])
        let transport = RecordingTransport(script: [
            .failure(TransportError(.cannotConnect)), .failure(TransportError(.cannotConnect)), .success(good),
        ])
        let cache = JWKSCache(
            url: URL(string: "https://id.example.com/jwks")!, transport: transport, now: { clock.current })
        for _ in 0..<5 { await #expect(throws: JOSEError(.keySetUnavailable)) { try await cache.keySet() } }
        #expect(transport.count == 1, "one request, then the failure from memory")
        clock.withLock { $0 += 1 }
        await #expect(throws: JOSEError(.keySetUnavailable)) { try await cache.keySet() }
        #expect(transport.count == 2)
        clock.withLock { $0 += 1 }
        await #expect(throws: JOSEError(.keySetUnavailable)) { try await cache.keySet() }
        #expect(transport.count == 2, "the backoff doubled to 2 s")
        clock.withLock { $0 += 1 }
        #expect(try await cache.keySet().keys.count == 1)
        #expect(transport.count == 3)
    }

    /// `max-age` is delta-seconds: "nan", "inf", "-1" or "1e9" are not, and keep the default (NaN would never compare,
    /// so every call would refetch).
    @Test(arguments: ["max-age=nan", "max-age=inf", "max-age=-1", "max-age=1e9", "max-age="])
    func aMalformedMaxAgeKeepsTheDefault(_ header: String) async throws {
        let clock = Locked(Date.fixed)
        let body = Self.jwks([Keys.jwk(Keys.ec.publicKey, kid: "ec1")]).body
        let transport = RecordingTransport(script: [
            .success(HTTPResponse(status: 200, headers: ["Cache-Control": header], body: body)),
            .success(HTTPResponse(status: 200, body: body)),
        ])
        let cache = JWKSCache(
            url: URL(string: "https://id.example.com/jwks")!, transport: transport, now: { clock.current })
        _ = try await cache.keySet()
        clock.withLock { $0 += 3599 }
        _ = try await cache.keySet()
        #expect(transport.count == 1, "cached for the default hour")
        clock.withLock { $0 += 2 }
        _ = try await cache.keySet()
        #expect(transport.count == 2)
    }

    @Test func jwksSetRules() throws {
        #expect(throws: JOSEError(.privateKeyInSet)) {
            try JWKSet(
                json:
                    #"{"keys":[{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}]}"#
            )
        }
        let mixed =
            #"{"keys":[{"kty":"oct","k":"\#(Base64URL.encode(Keys.hmacSecret))"},\#(Keys.jwk(Keys.ec.publicKey).publicJSON!)]}"#
        #expect(throws: JOSEError(.mixedKeySet)) { try JWKSet(json: mixed) }
        let set = try JWKSet(
            json:
                #"{"keys":[{"kty":"foo"},{"kty":"EC","crv":"P-256","x":"AA","y":"AA"},"x",\#(Keys.jwk(Keys.ec.publicKey).publicJSON!)]}"#
        )
        #expect(set.keys.count == 1)
        #expect(set.skipped.map(\.index) == [0, 1, 2])
        #expect(throws: JOSEError(.invalidKey)) { try JWKSet(json: #"{"nokeys":[]}"#) }
    }
}
