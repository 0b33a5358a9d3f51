import Foundation
import Testing
import WardenCrypto
import WardenTestSupport

@testable import WardenJOSE

/// Tokens an attacker would send. Each must be rejected with the stated code.
@Suite("Attack corpus")
struct AttackCorpusTests {
    struct Attack: CustomTestStringConvertible, Sendable {
        let name: String
        let token: @Sendable () -> String
        let keys: @Sendable () -> JWKSet
        let algorithms: Set<JWSAlgorithm>
        let expected: JOSEError.Code
        var testDescription: String { name }
    }

    static let now = Date.fixed
    static let t = Int(now.timeIntervalSince1970)
    static let goodClaims =
        #"{"iss":"https://id.example.com","aud":"app","exp":\#(t + 300),"iat":\#(t - 10),"sub":"u1"}"#

    static func ec(_ header: String, _ payload: String = goodClaims) -> String {
        Mint.token(header: header, payload: payload, signer: .ec(Keys.ec))
    }

    static func attack(
        _ name: String, _ expected: JOSEError.Code, algorithms: Set<JWSAlgorithm> = [.es256],
        keys: @escaping @Sendable () -> JWKSet = { Keys.ecSet }, _ token: @escaping @Sendable () -> String
    ) -> Attack {
        Attack(name: name, token: token, keys: keys, algorithms: algorithms, expected: expected)
    }

    static let rsaPublicPEMBytes: [UInt8] = {
        let der = Keys.rsa.publicKey.spkiDER
        let pem =
            "-----BEGIN PUBLIC KEY-----\n" + Data(der).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END PUBLIC KEY-----\n"
        return Array(pem.utf8)
    }()

