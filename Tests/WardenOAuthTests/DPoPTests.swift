import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenJOSE

@_spi(Fuzzing) @testable import WardenOAuth

/// DPoP (RFC 9449): the RFC's own example proof, thumbprint and `ath`; proofs Warden makes; and every refusal of
/// the server-side verifier, each fed the bad input.
@Suite("DPoP proofs")
struct DPoPTests {
    // RFC 9449 §4.1 Figure 2 (the proof), §6.1 / Figure 9 (its key's jkt), §7.1 Figure 12 (ath).
    static let rfcProof =
        "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"
    static let rfcJKT = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
    static let rfcTime = Date(timeIntervalSince1970: 1_562_262_616)
    static let token = URL(string: "https://server.example.com/token")!

    static func verifier(now: Date = rfcTime, cache: InMemoryDPoPReplayCache = InMemoryDPoPReplayCache())
        -> DPoPVerifier
    {
        DPoPVerifier(replayCache: cache, now: { now })
    }

    @Test func theRFCExampleProofVerifies() async throws {
        let proof = try await Self.verifier().verify(Self.rfcProof, method: "POST", url: Self.token)
        #expect(proof.thumbprint == Self.rfcJKT)
        #expect(proof.jti == "-BwC3ESc6acc2lTc")
        // Normalisation: case, the default port, a query and a fragment do not matter.
        _ = try await Self.verifier().verify(
            Self.rfcProof, method: "post", url: URL(string: "HTTPS://Server.Example.COM:443/token?x=1#f")!)
    }

