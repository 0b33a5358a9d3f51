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
