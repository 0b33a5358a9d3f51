import Foundation
import Testing
import WardenCrypto
import WardenJOSE

/// Wrong invocations of the commands whose rejection paths other suites do not feed: each is exit 2 with a
/// `warden: <code>:` line, and none echoes a secret.
@Suite("CLI usage rejections")
struct UsageRejectionTests {
    static let url = "https://api.example.com/x"

    @Test(arguments: [
        (["store", "frob", "--service", "s", "--store", "memory"], "usage"),
        (["store", "list", "--store", "memory"], "usage"),
        (["store", "list", "--service", "s", "--store", "file"], "usage"),
        (["store", "list", "--service", "s", "--store", "floppy"], "usage"),
        (["store", "list", "--service", "", "--store", "memory"], "invalid_name"),
        (["oauth1", "sign", "--method", "GET", "--url", url, "--consumer-key", "k"], "usage"),
        (
            [
                "oauth1", "sign", "--method", "GET", "--url", url, "--consumer-key", "k", "--signature-method",
                "RSA-SHA1",
            ], "usage"
        ),
        (
            [
                "oauth1", "sign", "--method", "GET", "--url", url, "--consumer-key", "k", "--consumer-secret", "s",
                "--signature-method", "MD5",
            ], "usage"
        ),
        (
            [
                "oauth1", "sign", "--method", "GET", "--url", url, "--consumer-key", "k", "--consumer-secret", "s",
                "--token-secret", "ts",
            ], "usage"
        ),
        (
            [
                "oauth1", "sign", "--method", "GET", "--url", "not a url", "--consumer-key", "k", "--consumer-secret",
                "s",
            ], "invalid_configuration"
        ),
        (
            [
                "oauth1", "sign", "--method", "GET", "--url", url, "--consumer-key", "k", "--rsa-key",
                "/nonexistent.pem",
            ], "unreadable_file"
        ),
        (
            [
                "oauth1", "sign", "--method", "GET", "--url", url, "--consumer-key", "k", "--rsa-key",
                CLI.fixture("p256.key"),
            ], "algorithm_mismatch"
        ),
        (["token", "--min-ttl", "-5", "--store", "memory"], "usage"),
        (["login", "--client-id", "x"], "usage"),
        // Cleartext to a name that merely starts with 127. (or any name) is refused before anything is sent.
        (
            ["login", "--issuer", "http://127.attacker.example", "--client-id", "x", "--store", "memory"],
            "insecure_endpoint"
        ),
        (
            ["login", "--issuer", "http://127.0.0.1.nip.io/o", "--client-id", "x", "--store", "memory"],
            "insecure_endpoint"
        ),
        (
            ["login", "--issuer", "http://u@127.0.0.1:9/o", "--client-id", "x", "--store", "memory"],
            "insecure_endpoint"
        ),
        (["demo", "--issuer", "http://127.attacker.example", "--client-id", "x"], "insecure_endpoint"),
        (["bench", "crypto", "--seconds", "0"], "usage"),
    ])
    func exitTwo(arguments: [String], code: String) async {
        let run = await CLI.run(arguments)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix("warden: \(code):"), "\(arguments): \(run.stderr)")
    }

    @Test func secretsInRejectedInvocationsAreNotEchoed() async {
        let secret = "cs-9f8e7d6c5b4a3f2e1d0c"
        let run = await CLI.run([
            "oauth1", "sign", "--method", "GET", "--url", "not a url", "--consumer-key", "k", "--consumer-secret",
            secret,
        ])
        #expect(run.status == 2)
        #expect(!run.stderr.contains(secret) && !run.stdout.contains(secret))
    }
}

/// `warden dpop`: exit 0 valid, 1 refused with its code, 2 invocation errors (DESIGN.md's contract).
@Suite("warden dpop")
struct DPoPCommandTests {
    static let rfcProof =
        "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"

    @Test func theRFCExampleVerifiesAndEachRefusalHasItsExitCode() async {
        let base = ["dpop", "verify", "--htu", "https://server.example.com/token", "--now", "1562262620"]
        let ok = await CLI.run(base + ["--htm", "POST", Self.rfcProof])
        #expect(ok.status == 0 && ok.stdout.contains("0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"), "\(ok.stderr)")
        let cases: [([String], Int32, String)] = [
            (base + ["--htm", "GET", Self.rfcProof], 1, "dpop_htm_mismatch"),
            (base + ["--htm", "POST", "--jkt", "other", Self.rfcProof], 1, "dpop_key_mismatch"),
            (base + ["--htm", "POST", "--nonce", "n", Self.rfcProof], 1, "use_dpop_nonce"),
            (base + ["--htm", "POST", "--access-token", "at", Self.rfcProof], 1, "dpop_ath_mismatch"),
            (base + ["--htm", "POST", "not-a-proof"], 1, "dpop_malformed"),
            (
                ["dpop", "verify", "--htm", "POST", "--htu", "https://server.example.com/token", Self.rfcProof], 1,
                "dpop_iat_out_of_window"
            ),
            (base + [Self.rfcProof], 2, "usage"),
            (["dpop", "verify", "--htm", "POST", "--htu", "ftp://x/", Self.rfcProof], 2, "usage"),
            (
                ["dpop", "proof", "--key", "/nonexistent", "--htm", "GET", "--htu", "https://a.example/"], 2,
                "unreadable_file"
            ),
        ]
        for (arguments, status, code) in cases {
            let run = await CLI.run(arguments)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("warden: \(code):"), "\(arguments): \(run.stderr)")
        }
    }

    @Test func keygenProofVerifyRoundTripAndNoOverwrite() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("warden-dpop-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let keygen = await CLI.run(["dpop", "keygen", dir + "/k.pem"])
        #expect(keygen.status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/k.pem")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let again = await CLI.run(["dpop", "keygen", dir + "/k.pem"])
        #expect(again.status == 2 && again.stderr.hasPrefix("warden: file_exists:"))
        let proof = await CLI.run([
            "dpop", "proof", "--key", dir + "/k.pem", "--htm", "GET", "--htu", "https://api.example.com/me",
            "--access-token", "at-1",
        ])
        #expect(proof.status == 0)
        let verify = await CLI.run(
            [
                "dpop", "verify", "--htm", "GET", "--htu", "https://api.example.com/me", "--access-token", "at-1", "-",
            ], stdin: proof.stdout)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(!proof.stdout.contains("PRIVATE"), "the proof carries no private key")
    }
}

