import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenOAuth
import WardenPasskeys

@_spi(Fuzzing) @testable import WardenRedis

/// Separate `warden` processes — instances of one relying party — sharing one real Redis: a DPoP proof and a passkey
/// sign-in are accepted exactly once between them, and a Redis that is down is a transient refusal (exit 75).
@Suite("warden processes sharing Redis", .serialized)
struct ProcessTests {
    struct Exit {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The `warden` executable SwiftPM built next to the test bundle.
    static func binary() throws -> URL {
        let candidate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("warden")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidate.path])
        }
        return candidate
    }

    /// Starts every argument list at once, then waits for all of them.
    static func runTogether(_ invocations: [[String]], environment: [String: String] = [:]) async throws -> [Exit] {
        let binary = try binary()
        var started: [(Process, Pipe, Pipe)] = []
        for arguments in invocations {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path]
                .merging(environment) { _, given in given }
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            started.append((process, out, err))
        }
        for (process, _, _) in started { try process.run() }
        var exits: [Exit] = []
        for (process, out, err) in started {
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    process.waitUntilExit()
                    done.resume()
                }
            }
            exits.append(
                Exit(
                    status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                    stderr: String(decoding: stderr, as: UTF8.self)))
        }
        return exits
    }

    @Test func sixProcessesAcceptOneDPoPProofOnce() async throws {
        let server = try RedisServer()
        let url = "https://api.example.com/orders"
        let proof = try DPoPProofFactory(key: try SoftwareDPoPKey()).proof(method: "POST", url: URL(string: url)!)
        let exits = try await Self.runTogether(
            Array(
                repeating: ["dpop", "verify", "--htm", "POST", "--htu", url, "--replay-cache", server.url, proof],
                count: 6))
        #expect(exits.filter { $0.status == 0 }.count == 1, "\(exits.map(\.stderr))")
        let refused = exits.filter { $0.status != 0 }
        #expect(refused.count == 5 && refused.allSatisfy { $0.status == 1 && $0.stderr.contains("dpop_replayed") })
    }

    /// The sign-in response was signed by a Python peer (`cryptography`, Fuzz/Seeds/make_signed_seeds.py) over the
    /// challenge 00 01 02 03; the challenge is issued into Redis as one instance would.
    @Test func fourProcessesAcceptOnePasskeySignInOnce() async throws {
        let server = try RedisServer()
        let store = RedisChallengeStore(client: try RedisClient(RedisConfiguration(port: server.port)))
        try await store.put(
            PasskeyChallenge(
                restoring: [0, 1, 2, 3], binding: "session-7", ceremony: .authentication,
                expires: Date().addingTimeInterval(300)))
        let arguments = [
            "passkey", "verify-assertion", "--rp-id", "example.com", "--origin", "https://example.com",
            "--challenge-store", server.url, "--binding", "session-7", "--credential",
            Self.fixtures.appendingPathComponent("record.json").path,
            Self.fixtures.appendingPathComponent("assertion.json").path,
        ]
        let exits = try await Self.runTogether(Array(repeating: arguments, count: 4))
        let accepted = exits.filter { $0.status == 0 }
        #expect(accepted.count == 1 && accepted.first?.stdout == "7\n", "\(exits.map(\.stderr))")
        #expect(exits.filter { $0.status == 1 && $0.stderr.contains("challenge_unknown") }.count == 3)
    }

    @Test func aChallengeIssuedByOneProcessIsRedeemedByAnotherInstance() async throws {
        let server = try RedisServer()
        let issued = try await Self.runTogether([
            ["passkey", "issue-challenge", "--challenge-store", server.url, "--binding", "user-9", "--lifetime", "60"]
        ])
        #expect(issued.first?.status == 0)
        let value = try Base64URL.decode(issued.first?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        #expect(value.count == PasskeyChallenge.byteCount)
        let store = RedisChallengeStore(client: try RedisClient(RedisConfiguration(port: server.port)))
        let redeemed = try await store.redeem(value, binding: "user-9", ceremony: .authentication)
        #expect(redeemed.expires.timeIntervalSinceNow > 50 && redeemed.expires.timeIntervalSinceNow <= 60)
    }

    /// The CLI takes the password from WARDEN_REDIS_PASSWORD (never from argv), and never prints it.
    @Test func thePasswordComesFromTheEnvironment() async throws {
        let server = try RedisServer(["--requirepass", "env-horse-battery"])
        let issue = ["passkey", "issue-challenge", "--challenge-store", server.url, "--binding", "s"]
        let with = try await Self.runTogether([issue], environment: ["WARDEN_REDIS_PASSWORD": "env-horse-battery"])
        #expect(with.first?.status == 0, "\(with.map(\.stderr))")
        let wrong = try await Self.runTogether([issue], environment: ["WARDEN_REDIS_PASSWORD": "env-wrong-staple"])
        let without = try await Self.runTogether([issue])
        for refused in wrong + without {
            #expect(refused.status == 2 && refused.stderr.contains("redis_authentication_failed"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("horse") && !refused.stderr.contains("staple"))
        }
    }

    @Test func aRedisThatIsDownIsATransientRefusal() async throws {
        let url = "https://api.example.com/"
        let proof = try DPoPProofFactory(key: try SoftwareDPoPKey()).proof(method: "GET", url: URL(string: url)!)
        let nowhere = "redis://127.0.0.1:\(try RedisServer.freePort())"
        let exits = try await Self.runTogether([
            ["dpop", "verify", "--htm", "GET", "--htu", url, "--replay-cache", nowhere, proof],
            ["passkey", "issue-challenge", "--challenge-store", nowhere, "--binding", "s"],
            ["dpop", "verify", "--htm", "GET", "--htu", url, "--replay-cache", "rediss://127.0.0.1:6379", proof],
        ])
        #expect(exits[0].status == 75 && exits[0].stderr.contains("dpop_replay_cache_unavailable"))
        #expect(exits[1].status == 75 && exits[1].stderr.contains("challenge_store_unavailable"))
        #expect(exits[2].status == 2 && exits[2].stderr.contains("redis_invalid_configuration"))
    }
}
