import Foundation
import WardenCrypto
import WardenJOSE
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
        // One client key makes them all: its per-key quota must hold every one (the default 10,000 would forget
        // the oldest and refuse the rest as no newer than what it forgot, which is the quota working).
        let verifier = DPoPVerifier(
            replayCache: InMemoryDPoPReplayCache(capacity: count + 1, perKeyCapacity: count + 1))
        let clock = ContinuousClock()
        let start = clock.now
        for proof in proofs {
            _ = try await verifier.verify(proof, method: "GET", url: url, accessToken: "at-123")
        }
        let elapsed = clock.now - start
        let verifyMicroseconds =
            (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(count)
        let ratio = verifyMicroseconds / rawVerify.microseconds
        // The CPU-amplification attack: a proof whose jwk is a 16,384-bit RSA key with a 64-bit exponent. It is
        // refused on the key's size, before any signature check: what refusing it costs, next to an ES256 verify.
        let big = Base64URL.encode([0xC1] + [UInt8](repeating: 0xFF, count: 2047))
        let exponent = Base64URL.encode([UInt8](repeating: 0xFF, count: 8))
        let header = #"{"typ":"dpop+jwt","alg":"RS256","jwk":{"kty":"RSA","n":"\#(big)","e":"\#(exponent)"}}"#
        let payload =
            #"{"jti":"x","htm":"GET","htu":"https://api.example.com/resource","iat":\#(Int(Date().timeIntervalSince1970))}"#
        let oversized =
            Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "."
            + Base64URL.encode([UInt8](repeating: 7, count: 2048))
        let refusals = max(100, count / 10)
        let refuseStart = clock.now
        for _ in 0..<refusals { _ = try? await verifier.verify(oversized, method: "GET", url: url) }
        let refuseElapsed = clock.now - refuseStart
        let refuseMicroseconds =
            (Double(refuseElapsed.components.seconds) * 1e6 + Double(refuseElapsed.components.attoseconds) / 1e12)
            / Double(refusals)
        if arguments.has("json") {
            io.out(
                JSONOutput.string([
                    "us_raw_es256_sign": rawSign.microseconds, "us_proof_create": makeProof.microseconds,
                    "us_raw_es256_verify": rawVerify.microseconds, "us_proof_verify": verifyMicroseconds,
                    "verify_ratio": ratio, "us_refuse_rsa16384_proof": refuseMicroseconds,
                    "refuse_ratio": refuseMicroseconds / rawVerify.microseconds,
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
            io.out(
                "refuse RSA-16384 jwk  \(Bench.format(refuseMicroseconds)) µs  (\(Bench.format(refuseMicroseconds / rawVerify.microseconds, decimals: 2))x raw ES256 verify; refused before the signature)"
            )
        }
        return ExitCode.success
    }
}