    static let attacks: [Attack] = [
        // alg none, every casing
        attack("alg none", .algNone) { Mint.token(header: #"{"alg":"none"}"#, payload: goodClaims, signer: .raw([])) },
        attack("alg None", .algNone) { Mint.token(header: #"{"alg":"None"}"#, payload: goodClaims, signer: .raw([])) },
        attack("alg NONE", .algNone) { Mint.token(header: #"{"alg":"NONE"}"#, payload: goodClaims, signer: .raw([])) },
        attack("alg nOnE with a signature", .algNone) {
            Mint.token(header: #"{"alg":"nOnE"}"#, payload: goodClaims, signer: .raw([1, 2, 3]))
        },
        attack("alg none, empty signature segment", .algNone) {
            Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array(goodClaims.utf8)) + "."
        },
        // algorithm confusion
        attack(
            "HS256 signed with the RSA public key PEM as secret", .algorithmNotAllowed, algorithms: [.rs256],
            keys: { Keys.rsaSet }
        ) {
            Mint.token(
                header: #"{"alg":"HS256","kid":"rsa1"}"#, payload: goodClaims, signer: .hmac(rsaPublicPEMBytes, .sha256)
            )
        },
        attack(
            "HS256 with the RSA key, HS256 allowed", .keyAlgorithmMismatch, algorithms: [.rs256, .hs256],
            keys: { Keys.rsaSet }
        ) {
            Mint.token(
                header: #"{"alg":"HS256","kid":"rsa1"}"#, payload: goodClaims, signer: .hmac(rsaPublicPEMBytes, .sha256)
            )
        },
        attack(
            "HS256 with the RSA key DER as secret, no kid", .keyAlgorithmMismatch, algorithms: [.rs256, .hs256],
            keys: { Keys.rsaSet }
        ) {
            Mint.token(
                header: #"{"alg":"HS256"}"#, payload: goodClaims, signer: .hmac(Keys.rsa.publicKey.spkiDER, .sha256))
        },
        attack("RS256 header on an EC key", .keyAlgorithmMismatch, algorithms: [.rs256, .es256]) {
            ec(#"{"alg":"RS256","kid":"ec1"}"#)
        },
        attack("ES384 header on a P-256 key", .keyAlgorithmMismatch, algorithms: [.es256, .es384]) {
            ec(#"{"alg":"ES384","kid":"ec1"}"#)
        },
        attack("PS256 token, only RS256 allowed", .algorithmNotAllowed, algorithms: [.rs256], keys: { Keys.rsaSet }) {
            Mint.token(
                header: #"{"alg":"PS256","kid":"rsa1"}"#, payload: goodClaims,
                signer: .rsa(Keys.rsa, pss: true, .sha256))
        },
        attack(
            "EdDSA token, key's own alg is ES256", .keyAlgorithmMismatch, algorithms: [.edDSA, .es256],
            keys: {
                try! JWKSet(keys: [Keys.jwk(Keys.ed.publicKey, kid: "ed1", alg: .es256)])
            }
        ) { Mint.token(header: #"{"alg":"EdDSA","kid":"ed1"}"#, payload: goodClaims, signer: .ed(Keys.ed)) },
        attack(
            "key with use enc", .keyAlgorithmMismatch,
            keys: {
                try! JWKSet(
                    json:
                        #"{"keys":[\#(Keys.jwk(Keys.ec.publicKey, kid: "ec1").publicJSON!.replacingOccurrences(of: #""use":"sig""#, with: #""use":"enc""#))]}"#
                )
            }
        ) { ec(#"{"alg":"ES256","kid":"ec1"}"#) },
        attack(
            "key_ops without verify", .keyAlgorithmMismatch,
            keys: {
                let json = Keys.jwk(Keys.ec.publicKey, kid: "ec1").publicJSON!.dropLast() + #","key_ops":["sign"]}"#
                return try! JWKSet(json: #"{"keys":[\#(json)]}"#)
            }
        ) { ec(#"{"alg":"ES256","kid":"ec1"}"#) },
        attack("unknown alg", .unsupportedAlgorithm) { ec(#"{"alg":"ES256K"}"#) },
        attack("alg HS1", .unsupportedAlgorithm) { ec(#"{"alg":"HS1"}"#) },
        attack("alg not a string", .malformed) { ec(#"{"alg":256}"#) },
        attack("no alg", .malformed) { ec(#"{"kid":"ec1"}"#) },
        // key selection
        attack("unknown kid", .unknownKid) { ec(#"{"alg":"ES256","kid":"nope"}"#) },
        attack("kid of another case", .unknownKid) { ec(#"{"alg":"ES256","kid":"EC1"}"#) },
        attack("kid with trailing space", .unknownKid) { ec(#"{"alg":"ES256","kid":"ec1 "}"#) },
        attack("kid not a string", .malformed) { ec(#"{"alg":"ES256","kid":1}"#) },
        attack(
            "no kid, two fitting keys", .ambiguousKey,
            keys: {
                try! JWKSet(keys: [
                    Keys.jwk(Keys.ec.publicKey, kid: "a"), Keys.jwk(try! ECPrivateKey().publicKey, kid: "b"),
                ])
            }
        ) { ec(#"{"alg":"ES256"}"#) },
        attack("embedded jwk header is not used", .invalidSignature) {
            let attacker = try! ECPrivateKey()
            let jwk = Keys.jwk(attacker.publicKey, kid: nil).publicJSON!
            return Mint.token(header: #"{"alg":"ES256","jwk":\#(jwk)}"#, payload: goodClaims, signer: .ec(attacker))
        },
        attack("jku header is not used", .invalidSignature) {
            Mint.token(
                header: #"{"alg":"ES256","jku":"https://evil.example/jwks"}"#, payload: goodClaims,
                signer: .ec(try! ECPrivateKey()))
        },
        attack("x5u header is not used", .invalidSignature) {
            Mint.token(
                header: #"{"alg":"ES256","x5u":"https://evil.example/c.pem"}"#, payload: goodClaims,
                signer: .ec(try! ECPrivateKey()))
        },
        attack("x5c header is not used", .invalidSignature) {
            Mint.token(
                header: #"{"alg":"ES256","x5c":["MIIB"]}"#, payload: goodClaims, signer: .ec(try! ECPrivateKey()))
        },
        // header extensions
        attack("crit", .critUnsupported) { ec(#"{"alg":"ES256","crit":["exp"],"exp":1}"#) },
        attack("crit empty", .critUnsupported) { ec(#"{"alg":"ES256","crit":[]}"#) },
        attack("b64 false with crit", .critUnsupported) { ec(#"{"alg":"ES256","b64":false,"crit":["b64"]}"#) },
        attack("b64 without crit", .unsupportedHeader) { ec(#"{"alg":"ES256","b64":false}"#) },
        attack("zip", .unsupportedHeader) { ec(#"{"alg":"ES256","zip":"DEF"}"#) },
        attack("enc (JWE header)", .unsupportedSerialization) { ec(#"{"alg":"ES256","enc":"A128GCM"}"#) },
        attack("duplicate alg member", .duplicateMember) { ec(#"{"alg":"ES256","alg":"none"}"#) },
        attack("header not an object", .malformed) { ec(#"["ES256"]"#) },
        attack("header invalid JSON", .malformed) { ec(#"{"alg":"ES256""#) },
        // signatures
        attack("zero ECDSA signature", .invalidSignature) {
            Mint.token(header: #"{"alg":"ES256"}"#, payload: goodClaims, signer: .raw([UInt8](repeating: 0, count: 64)))
        },
        attack("DER-encoded ECDSA signature", .invalidSignature) {
            let raw = try! Keys.ec.signature(
                for: Array(
                    (Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8)) + "." + Base64URL.encode(Array(goodClaims.utf8)))
                        .utf8))
            let r = raw.prefix(32)
            let s = raw.suffix(32)
            func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
                let body = bytes.first! & 0x80 != 0 ? [0] + bytes : Array(bytes)
                return [0x02, UInt8(body.count)] + body
            }
            let body = integer(r) + integer(s)
            return Mint.token(
                header: #"{"alg":"ES256"}"#, payload: goodClaims, signer: .raw([0x30, UInt8(body.count)] + body))
        },
        attack("signature r = n", .invalidSignature) {
            Mint.token(
                header: #"{"alg":"ES256"}"#, payload: goodClaims,
                signer: .raw(ECDSAOrder.p256 + [UInt8](repeating: 1, count: 32)))
        },
        attack("truncated signature", .invalidSignature) {
            let parts = ec(#"{"alg":"ES256"}"#).split(separator: ".")
            let signature = try! Base64URL.decode(parts[2])
            return "\(parts[0]).\(parts[1]).\(Base64URL.encode(signature.dropLast(4)))"
        },
        attack("signature of another payload", .invalidSignature) {
            let a = ec(#"{"alg":"ES256"}"#).split(separator: ".")
            let b = ec(#"{"alg":"ES256"}"#, #"{"sub":"admin"}"#).split(separator: ".")
            return "\(b[0]).\(b[1]).\(a[2])"
        },
        attack("empty signature", .invalidSignature) {
            Mint.token(header: #"{"alg":"ES256"}"#, payload: goodClaims, signer: .raw([]))
        },
        attack("signature from another key", .invalidSignature) {
            Mint.token(header: #"{"alg":"ES256"}"#, payload: goodClaims, signer: .ec(try! ECPrivateKey()))
        },
        attack(
            "HS256 with a key shorter than the hash", .weakKey, algorithms: [.hs256],
            keys: {
                try! JWKSet(json: #"{"keys":[{"kty":"oct","k":"\#(Base64URL.encode(Array("short".utf8)))"}]}"#)
            }
        ) { Mint.token(header: #"{"alg":"HS256"}"#, payload: goodClaims, signer: .hmac(Array("short".utf8), .sha256)) },
        attack("HS256 wrong secret", .invalidSignature, algorithms: [.hs256], keys: { Keys.hmacSet }) {
            Mint.token(
                header: #"{"alg":"HS256"}"#, payload: goodClaims,
                signer: .hmac(Array("another-secret-of-32-bytes-long!".utf8), .sha256))
        },
        // serialization
        attack("JWE (five segments)", .unsupportedSerialization) { "eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d" },
        attack("JSON serialization", .unsupportedSerialization) { #"{"payload":"e30","signatures":[]}"# },
        attack("two segments", .malformed) { "eyJhbGciOiJFUzI1NiJ9.e30" },
        attack("four segments", .malformed) { ec(#"{"alg":"ES256"}"#) + ".x" },
        attack("padding in a segment", .invalidBase64) {
            ec(#"{"alg":"ES256"}"#).replacingOccurrences(of: ".", with: "=.")
        },
        attack("standard base64 alphabet", .invalidBase64) { "eyJhbGciOiJFUzI1NiJ9.+/+/.AAAA" },
        attack("whitespace inside", .invalidBase64) { "eyJhbGciOiJF UzI1NiJ9.e30.AAAA" },
        attack("empty token", .malformed) { "" },
        attack("oversized token (> 64 KiB)", .tooLarge) {
            ec(#"{"alg":"ES256"}"#, #"{"pad":"\#(String(repeating: "a", count: 70_000))"}"#)
        },
        attack("deeply nested header", .tooDeep) {
            ec(#"{"alg":"ES256","x":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}")
        },
        attack("header with invalid UTF-8", .malformed) {
            Base64URL.encode([0x7B, 0x22, 0x61, 0x6C, 0x67, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]) + ".e30.AAAA"
        },
    ]

    @Test(arguments: attacks)
    func rejected(_ attack: Attack) {
        let verifier = JWSVerifier(keys: attack.keys(), allowedAlgorithms: attack.algorithms)
        #expect(throws: JOSEError(attack.expected)) { try verifier.verify(attack.token()) }
    }

    struct ClaimAttack: CustomTestStringConvertible, Sendable {
        let name: String
        let payload: String
        let expected: JOSEError.Code
        var testDescription: String { name }
    }

    static let claimAttacks: [ClaimAttack] = [
        .init(
            name: "no exp", payload: #"{"iss":"https://id.example.com","aud":"app","iat":\#(t)}"#,
            expected: .missingClaim),
        .init(
            name: "string exp", payload: #"{"iss":"https://id.example.com","aud":"app","exp":"\#(t + 300)"}"#,
            expected: .invalidClaim),
        .init(
            name: "boolean exp", payload: #"{"iss":"https://id.example.com","aud":"app","exp":true}"#,
            expected: .invalidClaim),
        .init(
            name: "expired beyond leeway", payload: #"{"iss":"https://id.example.com","aud":"app","exp":\#(t - 61)}"#,
            expected: .expired),
        .init(
            name: "iat in the future by 1 s",
            payload: #"{"iss":"https://id.example.com","aud":"app","exp":\#(t + 300),"iat":\#(t + 1)}"#,
            expected: .issuedInFuture),
        .init(
            name: "string iat", payload: #"{"iss":"https://id.example.com","aud":"app","exp":\#(t + 300),"iat":"0"}"#,
            expected: .invalidClaim),
        .init(
            name: "nbf beyond leeway",
            payload: #"{"iss":"https://id.example.com","aud":"app","exp":\#(t + 300),"nbf":\#(t + 61)}"#,
            expected: .notYetValid),
        .init(
            name: "wrong issuer", payload: #"{"iss":"https://id.example.com.evil","aud":"app","exp":\#(t + 300)}"#,
            expected: .issuerMismatch),
        .init(
            name: "issuer with trailing slash",
            payload: #"{"iss":"https://id.example.com/","aud":"app","exp":\#(t + 300)}"#, expected: .issuerMismatch),
        .init(
            name: "issuer of another case", payload: #"{"iss":"https://ID.example.com","aud":"app","exp":\#(t + 300)}"#,
            expected: .issuerMismatch),
        .init(
            name: "wrong audience", payload: #"{"iss":"https://id.example.com","aud":"other","exp":\#(t + 300)}"#,
            expected: .audienceMismatch),
        .init(
            name: "audience array without us",
            payload: #"{"iss":"https://id.example.com","aud":["a","b"],"exp":\#(t + 300)}"#, expected: .audienceMismatch
        ),
        .init(
            name: "audience not a string", payload: #"{"iss":"https://id.example.com","aud":1,"exp":\#(t + 300)}"#,
            expected: .invalidClaim),
        .init(
            name: "empty audience array", payload: #"{"iss":"https://id.example.com","aud":[],"exp":\#(t + 300)}"#,
            expected: .invalidClaim),
        .init(
            name: "duplicate exp in the payload",
            payload: #"{"iss":"https://id.example.com","aud":"app","exp":1,"exp":\#(t + 300)}"#,
            expected: .duplicateMember),
        .init(name: "payload not an object", payload: #"["iss"]"#, expected: .malformed),
        .init(name: "payload not JSON", payload: "hello", expected: .malformed),
    ]

    @Test(arguments: claimAttacks)
    func claimsRejected(_ attack: ClaimAttack) {
        let verifier = JWTVerifier(
            keys: Keys.ecSet, allowedAlgorithms: [.es256],
            policy: JWTVerifier.standardPolicy(issuer: "https://id.example.com", audience: "app"), now: { Self.now })
        let token = Mint.token(header: #"{"alg":"ES256"}"#, payload: attack.payload, signer: .ec(Keys.ec))
        #expect(throws: JOSEError(attack.expected)) { try verifier.verify(token) }
    }

    @Test func corpusSize() { #expect(Self.attacks.count + Self.claimAttacks.count >= 50) }

    @Test func goodTokensPassEveryAlgorithm() throws {
        let policy = JWTVerifier.standardPolicy(issuer: "https://id.example.com", audience: "app")
        let cases: [(String, JWKSet, Set<JWSAlgorithm>, Mint.Signer)] = [
            (#"{"alg":"ES256"}"#, Keys.ecSet, [.es256], .ec(Keys.ec)),
            (#"{"alg":"ES384"}"#, try JWKSet(keys: [Keys.jwk(Keys.ec384.publicKey)]), [.es384], .ec(Keys.ec384)),
            (#"{"alg":"RS256","kid":"rsa1"}"#, Keys.rsaSet, [.rs256], .rsa(Keys.rsa, pss: false, .sha256)),
            (#"{"alg":"RS512","kid":"rsa1"}"#, Keys.rsaSet, [.rs512], .rsa(Keys.rsa, pss: false, .sha512)),
            (#"{"alg":"PS384","kid":"rsa1"}"#, Keys.rsaSet, [.ps384], .rsa(Keys.rsa, pss: true, .sha384)),
            (#"{"alg":"EdDSA","kid":"ed1"}"#, Keys.edSet, [.edDSA], .ed(Keys.ed)),
            (#"{"alg":"HS256","kid":"h1"}"#, Keys.hmacSet, [.hs256], .hmac(Keys.hmacSecret, .sha256)),
        ]
        for (header, keys, algorithms, signer) in cases {
            let token = Mint.token(header: header, payload: Self.goodClaims, signer: signer)
            let verified = try JWTVerifier(keys: keys, allowedAlgorithms: algorithms, policy: policy, now: { Self.now })
                .verify(token)
            #expect(try verified.claims.subject == "u1", "\(header)")
        }
    }

    @Test func leewayBoundaries() throws {
        let token = Mint.token(header: #"{"alg":"ES256"}"#, payload: #"{"exp":\#(Self.t - 60)}"#, signer: .ec(Keys.ec))
        let policy = JWTVerifier.standardPolicy(acceptingAnyAudience: true)
        #expect(throws: Never.self) {
            try JWTVerifier(keys: Keys.ecSet, allowedAlgorithms: [.es256], policy: policy, now: { Self.now }).verify(
                token)
        }
        let strict = JWTVerifier.standardPolicy(acceptingAnyAudience: true, leeway: try Leeway(seconds: 0))
        #expect(throws: JOSEError(.expired)) {
            try JWTVerifier(keys: Keys.ecSet, allowedAlgorithms: [.es256], policy: strict, now: { Self.now }).verify(
                token)
        }
        #expect(throws: JOSEError(.invalidConfiguration)) { try Leeway(seconds: 301) }
        #expect(throws: JOSEError(.invalidConfiguration)) { try Leeway(seconds: -1) }
    }

    @Test func typAndMaxAgePolicies() throws {
        let token = Mint.token(
            header: #"{"alg":"ES256","typ":"at+jwt"}"#, payload: #"{"exp":\#(Self.t + 60),"iat":\#(Self.t - 700)}"#,
            signer: .ec(Keys.ec))
        let typOK = AllOf {
            ExpirationPolicy()
            TypePolicy("application/at+jwt")
        }
        #expect(throws: Never.self) {
            try JWTVerifier(keys: Keys.ecSet, allowedAlgorithms: [.es256], policy: typOK, now: { Self.now }).verify(
                token)
        }
        #expect(throws: JOSEError(.typeMismatch)) {
            try JWTVerifier(keys: Keys.ecSet, allowedAlgorithms: [.es256], policy: TypePolicy("JWT"), now: { Self.now })
                .verify(token)
        }
        #expect(throws: JOSEError(.tooOld)) {
            try JWTVerifier(
                keys: Keys.ecSet, allowedAlgorithms: [.es256], policy: IssuedAtPolicy(maximumAge: 600),
                now: { Self.now }
            ).verify(token)
        }
    }
}

enum ECDSAOrder {
    static let p256: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xBC, 0xE6,
        0xFA,
        0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]
}
