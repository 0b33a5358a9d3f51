import Foundation
import Testing

/// `warden passkey` against py_webauthn's recorded responses (real YubiKey and Apple authenticators).
@Suite("warden passkey")
struct PasskeyCommandTests {
    static func fixturePath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WardenPasskeysTests/Fixtures/\(name)").path
    }

    /// One recorded case: its metadata and its response written to a temporary file.
    static func recorded(_ group: String, _ name: String) throws -> (item: [String: Any], file: String) {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixturePath("py_webauthn_recorded.json")))
        let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let item = (root[group] as! [[String: Any]]).first { $0["name"] as? String == name }!
        let file = NSTemporaryDirectory() + "warden-passkey-\(UUID().uuidString).json"
        try JSONSerialization.data(withJSONObject: item["response"]!).write(to: URL(fileURLWithPath: file))
        return (item, file)
    }

    /// A credential record file for a recorded assertion's credential, with the given stored counter.
    static func credentialRecord(_ item: [String: Any], signCount: Int) throws -> String {
        let id = (item["response"] as! [String: Any])["id"]!
        let response = item["response"] as! [String: Any]
        let handle = ((response["response"] as? [String: Any])?["userHandle"] as? String) ?? "d2FyZGVu"
        return try write(
            #"{"id":"\#(id)","publicKey":"\#(item["publicKey"]!)","signCount":\#(signCount),"userHandle":"\#(handle)"}"#
        )
    }

    static func write(_ text: String) throws -> String {
        let file = NSTemporaryDirectory() + "warden-passkey-\(UUID().uuidString).json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func verifiesARecordedYubiKeyRegistrationAndPrintsTheRecord() async throws {
        let (item, file) = try Self.recorded("registrations", "packed_yubikey_firefox")
        let run = await CLI.run([
            "passkey", "verify-registration", "--rp-id", "localhost", "--origin", "http://localhost:5000",
            "--challenge", item["challenge"] as! String, "--attestation-roots", Self.fixturePath("yubico-u2f-root.pem"),
            "--require-trusted-attestation", "--user-handle", "d2FyZGVu", file,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let record = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        #expect(record["id"] as? String == (item["response"] as! [String: Any])["id"] as? String)
        #expect(record["algorithm"] as? Int == -7)
        #expect(record["signCount"] as? Int == 52)
        #expect(record["aaguid"] as? String == "6d44ba9b-f6ec-2e49-b930-0c8fe920cb73")
        #expect((record["attestation"] as? [String: String])?["type"] == "trusted")
        #expect(record["transports"] as? [String] == ["nfc", "usb"])
        #expect(record["userHandle"] as? String == "d2FyZGVu")

        // Without the root, trust cannot be shown.
        let untrusted = await CLI.run([
            "passkey", "verify-registration", "--rp-id", "localhost", "--origin", "http://localhost:5000",
            "--challenge", item["challenge"] as! String, "--require-trusted-attestation", "--user-handle", "d2FyZGVu",
            file,
        ])
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.hasPrefix("warden: untrusted_attestation:"))
    }

    @Test func appleAttestationIsJudgedAtTheGivenTime() async throws {
        let (item, file) = try Self.recorded("registrations", "apple_passkey")
        let base = [
            "passkey", "verify-registration", "--rp-id", "dev2.dontneeda.pw", "--origin",
            "https://dev2.dontneeda.pw:5000", "--challenge", item["challenge"] as! String,
            "--require-trusted-attestation", "--user-handle", "d2FyZGVu",
        ]
        let then = await CLI.run(base + ["--now", "1630497600", file])  // 2021-09-01
        #expect(then.status == 0, "\(then.stderr)")
        let today = await CLI.run(base + [file])
        #expect(today.status == 1)
        #expect(today.stderr.hasPrefix("warden: untrusted_attestation:"))
    }

    @Test func verifiesARecordedAssertionAndPrintsTheSignCount() async throws {
        let (item, file) = try Self.recorded("assertions", "ec2_public_key")
        let record = try Self.credentialRecord(item, signCount: 77)
        let base = [
            "passkey", "verify-assertion", "--rp-id", "localhost", "--origin", "http://localhost:5000",
            "--credential", record,
        ]
        let run = await CLI.run(base + ["--challenge", item["challenge"] as! String, file])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "78\n")

        let json = await CLI.run(base + ["--challenge", item["challenge"] as! String, "--json", file])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(object["signCount"] as? Int == 78)
        #expect((object["record"] as? [String: Any])?["signCount"] as? Int == 78)

        let replay = await CLI.run(base + ["--challenge", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", file])
        #expect(replay.status == 1)
        #expect(replay.stderr.hasPrefix("warden: challenge_mismatch:"))
        #expect(replay.stdout.isEmpty)

        let regressed = try Self.credentialRecord(item, signCount: 78)
        let clone = await CLI.run([
            "passkey", "verify-assertion", "--rp-id", "localhost", "--origin", "http://localhost:5000",
            "--credential", regressed, "--challenge", item["challenge"] as! String, file,
        ])
        #expect(clone.status == 1)
        #expect(clone.stderr.hasPrefix("warden: sign_count_regression:"))
    }

    @Test func userVerificationRequiredButAbsentIsRejected() async throws {
        let (item, file) = try Self.recorded("assertions", "uv_required_but_false")
        let record = try Self.credentialRecord(item, signCount: 32)
        let run = await CLI.run([
            "passkey", "verify-assertion", "--rp-id", "localhost", "--origin", "http://localhost:5000",
            "--credential", record, "--challenge", item["challenge"] as! String, "--require-uv", file,
        ])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("warden: user_not_verified:"))
    }

    @Test(arguments: [
        (
            ["passkey", "verify-registration", "--origin", "https://a.example", "--challenge", "AA", "f"],
            "warden: usage: missing '--rp-id'"
        ),
        (
            ["passkey", "verify-registration", "--rp-id", "a.example", "--challenge", "AA", "f"],
            "warden: usage: missing '--origin'"
        ),
        (
            [
                "passkey", "verify-registration", "--rp-id", "https://a.example", "--origin", "https://a.example",
                "--challenge", "AA", "--user-handle", "AA", "f",
            ], "warden: invalid_configuration:"
        ),
        (
            ["passkey", "verify-registration", "--rp-id", "a.example", "--origin", "https://a.example", "f"],
            "warden: usage: missing '--challenge' (or '--challenge-store')"
        ),
        (
            [
                "passkey", "verify-registration", "--rp-id", "a.example", "--origin", "https://a.example",
                "--challenge", "A+==", "--user-handle", "AA", "f",
            ], "warden: usage: '--challenge' must be non-empty base64url"
        ),
        (
            [
                "passkey", "verify-registration", "--rp-id", "a.example", "--origin", "https://a.example",
                "--challenge", "AA", "/nonexistent",
            ], "warden: usage: missing '--user-handle'"
        ),
        (
            [
                "passkey", "verify-registration", "--rp-id", "a.example", "--origin", "https://a.example",
                "--challenge", "AA", "--user-handle", "AA", "/nonexistent",
            ], "warden: unreadable_file:"
        ),
        (
            [
                "passkey", "verify-assertion", "--rp-id", "a.example", "--origin", "https://a.example", "--challenge",
                "AA", "f",
            ], "warden: usage: missing '--credential'"
        ),
    ])
    func usageErrorsAreExitTwo(arguments: [String], message: String) async {
        let run = await CLI.run(arguments)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
    }

    @Test func unusableAttestationRootsAreExitTwo() async throws {
        let response = try Self.recorded("registrations", "packed_yubikey_firefox").file
        for (roots, message) in [
            ("/nonexistent/roots.pem", "warden: unreadable_file:"),
            (try Self.write("junk"), "warden: malformed_input: '--attestation-roots'"),
            (try Self.write(""), "warden: no_certificate: '--attestation-roots': empty input"),
            (
                try Self.write("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"),
                "warden: malformed_input: '--attestation-roots'"
            ),
        ] {
            let run = await CLI.run([
                "passkey", "verify-registration", "--rp-id", "localhost", "--origin", "http://localhost:5000",
                "--challenge", "AA", "--attestation-roots", roots, "--user-handle", "AA", response,
            ])
            #expect(run.status == 2, "\(roots): \(run.stderr)")
            #expect(run.stderr.hasPrefix(message), "\(roots): \(run.stderr)")
        }
    }

    @Test func malformedResponsesAreExitOne() async throws {
        let file = try Self.write(#"{"id":"AA","rawId":"AA","type":"public-key","response":{}}"#)
        let run = await CLI.run([
            "passkey", "verify-registration", "--rp-id", "a.example", "--origin", "https://a.example", "--challenge",
            "AA", "--user-handle", "AA", file,
        ])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("warden: malformed:"))
        let badRecord = try Self.write(#"{"id":"AA","publicKey":"AA","signCount":0}"#)
        let record = await CLI.run([
            "passkey", "verify-assertion", "--rp-id", "a.example", "--origin", "https://a.example", "--challenge",
            "AA", "--credential", badRecord, file,
        ])
        #expect(record.status == 2)
        #expect(record.stderr.hasPrefix("warden: invalid_key:"))
    }
}
