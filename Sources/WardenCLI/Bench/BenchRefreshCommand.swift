import Foundation
import WardenCore
import WardenOAuth
import WardenSession
import WardenStorage

struct BenchRefreshCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "refresh",
        abstract: "Single-flight refresh under load: refreshes made and the latency coalescing adds per caller.",
        options: [
            .value("callers", "N", "Concurrent callers (default 10000)."),
            .value("refresh-ms", "MS", "Simulated token-endpoint latency (default 50)."),
            .flag("json", "Print JSON."),
        ])

    /// A token endpoint that takes a fixed time and records when it answered.
    actor TimedRefresher: TokenRefresher {
        let latency: Duration
        var count = 0
        var finishedAt: ContinuousClock.Instant?
        init(latency: Duration) { self.latency = latency }
        func refresh(refreshToken: String, scope: String?) async throws(OAuthError) -> TokenResponse {
            count += 1
            try? await Task.sleep(for: latency)
            finishedAt = ContinuousClock.now
            return TokenResponse(
                accessToken: "bench-access-token", expiresIn: 3600, refreshToken: "bench-refresh-2", idToken: nil,
                scope: nil)
        }
        func revoke(token: String, hint: String) async throws(OAuthError) {}
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let callers = try arguments.integer("callers", range: 1...100_000) ?? 10_000
        let refreshMS = try arguments.integer("refresh-ms", range: 0...10_000) ?? 50
        if let warning = Bench.buildWarning { io.err(warning) }
        let refresher = TimedRefresher(latency: .milliseconds(refreshMS))
        let expired = TokenSet(
            accessToken: "bench-access-token-0", refreshToken: "bench-refresh-1", idToken: nil,
            expiresAt: Date().addingTimeInterval(-1), scope: nil, issuer: "https://bench.invalid")
        let session = AuthSession(
            tokens: expired, store: InMemoryStore(), service: "bench", account: "bench", refresher: refresher)
        // Each caller's return time after the refresh answered = what coalescing (and resuming) adds for it.
        let returns = await withTaskGroup(of: ContinuousClock.Instant.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    _ = try? await session.validAccessToken(minTTL: 60)
                    return ContinuousClock.now
                }
            }
            return await group.reduce(into: [ContinuousClock.Instant]()) { $0.append($1) }
        }
        guard let answered = await refresher.finishedAt else {
            throw CLIError.usage("the refresh did not run", code: "internal")
        }
        let added = returns.map { max(0, Self.milliseconds($0 - answered)) }.sorted()
        let p50 = added[added.count / 2]
        let p99 = added[min(added.count - 1, Int(Double(added.count) * 0.99))]
        let refreshes = await refresher.count
        if arguments.has("json") {
            io.out(
                JSONOutput.string([
                    "callers": callers, "refreshes": refreshes, "p50_added_ms": p50, "p99_added_ms": p99,
                ]))
        } else {
            io.out(
                "\(callers) concurrent callers, \(refreshes) refresh(es); latency added after the refresh answered: p50 \(Bench.format(p50, decimals: 3)) ms, p99 \(Bench.format(p99, decimals: 3)) ms (target p99 < 1 ms)"
            )
        }
        return refreshes == 1 ? ExitCode.success : ExitCode.rejected
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
