import Foundation
import Testing
import WardenCrypto
import WardenJOSE

@Suite("warden jwt / jws")
struct JWTCommandTests {
    static let key = try! ECPrivateKey()
    static let t = 1_800_000_000

    static func temp(_ name: String, _ text: String) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("warden-\(UUID())-\(name)")
        try! Data(text.utf8).write(to: url)
        return url.path
    }

    static let jwk = try! JWK(publicKey: key.publicKey, keyID: "k1", algorithm: .es256)
    static let jwksFile = temp("jwks.json", #"{"keys":[\#(jwk.publicJSON!)]}"#)
    static let jwkFile = temp("jwk.json", jwk.publicJSON!)

    static func token(_ payload: String, header: String = #"{"alg":"ES256","kid":"k1"}"#) -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        return input + "." + Base64URL.encode(try! key.signature(for: Array(input.utf8)))
    }

    static let good = token(#"{"iss":"https://id.example.com","aud":"app","sub":"u1","exp":\#(t + 300),"iat":\#(t)}"#)

    @Test func verifyPrintsClaims() async throws {
        let run = await CLI.run([
            "jwt", "verify", "--jwks", Self.jwksFile, "--iss", "https://id.example.com", "--aud", "app", "--now",
            "\(Self.t)",
            "--alg", "ES256", Self.good,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let claims = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        #expect(claims["sub"] as? String == "u1")
    }

    @Test func verifyReadsStandardInput() async {
        let run = await CLI.run(
            ["jwt", "verify", "--jwks", Self.jwksFile, "--aud", "app", "--now", "\(Self.t)", "-"],
            stdin: Self.good + "\n")
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test(arguments: [
        (["--now", "\(t + 361)"], "warden: expired:"),
        (["--now", "\(t)", "--iss", "https://other"], "warden: issuer_mismatch:"),
        (["--now", "\(t)", "--aud", "other"], "warden: audience_mismatch:"),
        (["--now", "\(t)", "--alg", "RS256"], "warden: algorithm_not_allowed:"),
        (["--now", "\(t)", "--nonce", "n"], "warden: missing_claim:"),
        (["--now", "\(t + 100)", "--max-age", "50"], "warden: too_old:"),
        (["--now", "\(t - 1)"], "warden: issued_in_future:"),
    ])
    func rejectedTokensExitOne(extra: [String], message: String) async {
        let audience = extra.contains("--aud") ? [] : ["--aud", "app"]
        let run = await CLI.run(["jwt", "verify", "--jwks", Self.jwksFile] + audience + extra + [Self.good])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test(arguments: ["not-a-token", "a.b.c", "eyJhbGciOiJub25lIn0.e30.", String(repeating: "A", count: 70_000)])
    func malformedTokensExitOne(token: String) async {
        let run = await CLI.run(["jwt", "verify", "--jwks", Self.jwksFile, "--any-audience", token])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("warden: "))
    }

    @Test(arguments: [
        ["jwt", "verify", good],  // missing --jwks
        ["jwt", "verify", "--aud", "app", "--jwks", "/nonexistent", good],
        ["jwt", "verify", "--aud", "app", "--jwks", temp("bad.json", "{"), good],
        [
            "jwt", "verify", "--aud", "app", "--jwks",
            temp("priv.json", #"{"keys":[{"kty":"EC","crv":"P-256","x":"a","y":"b","d":"c"}]}"#), good,
        ],
        ["jwt", "verify", "--aud", "app", "--jwks", jwksFile, "--leeway", "301", good],
        ["jwt", "verify", "--aud", "app", "--jwks", jwksFile, "--alg", "none", good],
        ["jwt", "verify", "--aud", "app", "--jwks", jwksFile, "--now", "yesterday", good],
        ["jwt", "verify", "--aud", "app", "--jwks", jwksFile],
        // RFC 7519 §4.1.3: without an audience a token for any other service would pass; say which, or opt out.
        ["jwt", "verify", "--jwks", jwksFile, good],
        ["jwt", "verify", "--jwks", jwksFile, "--aud", "app", "--any-audience", good],
        ["jws", "verify", good],
        ["jws", "verify", "--jwk", jwkFile, "--jwks", jwksFile, good],
        ["jws", "verify", "--jwk", temp("weak.json", #"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#), good],
    ])
    func usageErrorsExitTwo(arguments: [String]) async {
        let run = await CLI.run(arguments)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix("warden: "))
    }

    /// `--any-audience` is the explicit opt-out: a token for any audience passes; without it and without `--aud`
    /// nothing is verified at all (exit 2 above).
    @Test func anyAudienceIsAnExplicitChoice() async {
        let other = Self.token(
            #"{"iss":"https://id.example.com","aud":"other-service","exp":\#(Self.t + 300),"iat":\#(Self.t)}"#)
        let accepted = await CLI.run([
            "jwt", "verify", "--jwks", Self.jwksFile, "--any-audience", "--now", "\(Self.t)", other,
        ])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let refused = await CLI.run([
            "jwt", "verify", "--jwks", Self.jwksFile, "--aud", "app", "--now", "\(Self.t)", other,
        ])
        #expect(refused.status == 1 && refused.stderr.hasPrefix("warden: audience_mismatch:"))
    }

    @Test func decodeIsMarkedUnverified() async throws {
        let run = await CLI.run(["jwt", "decode", Self.good])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("UNVERIFIED"))
        let json = await CLI.run(["jwt", "decode", "--json", Self.good])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(object["verified"] as? Bool == false)
        #expect((object["header"] as? [String: Any])?["alg"] as? String == "ES256")
        let bad = await CLI.run(["jwt", "decode", "x.y"])
        #expect(bad.status == 1)
    }

    @Test func jwsVerifyPrintsThePayload() async {
        let token = Self.token("arbitrary payload, not JSON")
        let run = await CLI.run(["jws", "verify", "--jwk", Self.jwkFile, token])
        #expect(run.status == 0 && run.stdout == "arbitrary payload, not JSON\n", "\(run.stderr)")
        let crit = await CLI.run([
            "jws", "verify", "--jwk", Self.jwkFile, Self.token("x", header: #"{"alg":"ES256","crit":["x"]}"#),
        ])
        #expect(crit.status == 1 && crit.stderr.hasPrefix("warden: crit_unsupported:"))
        let zip = await CLI.run([
            "jws", "verify", "--jwks", Self.jwksFile, Self.token("x", header: #"{"alg":"ES256","zip":"DEF"}"#),
        ])
        #expect(zip.status == 1 && zip.stderr.hasPrefix("warden: unsupported_header:"))
    }
}
