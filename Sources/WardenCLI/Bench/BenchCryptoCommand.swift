import Foundation
import WardenCrypto

struct BenchCryptoCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "crypto",
        abstract: "Verify operations per second next to 'openssl speed' in the same run.",
        options: [
            .value("seconds", "S", "Time per measurement (default 1)."),
            .flag("no-openssl", "Do not run 'openssl speed' for comparison."),
            .flag("json", "Print the results as JSON."),
        ])

    struct Row {
        let name: String
        let warden: Double
        var openssl: Double?
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let seconds = Double(try arguments.integer("seconds", range: 1...60) ?? 1)
        if let warning = Bench.buildWarning { io.err(warning) }
        let message = try SecureRandom().bytes(count: 1024)
        let rsa = try RSAPrivateKey(generatingBits: 2048)
        let rs256 = try rsa.signature(for: message, hash: .sha256)
        let ps256 = try rsa.pssSignature(for: message, hash: .sha256)
        let p256 = try ECPrivateKey(curve: .p256)
        let es256 = try p256.signature(for: message)
        let p384 = try ECPrivateKey(curve: .p384)
        let es384 = try p384.signature(for: message)
        let ed = try Ed25519PrivateKey()
        let eddsa = try ed.signature(for: message)
        let hmacKey = HMACKey(try SecureRandom().bytes(count: 32), hash: .sha256)

        func verify(_ key: PublicKey, _ signature: [UInt8], _ algorithm: SignatureAlgorithm) throws {
            guard try key.isValidSignature(signature, for: message, algorithm: algorithm) else {
                throw CLIError.usage("benchmark signature did not verify", code: "internal")
            }
        }
        var rows: [Row] = []
        rows.append(
            Row(
                name: "RS256 (RSA-2048)",
                warden: try Bench.measure("rs256", seconds: seconds) {
                    try verify(rsa.publicKey, rs256, .rsaPKCS1v15(.sha256))
                }.operationsPerSecond))
        rows.append(
            Row(
                name: "PS256 (RSA-2048)",
                warden: try Bench.measure("ps256", seconds: seconds) {
                    try verify(rsa.publicKey, ps256, .rsaPSS(.sha256))
                }.operationsPerSecond))
        rows.append(
            Row(
                name: "ES256 (P-256)",
                warden: try Bench.measure("es256", seconds: seconds) {
                    try verify(p256.publicKey, es256, .ecdsa(.sha256))
                }.operationsPerSecond))
        rows.append(
            Row(
                name: "ES384 (P-384)",
                warden: try Bench.measure("es384", seconds: seconds) {
                    try verify(p384.publicKey, es384, .ecdsa(.sha384))
                }.operationsPerSecond))
        rows.append(
            Row(
                name: "Ed25519",
                warden: try Bench.measure("ed25519", seconds: seconds) {
                    try verify(ed.publicKey, eddsa, .ed25519)
                }.operationsPerSecond))
        rows.append(
            Row(
                name: "HMAC-SHA256",
                warden: Bench.measure("hmac", seconds: seconds) {
                    _ = hmacKey.authenticationCode(for: message)
                }.operationsPerSecond))

        if !arguments.has("no-openssl") {
            let reference = openSSLSpeed(seconds: Int(seconds))
            for index in rows.indices { rows[index].openssl = reference[index] }
        }

        if arguments.has("json") {
            io.out(
                JSONOutput.string([
                    "message_bytes": 1024,
                    "results": rows.map { row -> [String: Any] in
                        var entry: [String: Any] = ["name": row.name, "warden_ops_per_s": row.warden.rounded()]
                        if let openssl = row.openssl {
                            entry["openssl_ops_per_s"] = openssl.rounded()
                            entry["ratio"] = (row.warden / openssl * 1000).rounded() / 1000
                        }
                        return entry
                    },
                ]))
            return ExitCode.success
        }
        io.out("verify over a 1 KiB message (Warden hashes the message; openssl speed verifies a precomputed digest)")
        io.out("algorithm".padding(toLength: 20, withPad: " ", startingAt: 0) + "warden ops/s   openssl ops/s   ratio")
        for row in rows {
            var line = row.name.padding(toLength: 20, withPad: " ", startingAt: 0)
            line += Bench.format(row.warden, decimals: 0).padding(toLength: 15, withPad: " ", startingAt: 0)
            if let openssl = row.openssl {
                line += Bench.format(openssl, decimals: 0).padding(toLength: 16, withPad: " ", startingAt: 0)
                line += Bench.format(row.warden / openssl, decimals: 2) + "x"
            } else {
                line += "-"
            }
            io.out(line)
        }
        return ExitCode.success
    }

    /// Verify rates from `openssl speed -mr`, in the order of the rows (nil where unavailable).
    static func openSSLSpeed(seconds: Int) -> [Double?] {
        var result = [Double?](repeating: nil, count: 6)
        if let output = Bench.shell(
            "openssl speed -seconds \(seconds) -mr rsa2048 ecdsap256 ecdsap384 ed25519 2>/dev/null")
        {
            for line in output.split(separator: "\n") {
                let fields = line.split(separator: ":")
                if line.hasPrefix("+F2:"), fields.count >= 5, fields[2] == "2048" {
                    result[0] = Double(fields[4])
                    result[1] = Double(fields[4])  // openssl speed has no PSS row; PKCS#1 verify is the same RSA op
                } else if line.hasPrefix("+F4:"), fields.count >= 5 {
                    if fields[2] == "256" { result[2] = Double(fields[4]) }
                    if fields[2] == "384" { result[3] = Double(fields[4]) }
                } else if line.hasPrefix("+F6:"), fields.count >= 6, fields[3] == "Ed25519" {
                    result[4] = Double(fields[5])
                }
            }
        }
        if let output = Bench.shell("openssl speed -seconds \(seconds) -mr -bytes 1024 -hmac sha256 2>/dev/null") {
            for line in output.split(separator: "\n") where line.hasPrefix("+F:") {
                let fields = line.split(separator: ":")
                if fields.count >= 4, let bytesPerSecond = Double(fields[3]) { result[5] = bytesPerSecond / 1024 }
            }
        }
        return result
    }
}
