import Foundation
import Testing
import WardenCore
import WardenTestSupport

@testable import WardenJOSE

/// RFC 7519 §7.3: `iss`, `aud` and `azp` are compared code point by code point; Swift's `==` takes canonically
/// equivalent spellings as equal (U+212A KELVIN SIGN is `K`; `e` + U+0301 is `é`).
@Suite("Identifiers compared by code points")
struct CodePointIdentifierTests {
    static let t = Int(Date.fixed.timeIntervalSince1970)
    static func token(iss: String = "https://id.example.com", aud: String = "Kiosk", azp: String? = nil) -> String {
        let azpMember = azp.map { #","azp":"\#($0)""# } ?? ""
        return Mint.token(
            header: #"{"alg":"ES256","kid":"ec1"}"#,
            payload: #"{"iss":"\#(iss)","aud":"\#(aud)","sub":"u1","exp":\#(t + 300),"iat":\#(t)\#(azpMember)}"#,
            signer: .ec(Keys.ec))
    }
    static let validator = IDTokenVerifier(
        issuer: "https://id.example.com/café", clientID: "Kiosk", keys: Keys.ecSet, now: { .fixed })

    @Test func equivalentSpellingsAreDifferentIdentifiers() {
        #expect("\u{212A}iosk" == "Kiosk" && !CodePoints.equal("\u{212A}iosk", "Kiosk"))
        let precomposed = "https://id.example.com/caf\u{E9}"
        let decomposed = "https://id.example.com/cafe\u{301}"
        #expect(precomposed == decomposed && !CodePoints.equal(precomposed, decomposed))
        #expect(throws: Never.self) {
            try Self.validator.verify(Self.token(iss: precomposed), nonce: nil)
        }
        #expect(throws: JOSEError(.issuerMismatch)) {
            try Self.validator.verify(Self.token(iss: decomposed), nonce: nil)
        }
        #expect(throws: JOSEError(.audienceMismatch)) {
            try Self.validator.verify(Self.token(iss: precomposed, aud: "\u{212A}iosk"), nonce: nil)
        }
        #expect(throws: JOSEError(.azpMismatch)) {
            try Self.validator.verify(Self.token(iss: precomposed, azp: "\u{212A}iosk"), nonce: nil)
        }
        #expect(throws: JOSEError(.audienceMismatch)) {
            try JWTVerifier(
                keys: Keys.ecSet, allowedAlgorithms: [.es256], policy: AllOf { AudiencePolicy("Kiosk") },
                now: { .fixed }
            )
            .verify(Self.token(aud: "\u{212A}iosk"))
        }
        #expect(CodePoints.sameSet(["a", "b"], ["b", "a", "a"]) && !CodePoints.sameSet(["Kiosk"], ["\u{212A}iosk"]))
    }

    /// RFC 7519 §4.1.3: the standard policy without an audience refuses every token (a token minted for any other
    /// service would pass), unless the caller opts out explicitly.
    @Test func theStandardPolicyRequiresAnAudience() {
        let token = Self.token(aud: "another-service")
        #expect(throws: JOSEError(.invalidConfiguration)) {
            try JWTVerifier(
                keys: Keys.ecSet, allowedAlgorithms: [.es256], policy: JWTVerifier.standardPolicy(), now: { .fixed }
            ).verify(token)
        }
        #expect(throws: Never.self) {
            try JWTVerifier(
                keys: Keys.ecSet, allowedAlgorithms: [.es256],
                policy: JWTVerifier.standardPolicy(acceptingAnyAudience: true), now: { .fixed }
            ).verify(token)
        }
        #expect(throws: JOSEError(.audienceMismatch)) {
            try JWTVerifier(
                keys: Keys.ecSet, allowedAlgorithms: [.es256], policy: JWTVerifier.standardPolicy(audience: "app"),
                now: { .fixed }
            ).verify(token)
        }
    }

    /// A token's `kid` selects a key code point for code point: a canonically equivalent `kid` is another key ID,
    /// with one key in the set (the fast path) and with several.
    @Test func aCanonicallyEquivalentKidSelectsNoKey() throws {
        let precomposed = "k\u{E9}"
        let decomposed = "ke\u{301}"
        #expect(precomposed == decomposed, "the premise")
        let one = try JWKSet(keys: [Keys.jwk(Keys.ec.publicKey, kid: precomposed)])
        let two = try JWKSet(keys: [
            Keys.jwk(Keys.ec.publicKey, kid: precomposed), Keys.jwk(Keys.ec384.publicKey, kid: "other"),
        ])
        for set in [one, two] {
            #expect(throws: Never.self) { _ = try set.key(for: .es256, keyID: precomposed) }
            #expect(throws: JOSEError(.unknownKid)) { _ = try set.key(for: .es256, keyID: decomposed) }
            #expect(throws: JOSEError(.unknownKid)) { _ = try set.key(for: .es256, keyID: "\u{212A}") }
        }
    }

    /// The documented decision: `aud` naming the client twice is several audiences, refused without `azp`.
    @Test func anAudienceArrayNamingTheClientTwiceNeedsAzp() {
        let validator = IDTokenVerifier(
            issuer: "https://id.example.com", clientID: "app", keys: Keys.ecSet, now: { .fixed })
        func token(_ extra: String) -> String {
            Mint.token(
                header: #"{"alg":"ES256","kid":"ec1"}"#,
                payload:
                    #"{"iss":"https://id.example.com","aud":["app","app"],"sub":"u1","exp":\#(Self.t + 300),"iat":\#(Self.t)\#(extra)}"#,
                signer: .ec(Keys.ec))
        }
        #expect(throws: JOSEError(.azpMismatch)) { try validator.verify(token(""), nonce: nil) }
        #expect(throws: Never.self) { try validator.verify(token(#","azp":"app""#), nonce: nil) }
    }
}
