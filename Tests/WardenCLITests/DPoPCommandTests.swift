import Foundation
import Testing
import WardenCrypto
import WardenJOSE

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
