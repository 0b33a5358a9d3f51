import Foundation
import WardenCrypto
import WardenStorage

/// `warden bench seal`: the data-at-rest primitives next to `openssl speed` in the same run.
struct BenchSealCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "seal",
        abstract: "AEAD seal throughput, X25519 and HKDF next to 'openssl speed' in the same run.",
        options: [
            .value("seconds", "S", "Time per measurement (default 1)."),
            .flag("no-openssl", "Do not run 'openssl speed' for comparison."),
            .flag("json", "Print the results as JSON."),
        ])

    struct Row {
        let name: String
        /// Bytes per operation for throughput rows (MB/s), nil for operation rows (ops/s).
        let bytes: Int?
        let warden: Double
        var openssl: Double?
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let seconds = Double(try arguments.integer("seconds", range: 1...60) ?? 1)
        if let warning = Bench.buildWarning { io.err(warning) }
        var rows: [Row] = []
        for algorithm in AEADAlgorithm.allCases {
            let key = try AEADKey.generate(algorithm)
            for size in [1024, 16384] {
                let message = try SecureRandom().bytes(count: size)
                let rate = try Bench.measure("\(algorithm)-\(size)", seconds: seconds) {
                    _ = try key.seal(message)
                }.operationsPerSecond
                rows.append(Row(name: "\(algorithm) seal", bytes: size, warden: rate * Double(size)))
            }
        }
        // The sealed format: HKDF per message, then the AEAD, over 1 KiB.
        let master = try SecureRandom().bytes(count: 32)
        let keyID = try SecureRandom().bytes(count: 16)
        let blob = try SecureRandom().bytes(count: 1024)
        rows.append(
            Row(
                name: "sealed format (1 KiB)", bytes: nil,
                warden: try Bench.measure("sealed", seconds: seconds) {
                    _ = try SealedFormat.seal(
                        blob, context: "bench", master: master, keyID: keyID, algorithm: .aes256GCM)
                }.operationsPerSecond))
        rows.append(
            Row(
                name: "HKDF-SHA256 (32 B)", bytes: nil,
                warden: try Bench.measure("hkdf", seconds: seconds) {
                    _ = try HKDF.deriveKey(from: master, salt: keyID, info: keyID, byteCount: 32)
                }.operationsPerSecond))
        let alice = try X25519PrivateKey()
        let bob = try X25519PrivateKey().publicKey
        rows.append(
            Row(
                name: "X25519 agreement", bytes: nil,
                warden: try Bench.measure("x25519", seconds: seconds) { _ = try alice.sharedSecret(with: bob) }
                    .operationsPerSecond))

        if !arguments.has("no-openssl") {
            let reference = openSSLSpeed(seconds: Int(seconds))
            for index in rows.indices {
                let row = rows[index]
                let key = row.bytes.map { "\(row.name.split(separator: " ")[0])-\($0)" } ?? row.name
                rows[index].openssl = reference[key]
            }
        }

        func unit(_ row: Row, _ value: Double) -> Double { row.bytes == nil ? value : value / 1e6 }
        if arguments.has("json") {
            io.out(
                JSONOutput.string([
                    "results": rows.map { row -> [String: Any] in
                        var entry: [String: Any] = [
                            "name": row.name, "unit": row.bytes == nil ? "ops/s" : "MB/s",
                            "warden": (unit(row, row.warden) * 10).rounded() / 10,
                        ]
                        if let bytes = row.bytes { entry["message_bytes"] = bytes }
                        if let openssl = row.openssl {
                            entry["openssl"] = (unit(row, openssl) * 10).rounded() / 10
                            entry["ratio"] = (row.warden / openssl * 1000).rounded() / 1000
                        }
                        return entry
                    }
                ]))
            return ExitCode.success
        }
        io.out("sealing at rest: Warden draws a random nonce per message; openssl speed -aead runs a TLS-like sequence")
        io.out("operation".padding(toLength: 34, withPad: " ", startingAt: 0) + "warden         openssl         ratio")
        for row in rows {
            let label = row.name + (row.bytes.map { " \($0 / 1024) KiB" } ?? "")
            var line = label.padding(toLength: 34, withPad: " ", startingAt: 0)
            let suffix = row.bytes == nil ? " ops/s" : " MB/s"
            line += (Bench.format(unit(row, row.warden), decimals: 0) + suffix).padding(
                toLength: 15, withPad: " ", startingAt: 0)
            if let openssl = row.openssl {
                line += (Bench.format(unit(row, openssl), decimals: 0) + suffix).padding(
                    toLength: 16, withPad: " ", startingAt: 0)
                line += Bench.format(row.warden / openssl, decimals: 2) + "x"
            } else {
                line += "-"
            }
            io.out(line)
        }
        return ExitCode.success
    }

    /// `openssl speed -mr` rates: bytes per second for `ALGORITHM-SIZE` keys, operations per second for X25519.
    static func openSSLSpeed(seconds: Int) -> [String: Double] {
        var result: [String: Double] = [:]
        for (name, evp) in [("aes-256-gcm", "aes-256-gcm"), ("chacha20-poly1305", "chacha20-poly1305")] {
            for size in [1024, 16384] {
                guard
                    let output = Bench.shell(
                        "openssl speed -seconds \(seconds) -mr -aead -evp \(evp) -bytes \(size) 2>/dev/null")
                else { continue }
                for line in output.split(separator: "\n") where line.hasPrefix("+F:") {
                    let fields = line.split(separator: ":")
                    if fields.count >= 4, let rate = Double(fields[3]) { result["\(name)-\(size)"] = rate }
                }
            }
        }
        if let output = Bench.shell("openssl speed -seconds \(seconds) -mr ecdhx25519 2>/dev/null") {
            for line in output.split(separator: "\n") where line.hasPrefix("+F5:") {
                let fields = line.split(separator: ":")
                if fields.count >= 4, let rate = Double(fields[3]) { result["X25519 agreement"] = rate }
            }
        }
        return result
    }
}
