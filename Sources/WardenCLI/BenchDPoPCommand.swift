import Foundation
import WardenCrypto
import WardenOAuth

/// `warden bench dpop`: DPoP proof creation and verification next to raw ES256 sign and verify, same run.
struct BenchDPoPCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "dpop", abstract: "µs per DPoP proof made and verified, next to raw ES256 sign/verify (same run).",
        options: [
            .value("seconds", "S", "Time per measurement (default 2)."),
            .value("proofs", "N", "Distinct proofs verified (each jti once; default 20000)."),
            .flag("json", "Print JSON."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let seconds = Double(try arguments.integer("seconds", range: 1...60) ?? 2)
        let count = try arguments.integer("proofs", range: 100...1_000_000) ?? 20_000
        if let warning = Bench.buildWarning { io.err(warning) }
        let key = try SoftwareDPoPKey()
        let raw = try ECPrivateKey(curve: .p256)
        let message = Array(repeating: UInt8(0x61), count: 300)  // about a proof's signing input
        let factory = DPoPProofFactory(key: key)
        let url = URL(string: "https://api.example.com/resource")!
        let (rawSign, makeProof) = try Bench.interleaved(
            seconds: seconds, { _ = try raw.signature(for: message) },
            { _ = try factory.proof(method: "GET", url: url, accessToken: "at-123") })
        let signature = try raw.signature(for: message)
        let rawVerify = try Bench.measure("verify", seconds: seconds) {
            _ = try raw.publicKey.isValidSignature(signature, for: message, algorithm: .ecdsa(.sha256))
        }
        // Every verified proof is a new jti (the replay cache would refuse a repeat), made before the clock starts.
        let proofs = try (0..<count).map { _ in try factory.proof(method: "GET", url: url, accessToken: "at-123") }
        let verifier = DPoPVerifier(replayCache: InMemoryDPoPReplayCache(capacity: count + 1))
        let clock = ContinuousClock()
        let start = clock.now
        for proof in proofs {
            _ = try await verifier.verify(proof, method: "GET", url: url, accessToken: "at-123")
        }
        let elapsed = clock.now - start
        let verifyMicroseconds =
            (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(count)
        let ratio = verifyMicroseconds / rawVerify.microseconds
        if arguments.has("json") {
            io.out(
                JSONOutput.string([
                    "us_raw_es256_sign": rawSign.microseconds, "us_proof_create": makeProof.microseconds,
                    "us_raw_es256_verify": rawVerify.microseconds, "us_proof_verify": verifyMicroseconds,
                    "verify_ratio": ratio,
                ]))
        } else {
            io.out("raw ES256 sign        \(Bench.format(rawSign.microseconds)) µs")
            io.out(
                "DPoP proof create     \(Bench.format(makeProof.microseconds)) µs  (\(Bench.format(makeProof.microseconds / rawSign.microseconds, decimals: 2))x raw sign)"
            )
            io.out("raw ES256 verify      \(Bench.format(rawVerify.microseconds)) µs")
            io.out(
                "DPoP proof verify     \(Bench.format(verifyMicroseconds)) µs  (\(Bench.format(ratio, decimals: 2))x raw verify; \(count) distinct proofs, replay cache on)"
            )
        }
        return ExitCode.success
    }
}
