import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenTestSupport

/// Runs what exists with synthetic secrets and checks that none of them (nor any 12-character substring)
/// reaches a log line, an error description or CLI output. Later flows add themselves here.
@Suite("Secret canary")
struct CanaryTests {
    static let secrets = [
        "canary-access-token-Zq8vW2xY7pL4", "canary-refresh-token-Hj3kN9mB5vC1", "canary-client-secret-Tt6rE2wQ8yU0",
    ]

    @Test func canaryDetectsLeaksAndSubstrings() {
        let canary = SecretCanary(secrets: Self.secrets)
        #expect(canary.leaks(in: ["nothing here"]).isEmpty)
        #expect(canary.leaks(in: ["x \(Self.secrets[0]) y"]).count == 1)
        #expect(canary.leaks(in: ["prefix " + String(Self.secrets[1].dropFirst(5).prefix(12))]).count == 1)
        #expect(canary.leaks(in: [String(Self.secrets[2].prefix(11))]).isEmpty)
    }

    @Test func existingSurfacesNeverLeak() async throws {
        let canary = SecretCanary(secrets: Self.secrets)
        var outputs: [String] = []
        let sink = CollectingLogSink()
        try await WardenLog.withSink(sink) {
            let log = WardenLogger(category: "canary")
            // Secrets through the logging facade in every shape the redactor knows.
            log.debug("GET https://api.example.com/cb?code=\(Self.secrets[0])&state=x")
            log.info("Authorization: Bearer \(Self.secrets[0])")
            log.warning(#"{"refresh_token":"\#(Self.secrets[1])","client_secret":"\#(Self.secrets[2])"}"#)
            log.error(
                "refresh failed",
                metadata: ["refresh_token": Self.secrets[1], "body": "client_secret=\(Self.secrets[2])"])
            // Secret-holding types printed every way.
            let wrapped = Redacted(Self.secrets[0])
            var dumped = ""
            dump(wrapped, to: &dumped)
            outputs += ["\(wrapped)", String(reflecting: wrapped), dumped]
            let key = HMACKey(Array(Self.secrets[2].utf8), hash: .sha256)
            outputs += ["\(key)", String(reflecting: key)]
            // Errors from inputs that embed secrets.
            let secretFile = FileManager.default.temporaryDirectory.appendingPathComponent("canary-\(UUID()).pem")
            try Data("-----BEGIN PRIVATE KEY-----\n\(Self.secrets[1])\n-----END PRIVATE KEY-----\n".utf8).write(
                to: secretFile)
            defer { try? FileManager.default.removeItem(at: secretFile) }
            for arguments in [["pin", secretFile.path], ["pin", "-"], ["pin", "--\(Self.secrets[0])"]] {
                let run = await CLI.run(arguments, stdin: Self.secrets[2])
                outputs += [run.stdout, run.stderr]
            }
            do { _ = try RSAPrivateKey(pem: Self.secrets[1]) } catch { outputs.append("\(error)") }
            do { _ = try InputPolicy.username.validate(Self.secrets[0] + " ") } catch { outputs.append("\(error)") }
        }
        outputs += sink.lines
        #expect(sink.all.count == 4)
        let leaks = canary.leaks(in: outputs)
        #expect(leaks.isEmpty, "\(leaks)")
    }
}
