import Foundation
import Testing
import WardenCrypto
import WardenJOSE

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
