import Foundation
import WardenCore

struct BenchRedactCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "redact",
        abstract: "MB/s for redacting a 1 MB log of mixed URLs, headers and JSON.",
        options: [.value("seconds", "S", "Time per measurement (default 2)."), .flag("json", "Print JSON.")])

    /// A deterministic 1 MiB log mixing the shapes the redactor handles, with secrets in about 1 line in 3.
    static func sampleLog(bytes: Int = 1 << 20) -> String {
        let lines = [
            "2026-11-30T10:00:00Z info GET https://api.example.com/v1/users/42/profile?fields=name,email 200 12ms",
            "2026-11-30T10:00:01Z debug callback com.example.app:/oauth?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj",
            "2026-11-30T10:00:02Z debug > Authorization: Bearer mF_9.B5f-4.1JqM8b2sT3wY6zA0cE5gH2jK7",
            "2026-11-30T10:00:03Z info < {\"token_type\":\"Bearer\",\"expires_in\":3600,\"access_token\":\"2YotnFZFEjr1zCsicMWpAA\",\"scope\":\"openid profile\"}",
            "2026-11-30T10:00:04Z info the session was refreshed after 1 attempt; next refresh in 3540 s",
            "2026-11-30T10:00:05Z warning retrying POST https://api.example.com/v1/orders after 503 (Retry-After: 2)",
            "2026-11-30T10:00:06Z debug < Set-Cookie: sid=31d4d96e407aad42; Path=/; Secure; HttpOnly",
            "2026-11-30T10:00:07Z info {\"user\":{\"id\":42,\"name\":\"Alice\",\"settings\":{\"theme\":\"dark\",\"locale\":\"en-GB\"}}}",
            "2026-11-30T10:00:08Z debug id_token eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJlLWJ5dGVzLWhlcmU",
        ]
        var text = ""
        text.reserveCapacity(bytes + 256)
        var index = 0
        while text.utf8.count < bytes {
            text += lines[index % lines.count] + "\n"
            index += 1
        }
        return text
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let seconds = Double(try arguments.integer("seconds", range: 1...60) ?? 2)
        if let warning = Bench.buildWarning { io.err(warning) }
        let log = sampleLog()
        let megabytes = Double(log.utf8.count) / 1_000_000
        let redactor = Redactor.standard
        var sink = 0
        let result = Bench.measure("redact", seconds: seconds) { sink &+= redactor.redact(log).utf8.count }
        let throughput = result.operationsPerSecond * megabytes
        if arguments.has("json") {
            io.out(JSONOutput.string(["input_bytes": log.utf8.count, "mb_per_s": (throughput * 10).rounded() / 10]))
        } else {
            io.out(
                "redact: \(Bench.format(throughput)) MB/s over a \(log.utf8.count)-byte mixed log (target ≥ 200 MB/s)")
        }
        return sink > 0 ? ExitCode.success : ExitCode.rejected
    }
}