    /// The attack of a small-order key: with the identity point as `jwk`, the signature (R = identity, S = 0) verifies
    /// for every message, so a "proof" needs no private key at all. The key is refused before any signature check.
    @Test func aSmallOrderEd25519KeyCannotForgeAProof() async {
        let identity = [UInt8(1)] + [UInt8](repeating: 0, count: 31)
        let header =
            #"{"typ":"dpop+jwt","alg":"EdDSA","jwk":{"kty":"OKP","crv":"Ed25519","x":"\#(Base64URL.encode(identity))"}}"#
        let payload = #"{"jti":"forged-1","htm":"POST","htu":"https://server.example.com/token","iat":1562262616}"#
        let forged =
            Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "."
            + Base64URL.encode(identity + [UInt8](repeating: 0, count: 32))
        let error = await #expect(throws: DPoPError.self) {
            _ = try await Self.verifier().verify(forged, method: "POST", url: Self.token)
        }
        #expect(error?.code == .badKey && error?.reason.contains("small order") == true, "\(String(describing: error))")
    }

    /// A proof whose `jwk` the sender sized to be expensive: RSA over 4096 bits, or an exponent other than 65537, is
    /// refused before any signature check (the signature here is junk: it is never looked at).
    @Test(arguments: [
        (Base64URL.encode([0xC1] + [UInt8](repeating: 0xFF, count: 1023)), "AQAB", "8192 bits"),
        (
            Base64URL.encode([0xC1] + [UInt8](repeating: 0xFF, count: 255)),
            Base64URL.encode([UInt8](repeating: 0xFF, count: 8)), "exponent"
        ),
        (Base64URL.encode([0xC1] + [UInt8](repeating: 0xFF, count: 255)), "Aw", "exponent"),
    ])
    func anExpensiveRSAKeyIsRefusedUnverified(n: String, e: String, reason: String) async {
        let header = #"{"typ":"dpop+jwt","alg":"RS256","jwk":{"kty":"RSA","n":"\#(n)","e":"\#(e)"}}"#
        let payload = #"{"jti":"big-1","htm":"POST","htu":"https://server.example.com/token","iat":1562262616}"#
        let proof =
            Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "."
            + Base64URL.encode([UInt8](repeating: 7, count: 256))
        let error = await #expect(throws: DPoPError.self) {
            _ = try await Self.verifier().verify(proof, method: "POST", url: Self.token)
        }
        #expect(error?.code == .badKey && error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    /// The claims that cost nothing are checked before the signature: a proof for another method or URL, or from
    /// outside the time window, is refused as such even with a signature that would not verify.
    @Test func freeClaimsAreCheckedBeforeTheSignature() async throws {
        let parts = Self.rfcProof.split(separator: ".").map(String.init)
        let junk = parts[0] + "." + parts[1] + "." + Base64URL.encode([UInt8](repeating: 1, count: 64))
        await #expect(throws: DPoPError(.methodMismatch)) {
            _ = try await Self.verifier().verify(junk, method: "GET", url: Self.token)
        }
        await #expect(throws: DPoPError(.iatOutOfWindow)) {
            _ = try await Self.verifier(now: Self.rfcTime.addingTimeInterval(3600)).verify(
                junk, method: "POST", url: Self.token)
        }
        await #expect(throws: DPoPError(.invalidSignature)) {
            _ = try await Self.verifier().verify(junk, method: "POST", url: Self.token)
        }
    }

    /// A proof's `jwk` that says it is not for signing (`use`, `key_ops`) or names another `alg` than the proof is
    /// refused, though the signature itself verifies.
    @Test(arguments: [#","use":"enc""#, #","key_ops":["encrypt"]"#, #","alg":"ES384""#])
    func aJWKThatContradictsSigningIsRefused(member: String) async throws {
        let key = try ECPrivateKey()
        let json = try #require(try JWK(publicKey: key.publicKey, keyID: nil, algorithm: nil).publicJSON)
            .replacingOccurrences(of: #","use":"sig""#, with: "")
        let jwk = String(json.dropLast()) + member + "}"
        let header = #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(jwk)}"#
        let payload = #"{"jti":"c-1","htm":"POST","htu":"https://server.example.com/token","iat":1562262616}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        let proof = input + "." + Base64URL.encode(try key.signature(for: Array(input.utf8)))
        await #expect(throws: DPoPError(.badKey)) {
            _ = try await Self.verifier().verify(proof, method: "POST", url: Self.token)
        }
        // The same key without the member verifies: the refusal is the member's.
        let plainHeader = #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(json)}"#
        let plainInput = Base64URL.encode(Array(plainHeader.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        let plain = plainInput + "." + Base64URL.encode(try key.signature(for: Array(plainInput.utf8)))
        _ = try await Self.verifier().verify(plain, method: "POST", url: Self.token)
    }

    @Test func theRFCAccessTokenHash() {
        #expect(
            DPoPProofFactory.ath("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")
                == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
    }

    @Test func wardensProofsVerifyAndCannotBeReplayed() async throws {
        let key = try SoftwareDPoPKey()
        let now = Date()
        let factory = DPoPProofFactory(key: key, now: { now })
        let api = URL(string: "https://api.example.com/me")!
        let proof = try factory.proof(method: "GET", url: api, accessToken: "at-123", nonce: "n-1")
        let verifier = Self.verifier(now: now)
        let verified = try await verifier.verify(
            proof, method: "GET", url: api, expectedNonce: "n-1", accessToken: "at-123",
            boundThumbprint: key.thumbprint)
        #expect(verified.thumbprint == key.thumbprint && verified.nonce == "n-1")
        await #expect(throws: DPoPError(.replayed)) {
            try await verifier.verify(proof, method: "GET", url: api, expectedNonce: "n-1", accessToken: "at-123")
        }
        // The header carries only public members, and the jti has 128 bits.
        let (header, payload) = try JWSCompact.decodeUnverified(proof)
        #expect(header["jwk"]?.objectValue?.names.sorted() == ["crv", "kty", "x", "y"])
        #expect(try Base64URL.decode(payload?.objectValue?["jti"]?.stringValue ?? "").count == 16)
    }

    /// A proof with any header and claims, signed by `key` (for the refusal cases).
    static func forge(header: String, claims: String, key: ECPrivateKey) throws -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        return input + "." + Base64URL.encode(try key.signature(for: Array(input.utf8)))
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        let name: String
        let code: DPoPError.Code
        let make: @Sendable (_ key: ECPrivateKey, _ jwk: String, _ iat: Int) throws -> String
        var method = "GET"
        var nonce: String?
        var accessToken: String?
        var bound: String?
        var testDescription: String { name }
    }

    static let url = URL(string: "https://api.example.com/me")!
    static func claims(_ iat: Int, _ extra: String = "") -> String {
        #"{"jti":"j-\#(UUID().uuidString)","htm":"GET","htu":"https://api.example.com/me","iat":\#(iat)\#(extra)}"#
    }
    static func header(_ jwk: String, typ: String = "dpop+jwt", alg: String = "ES256") -> String {
        #"{"typ":"\#(typ)","alg":"\#(alg)","jwk":\#(jwk)}"#
    }

    static let refusals: [Refusal] = [
        Refusal(name: "not a JWS", code: .malformed) { _, _, _ in "not.a-proof" },
        Refusal(name: "over 8 KiB", code: .malformed) { key, jwk, iat in
            try forge(
                header: header(jwk), claims: claims(iat, #","pad":"\#(String(repeating: "x", count: 9000))""#), key: key
            )
        },
        Refusal(name: "typ JWT", code: .wrongType) { key, jwk, iat in
            try forge(header: header(jwk, typ: "JWT"), claims: claims(iat), key: key)
        },
        Refusal(name: "alg none", code: .algorithmNotAllowed) { _, jwk, iat in
            Base64URL.encode(Array(header(jwk, alg: "none").utf8)) + "." + Base64URL.encode(Array(claims(iat).utf8))
                + "."
        },
        Refusal(name: "alg HS256", code: .algorithmNotAllowed) { key, jwk, iat in
            try forge(header: header(jwk, alg: "HS256"), claims: claims(iat), key: key)
        },
        Refusal(name: "no jwk", code: .badKey) { key, _, iat in
            try forge(header: #"{"typ":"dpop+jwt","alg":"ES256"}"#, claims: claims(iat), key: key)
        },
        Refusal(name: "private jwk", code: .privateKey) { key, jwk, iat in
            try forge(header: header(String(jwk.dropLast()) + #","d":"AAAA"}"#), claims: claims(iat), key: key)
        },
        Refusal(name: "jwk does not fit alg", code: .badKey) { key, jwk, iat in
            try forge(header: header(jwk, alg: "RS256"), claims: claims(iat), key: key)
        },
        Refusal(name: "signed by another key", code: .invalidSignature) { _, jwk, iat in
            try forge(header: header(jwk), claims: claims(iat), key: try ECPrivateKey())
        },
        Refusal(
            name: "htm mismatch", code: .methodMismatch,
            make: { key, jwk, iat in
                try forge(header: header(jwk), claims: claims(iat), key: key)
            }, method: "POST"),
        Refusal(name: "htu of another host", code: .urlMismatch) { key, jwk, iat in
            try forge(
                header: header(jwk),
                claims: #"{"jti":"j","htm":"GET","htu":"https://api.example.net/me","iat":\#(iat)}"#, key: key)
        },
        Refusal(name: "no jti", code: .missingClaim) { key, jwk, iat in
            try forge(
                header: header(jwk), claims: #"{"htm":"GET","htu":"https://api.example.com/me","iat":\#(iat)}"#,
                key: key)
        },
        Refusal(name: "no iat", code: .missingClaim) { key, jwk, _ in
            try forge(
                header: header(jwk), claims: #"{"jti":"j","htm":"GET","htu":"https://api.example.com/me"}"#, key: key)
        },
        Refusal(name: "iat in the future", code: .iatOutOfWindow) { key, jwk, iat in
            try forge(header: header(jwk), claims: claims(iat + 60), key: key)
        },
        Refusal(name: "iat too old", code: .iatOutOfWindow) { key, jwk, iat in
            try forge(header: header(jwk), claims: claims(iat - 301), key: key)
        },
        Refusal(
            name: "nonce missing", code: .nonceRequired,
            make: { key, jwk, iat in
                try forge(header: header(jwk), claims: claims(iat), key: key)
            }, nonce: "server-nonce"),
        Refusal(
            name: "nonce wrong", code: .nonceMismatch,
            make: { key, jwk, iat in
                try forge(header: header(jwk), claims: claims(iat, #","nonce":"old""#), key: key)
            }, nonce: "server-nonce"),
        Refusal(
            name: "ath missing", code: .athMismatch,
            make: { key, jwk, iat in
                try forge(header: header(jwk), claims: claims(iat), key: key)
            }, accessToken: "at-1"),
        Refusal(
            name: "ath of another token", code: .athMismatch,
            make: { key, jwk, iat in
                try forge(
                    header: header(jwk), claims: claims(iat, #","ath":"\#(DPoPProofFactory.ath("at-2"))""#), key: key)
            }, accessToken: "at-1"),
        Refusal(
            name: "token bound to another key", code: .keyMismatch,
            make: { key, jwk, iat in
                try forge(header: header(jwk), claims: claims(iat), key: key)
            }, bound: rfcJKT),
    ]

    @Test(arguments: refusals)
    func everyRefusal(_ refusal: Refusal) async throws {
        let key = try ECPrivateKey()
        let jwk = try #require(try JWK(publicKey: key.publicKey, keyID: nil, algorithm: nil).publicJSON)
        let now = Date()
        let proof = try refusal.make(key, jwk, Int(now.timeIntervalSince1970))
        let cache = InMemoryDPoPReplayCache()
        let error = await #expect(throws: DPoPError.self) {
            try await Self.verifier(now: now, cache: cache).verify(
                proof, method: refusal.method, url: Self.url, expectedNonce: refusal.nonce,
                accessToken: refusal.accessToken, boundThumbprint: refusal.bound)
        }
        #expect(error?.code == refusal.code, "\(refusal.name): \(error?.reason ?? "")")
        #expect(await cache.count == 0, "a refused proof never consumes its jti")
    }

    @Test func theReplayCacheIsBoundedAndNeverForgetsLiveEntries() async {
        let cache = InMemoryDPoPReplayCache(capacity: 2)
        let now = Date()
        #expect(await cache.insert("a", thumbprint: "k", expires: now + 10, now: now))
        #expect(await cache.insert("b", thumbprint: "k", expires: now + 10, now: now))
        #expect(await !cache.insert("c", thumbprint: "k", expires: now + 10, now: now), "full of live entries")
        #expect(await !cache.insert("a", thumbprint: "k", expires: now + 10, now: now + 5), "still live: replay")
        #expect(await cache.insert("c", thumbprint: "k", expires: now + 30, now: now + 11), "expired ones make room")
        #expect(await cache.insert("a", thumbprint: "k", expires: now + 30, now: now + 11), "after expiry")
    }

    /// Issue 32 item 6: one key's valid proofs (an attacker's own key: DPoP keys cost nothing) fill only that key's
    /// share. Its acceptance window shrinks — it can never replay an evicted proof — and every other client goes on.
    @Test func aFloodFromOneKeyDegradesOnlyThatKey() async throws {
        let cache = InMemoryDPoPReplayCache(capacity: 200, perKeyCapacity: 50)
        let now = Date()
        let verifier = Self.verifier(now: now, cache: cache)
        let attacker = try SoftwareDPoPKey()
        let attackerProofs = try (0..<120).map { _ in
            try DPoPProofFactory(key: attacker, now: { now }).proof(method: "GET", url: Self.url)
        }
        var accepted = 0
        for proof in attackerProofs {
            if (try? await verifier.verify(proof, method: "GET", url: Self.url)) != nil { accepted += 1 }
        }
        #expect(accepted == 50, "the key's own quota, no more")
        #expect(await cache.count(forKey: attacker.thumbprint) == 50)
        // None of its proofs can be replayed, the forgotten ones included.
        for proof in attackerProofs {
            await #expect(throws: DPoPError(.replayed)) {
                try await verifier.verify(proof, method: "GET", url: Self.url)
            }
        }
        // Another client is not affected.
        let client = try SoftwareDPoPKey()
        let proof = try DPoPProofFactory(key: client, now: { now }).proof(method: "GET", url: Self.url)
        _ = try await verifier.verify(proof, method: "GET", url: Self.url)
        await #expect(throws: DPoPError(.replayed)) { try await verifier.verify(proof, method: "GET", url: Self.url) }
        // The flooding key gets in again with newer proofs: its window shrank, it did not close.
        let later = now + 1
        let fresh = try DPoPProofFactory(key: attacker, now: { later }).proof(method: "GET", url: Self.url)
        let laterVerifier = Self.verifier(now: later, cache: cache)
        _ = try await laterVerifier.verify(fresh, method: "GET", url: Self.url)
        #expect(await cache.count(forKey: attacker.thumbprint) == 50, "the fresh proof took its oldest entry's place")
        // ...and the proof it forgot still cannot be replayed (the key's horizon moved past it).
        for proof in attackerProofs {
            await #expect(throws: DPoPError(.replayed)) {
                try await laterVerifier.verify(proof, method: "GET", url: Self.url)
            }
        }
    }

    /// Many keys together fill the whole cache: the room is taken from the key holding the most entries, so a client
    /// under its fair share keeps its entries (its proofs stay unreplayable) and gets new proofs in.
    @Test func aFullCacheTakesRoomFromTheBusiestKey() async throws {
        let cache = InMemoryDPoPReplayCache(capacity: 100, perKeyCapacity: 40)
        let now = Date()
        let verifier = Self.verifier(now: now, cache: cache)
        let client = try SoftwareDPoPKey()
        let early = try DPoPProofFactory(key: client, now: { now - 60 }).proof(method: "GET", url: Self.url)
        _ = try await verifier.verify(early, method: "GET", url: Self.url)
        for _ in 0..<8 {
            let key = try SoftwareDPoPKey()
            let factory = DPoPProofFactory(key: key, now: { now })
            for _ in 0..<30 {
                _ = try? await verifier.verify(
                    try factory.proof(method: "GET", url: Self.url), method: "GET", url: Self.url)
            }
        }
        #expect(await cache.count == 100, "the flood filled the cache")
        #expect(await cache.count(forKey: client.thumbprint) == 1, "the quiet client's entry was never evicted")
        await #expect(throws: DPoPError(.replayed)) { try await verifier.verify(early, method: "GET", url: Self.url) }
        let next = try DPoPProofFactory(key: client, now: { now }).proof(method: "GET", url: Self.url)
        _ = try await verifier.verify(next, method: "GET", url: Self.url)
    }

    /// Entries live for the proof's acceptance window (iat + maxAge + leeway) and no longer.
    @Test func entriesExpireWithTheAcceptanceWindow() async throws {
        let cache = InMemoryDPoPReplayCache(capacity: 3, perKeyCapacity: 3)
        let now = Date()
        let key = try SoftwareDPoPKey()
        for _ in 0..<3 {
            let proof = try DPoPProofFactory(key: key, now: { now }).proof(method: "GET", url: Self.url)
            _ = try await Self.verifier(now: now, cache: cache).verify(proof, method: "GET", url: Self.url)
        }
        #expect(await cache.count == 3)
        // 305 s later (maxAge 300 + leeway 5) the three are gone: a new proof from another key finds room at once.
        let later = now + 306
        let other = try SoftwareDPoPKey()
        let proof = try DPoPProofFactory(key: other, now: { later }).proof(method: "GET", url: Self.url)
        _ = try await Self.verifier(now: later, cache: cache).verify(proof, method: "GET", url: Self.url)
        #expect(await cache.count == 1)
        #expect(await cache.count(forKey: key.thumbprint) == 0)
    }

    /// A replay cache that cannot answer (a remote store down) refuses the proof with a transient, typed error.
    @Test func anUnavailableReplayCacheRefusesTheProof() async throws {
        struct Unreachable: DPoPReplayCache {
            struct Down: Error {}
            func insert(_ jti: String, thumbprint: String, expires: Date, now: Date) async throws -> Bool {
                throw Down()
            }
        }
        let key = try SoftwareDPoPKey()
        let now = Date()
        let proof = try DPoPProofFactory(key: key, now: { now }).proof(method: "GET", url: Self.url)
        let error = await #expect(throws: DPoPError.self) {
            try await DPoPVerifier(replayCache: Unreachable(), now: { now }).verify(proof, method: "GET", url: Self.url)
        }
        #expect(error?.code == .replayCacheUnavailable && error?.failureKind == .transient)
    }

    @Test(arguments: [
        ("HTTPS://Server.Example.COM:443/token?x=1#f", "https://server.example.com/token"),
        ("http://127.0.0.1:80/cb", "http://127.0.0.1/cb"), ("https://a.example:8443/p", "https://a.example:8443/p"),
        ("https://a.example", "https://a.example/"),
    ])
    func htuNormalisation(_ pair: (String, String)) {
        #expect(DPoPURL.normalize(pair.0) == pair.1)
    }
}