/// `warden siwa`: bad key, TTL and flags are exit 2; a token that does not validate is exit 1.
@Suite("warden siwa")
struct SIWACommandTests {
    @Test func clientSecretRefusesBadInput() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("warden-siwa-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p8 = dir + "/key.p8"
        try Data(try ECPrivateKey(curve: .p256).pkcs8PEM().unredacted().utf8).write(to: URL(fileURLWithPath: p8))
        let p384 = dir + "/p384.p8"
        try Data(try ECPrivateKey(curve: .p384).pkcs8PEM().unredacted().utf8).write(to: URL(fileURLWithPath: p384))
        let base = [
            "siwa", "client-secret", "--team-id", "TEAM123456", "--client-id", "com.example.app", "--key-id", "K1",
        ]
        let ok = await CLI.run(base + ["--key", p8])
        #expect(ok.status == 0 && ok.stdout.split(separator: ".").count == 3, "\(ok.stderr)")
        for (extra, code) in [
            (["--key", p8, "--ttl", "15552001"], "usage"), (["--key", p8, "--ttl", "0"], "usage"),
            (["--key", p384], "key_algorithm_mismatch"), (["--key", dir + "/missing.p8"], "unreadable_file"),
            (["--key", CLI.fixture("rsa.pem")], "invalid_key"),
        ] {
            let run = await CLI.run(base + extra)
            #expect(run.status == 2, "\(extra): \(run.stderr)")
            #expect(run.stderr.hasPrefix("warden: \(code):"), "\(extra): \(run.stderr)")
        }
        let noTeam = await CLI.run(["siwa", "client-secret", "--client-id", "c", "--key-id", "k", "--key", p8])
        #expect(noTeam.status == 2)
    }

    @Test func verifyRefusesATokenSignedByAnotherKey() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("warden-siwa-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let published = try ECPrivateKey(curve: .p256)
        let jwk = try #require(try JWK(publicKey: published.publicKey, keyID: "apple-1", algorithm: .es256).publicJSON)
        try Data(#"{"keys":[\#(jwk)]}"#.utf8).write(to: URL(fileURLWithPath: dir + "/jwks.json"))
        let t = Int(Date().timeIntervalSince1970)
        let claims =
            #"{"iss":"https://appleid.apple.com","aud":"com.example.app","exp":\#(t + 600),"iat":\#(t),"sub":"001.a"}"#
        func token(_ key: ECPrivateKey) throws -> String {
            let input =
                Base64URL.encode(Array(#"{"alg":"ES256","kid":"apple-1"}"#.utf8)) + "."
                + Base64URL.encode(Array(claims.utf8))
            return input + "." + Base64URL.encode(try key.signature(for: Array(input.utf8)))
        }
        let base = ["siwa", "verify", "--jwks", dir + "/jwks.json", "--client-id", "com.example.app", "--no-nonce"]
        let good = await CLI.run(base + [try token(published)])
        #expect(good.status == 0, "\(good.stderr)")
        let forged = await CLI.run(base + [try token(try ECPrivateKey(curve: .p256))])
        #expect(forged.status == 1 && forged.stderr.hasPrefix("warden: invalid_signature:"), "\(forged.stderr)")
        let otherApp = await CLI.run([
            "siwa", "verify", "--jwks", dir + "/jwks.json", "--client-id", "x", "--no-nonce", try token(published),
        ])
        #expect(otherApp.status == 1 && otherApp.stderr.hasPrefix("warden: audience_mismatch:"), "\(otherApp.stderr)")
        let missing = await CLI.run(["siwa", "verify", "--client-id", "c", "x.y.z"])
        #expect(missing.status == 2 && missing.stderr.hasPrefix("warden: usage:"))
        // Without the nonce, a stolen identity token would sign in again: say it, or say the flow has none.
        let noNonce = await CLI.run(Array(base.dropLast()) + [try token(published)])
        #expect(noNonce.status == 2 && noNonce.stderr.contains("--no-nonce"), "\(noNonce.stderr)")
        let both = await CLI.run(base + ["--nonce", "n", try token(published)])
        #expect(both.status == 2, "\(both.stderr)")
    }
}
