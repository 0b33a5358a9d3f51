import Foundation

/// A minimal benchmark harness: runs an operation for a time budget and reports the rate.
enum Bench {
    struct Result {
        let name: String
        let operationsPerSecond: Double
        var microseconds: Double { 1_000_000 / operationsPerSecond }
    }

    /// Runs `operation` in batches until `seconds` have passed (after a short warm-up).
    static func measure(_ name: String, seconds: Double, _ operation: () throws -> Void) rethrows -> Result {
        let clock = ContinuousClock()
        for _ in 0..<10 { try operation() }
        var count = 0
        var batch = 1
        let start = clock.now
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        while clock.now - start < budget {
            for _ in 0..<batch { try operation() }
            count += batch
            batch = min(batch * 2, 4096)
        }
        let elapsed = clock.now - start
        let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Result(name: name, operationsPerSecond: Double(count) / secondsElapsed)
    }

    /// Measures two operations in interleaved rounds and keeps each one's best round, so that frequency
    /// changes and neighbours on a shared machine hit both alike.
    static func interleaved(seconds: Double, rounds: Int = 6, _ a: () throws -> Void, _ b: () throws -> Void) rethrows
        -> (Result, Result)
    {
        var bestA = Result(name: "a", operationsPerSecond: 0)
        var bestB = Result(name: "b", operationsPerSecond: 0)
        let slice = seconds / Double(rounds)
        for _ in 0..<rounds {
            let ra = try measure("a", seconds: slice, a)
            let rb = try measure("b", seconds: slice, b)
            if ra.operationsPerSecond > bestA.operationsPerSecond { bestA = ra }
            if rb.operationsPerSecond > bestB.operationsPerSecond { bestB = rb }
        }
        return (bestA, bestB)
    }

    /// Runs `operation` from `concurrency` tasks at once until `seconds` have passed (after a warm-up of each):
    /// completed operations per second, all tasks together.
    static func measureAsync(
        _ name: String, seconds: Double, concurrency: Int = 1, _ operation: @escaping @Sendable () async throws -> Void
    ) async throws -> Result {
        for _ in 0..<10 { try await operation() }
        let clock = ContinuousClock()
        let start = clock.now
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        let count = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var done = 0
                    while clock.now - start < budget {
                        try await operation()
                        done += 1
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = clock.now - start
        let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Result(name: name, operationsPerSecond: Double(count) / secondsElapsed)
    }

    /// ``measureAsync(_:seconds:concurrency:_:)`` of two operations in interleaved rounds, each one's best round.
    static func interleavedAsync(
        seconds: Double, rounds: Int = 4, concurrency: Int = 1, _ a: @escaping @Sendable () async throws -> Void,
        _ b: @escaping @Sendable () async throws -> Void
    ) async throws -> (Result, Result) {
        var bestA = Result(name: "a", operationsPerSecond: 0)
        var bestB = Result(name: "b", operationsPerSecond: 0)
        let slice = seconds / Double(rounds)
        for _ in 0..<rounds {
            let ra = try await measureAsync("a", seconds: slice, concurrency: concurrency, a)
            let rb = try await measureAsync("b", seconds: slice, concurrency: concurrency, b)
            if ra.operationsPerSecond > bestA.operationsPerSecond { bestA = ra }
            if rb.operationsPerSecond > bestB.operationsPerSecond { bestB = rb }
        }
        return (bestA, bestB)
    }

    static var buildWarning: String? {
        #if DEBUG
            return "warning: this is a debug build; benchmark with 'swift run -c release warden bench ...'"
        #else
            return nil
        #endif
    }

    /// Runs a shell command and returns its standard output (nil when it cannot run).
    static func shell(_ command: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    static func format(_ value: Double, decimals: Int = 1) -> String { String(format: "%.\(decimals)f", value) }
}

struct BenchCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "bench",
        abstract: "Micro-benchmarks (build with -c release).",
        subcommands: [
            BenchCryptoCommand.self, BenchJWTCommand.self, BenchOAuth1Command.self, BenchRedactCommand.self,
            BenchSealCommand.self,
            BenchRefreshCommand.self, BenchPasskeyCommand.self, BenchAuditCommand.self, BenchDPoPCommand.self,
        ])
}
