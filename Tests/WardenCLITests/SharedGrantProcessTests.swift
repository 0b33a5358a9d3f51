import Foundation
import Testing
import WardenCore
import WardenLocalProvider
@_spi(Fuzzing) import WardenOAuth
import WardenSession
import WardenStorage

#if canImport(Glibc)
    import Glibc
#endif

/// Real processes sharing one grant: `warden` binaries (built beside this test bundle) on one file store, against
/// the in-process provider, which revokes the whole grant when a rotated refresh token is presented again.
@Suite("One grant, several processes", .serialized)
struct SharedGrantProcessTests {
    struct Exit {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `warden` executable SwiftPM built next to the test bundle.
    static func binary() throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidate = bundle.appendingPathComponent("warden")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidate.path])
        }
        return candidate
    }

    static func start(_ arguments: [String], home: String) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.environment = CLI.environment(home: home).merging(["PATH": "/usr/bin:/bin"]) { a, _ in a }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    static func finish(_ started: (Process, Pipe, Pipe)) async -> Exit {
        let (process, out, err) = started
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                process.waitUntilExit()
                done.resume()
            }
        }
        return Exit(
            status: process.terminationStatus,
            stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    static let store = OAuthCommandTests.fileStore

    /// Signs in through the CLI (in-process), then marks the stored access token expired, as after a night.
    static func signedInAndExpired(_ provider: LocalProvider, home: String) async throws -> PlaintextFileStore {
        let login = await OAuthCommandTests.login(provider, home: home)
        #expect(login.status == 0, "\(login.stderr)")
        let files = try PlaintextFileStore.insecure(
            directory: URL(fileURLWithPath: home + "/.local/state/warden/insecure-credentials"))
        try await expire(files)
        return files
    }

    static func expire(_ files: PlaintextFileStore) async throws {
        let data = try #require(try await files.load(service: "dev.warden.cli.tokens", account: "alice"))
        var tokens = try TokenSet(encoded: data)
        tokens.expiresAt = Date().addingTimeInterval(-10)
        try await files.save(try tokens.encoded(), service: "dev.warden.cli.tokens", account: "alice")
    }

    @Test func twoProcessesWhoseTokensExpireTogetherRefreshOnceAndEndWithTheSameWorkingToken() async throws {
        let provider = try LocalProvider(clientID: "cli-test")
        defer { provider.stop() }
        let home = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let files = try await Self.signedInAndExpired(provider, home: home)
        let before = provider.count("token.refresh_token")

        for round in 1...3 {
            // A slow provider (300 ms a request) keeps both processes inside their refresh at the same time.
            provider.outage = .slow(milliseconds: 300)
            let first = try Self.start(["token"] + Self.store, home: home)
            let second = try Self.start(["token"] + Self.store, home: home)
            let (a, b) = (await Self.finish(first), await Self.finish(second))
            provider.outage = .none
            #expect(a.status == 0 && b.status == 0, "round \(round): \(a.stderr) | \(b.stderr)")
            #expect(!a.stdout.isEmpty && a.stdout == b.stdout, "round \(round): both print the same token")
            #expect(provider.count("token.refresh_token") == before + round, "round \(round): one refresh per expiry")
            // The token works, and the grant was never revoked by a reused refresh token.
            var request = HTTPRequest(url: URL(string: provider.issuer + "/api/resource")!)
            request.headers["Authorization"] = "Bearer " + a.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try await URLSessionTransport().send(request).status == 200, "round \(round)")
            try await Self.expire(files)
        }
        let stored = try TokenSet(
            encoded: try #require(try await files.load(service: "dev.warden.cli.tokens", account: "alice")))
        #expect(stored.generation == 3)
    }

    @Test func aHolderKilledWhileHoldingTheLockBlocksTheOthersOnlyUntilItsLeaseRunsOut() async throws {
        let provider = try LocalProvider(clientID: "cli-test")
        defer { provider.stop() }
        let home = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        _ = try await Self.signedInAndExpired(provider, home: home)
        // The first holder's provider never answers: it takes the lease, then hangs in its request.
        let hang = DispatchSemaphore(value: 0)
        defer { for _ in 0..<8 { hang.signal() } }
        let blackHole = try LoopbackHTTPServer { _ in
            hang.wait()
            return .text(503, "")
        }
        defer { blackHole.stop() }
        let profile = home + "/.config/warden/accounts/\(PlaintextFileStore.fileName("alice")).json"
        let real = try #require(FileManager.default.contents(atPath: profile))
        try Data(#"{"issuer":"http://127.0.0.1:\#(blackHole.port)","clientID":"cli-test"}"#.utf8).write(
            to: URL(fileURLWithPath: profile))
        let holder = try Self.start(["token"] + Self.store, home: home)

        let locks = home + "/.local/state/warden/insecure-credentials/.locks"
        var lease: String?
        for _ in 0..<400 where lease == nil {  // up to 20 s for the child to start and take the lease
            try await Task.sleep(for: .milliseconds(50))
            lease = (try? FileManager.default.contentsOfDirectory(atPath: locks))?.first {
                !(FileManager.default.contents(atPath: locks + "/" + $0) ?? Data()).isEmpty
            }
        }
        let leaseFile = try #require(lease, "the first holder never took the lease")
        let content = String(decoding: FileManager.default.contents(atPath: locks + "/" + leaseFile)!, as: UTF8.self)
        #expect(content.contains("/\(holder.0.processIdentifier) "), "the lease names its holder: \(content)")
        kill(holder.0.processIdentifier, SIGKILL)
        let killed = await Self.finish(holder)
        #expect(killed.status != 0 && killed.stdout.isEmpty)

        // The next holder waits out the dead holder's lease (10 s after its last renewal), then refreshes once.
        try real.write(to: URL(fileURLWithPath: profile))
        let before = provider.count("token.refresh_token")
        let next = await CLI.run(["token"] + Self.store, home: home)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(provider.count("token.refresh_token") == before + 1)
        #expect(FileManager.default.contents(atPath: locks + "/" + leaseFile) == Data(), "released")
    }
}
