import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenTestSupport

@testable import WardenJOSE

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
