import Foundation
import WardenCrypto
import WardenJOSE
import WardenLocalProvider
import WardenPasskeys
import WardenTestSupport

struct BenchPasskeyCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "passkey",
        abstract: "µs per ES256 passkey sign-in verification next to the raw ES256 signature verify.",
        discussion: """
            'assertion' parses the response JSON and runs every §7.2 check; 'checks' starts from parsed bytes;
            'raw' is the ES256 verify of the same message alone. scripts/bench-passkey runs this with --export and
            times py_webauthn on the same response. With --challenge-store, whole sign-ins (issue the challenge into
            the store, redeem it, verify the response) per second through that store next to the in-memory one, one
            at a time and 8 at once.
            """,
        options: [
            .value("seconds", "S", "Time per measurement (default 1)."),
            .value("challenge-store", "URL", "Also time sign-ins through this shared store (redis://...)."),
            .value("export", "DIR", "Write the response, key and challenge for the py_webauthn benchmark."),
            .flag("json", "Print JSON."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let seconds = Double(try arguments.integer("seconds", range: 1...60) ?? 1)
        if let warning = Bench.buildWarning { io.err(warning) }
        let rp = try RelyingParty(id: "example.com", origins: ["https://example.com"])
        let authenticator = try LocalPasskeyAuthenticator()
        let cose = try authenticator.publicKey
        let credentialID = authenticator.credentialID
        let challenge = try SecureRandom().bytes(count: 32)
        let response = try authenticator.assertion(
            rpID: "example.com", origin: "https://example.com", challenge: challenge, count: 8)
        let message = response.authenticatorData + HashFunction.sha256.hash(response.clientDataJSON)
        let raw = try ECDSASignature.raw(fromDER: response.signature, curve: .p256)
        let json = Array(response.json().utf8)
        let record = CredentialRecord(
            id: credentialID, publicKey: cose.encoded, algorithm: .es256, signCount: 7, userHandle: [0x75, 0x31])

        func full() throws {
            _ = try rp.verifyAssertion(
                try AssertionResponse(json: json), challenge: challenge, credential: record,
                allowCredentials: [credentialID], requireUserVerification: true)
        }
        func checks() throws {
            _ = try rp.verifyAssertion(
                response, challenge: challenge, credential: record, allowCredentials: [credentialID],
                requireUserVerification: true)
        }
        func rawVerify() throws {
            guard try cose.publicKey.isValidSignature(raw, for: message, algorithm: .ecdsa(.sha256)) else {
                throw CLIError.usage("raw verification failed", code: "internal")
            }
        }
        try full()
        try rawVerify()
        let (fullResult, rawResult) = try Bench.interleaved(seconds: 2 * seconds, full, rawVerify)
        let (checksResult, _) = try Bench.interleaved(seconds: seconds, checks, rawVerify)
        let rows = [
            ("assertion", fullResult.microseconds), ("checks", checksResult.microseconds),
            ("raw", rawResult.microseconds),
        ]
        var ceremonies: [(String, Double)] = []
        if let shared = try SharedStores.challengeStore(arguments, io: io) {
            // One sign-in: the challenge enters the store, is redeemed from it, and the response is verified.
            let value = challenge
            let verify: @Sendable () throws -> Void = {
                _ = try rp.verifyAssertion(
                    try AssertionResponse(json: json), challenge: value, credential: record,
                    allowCredentials: [credentialID], requireUserVerification: true)
            }
            func signIn(_ store: any ChallengeStore, binding: String) -> @Sendable () async throws -> Void {
                {
                    let binding = binding + "-" + UUID().uuidString  // concurrent sign-ins: one challenge each
                    let issued = PasskeyChallenge(
                        restoring: value + Array(binding.utf8), binding: binding, ceremony: .authentication,
                        expires: Date().addingTimeInterval(60))
                    try await store.put(issued)
                    _ = try await store.redeem(issued.value, binding: binding, ceremony: .authentication)
                    try verify()
                }
            }
            let memory = InMemoryChallengeStore(capacity: 100_000)
            do {
                for concurrency in [1, 8] {
                    let (local, remote) = try await Bench.interleavedAsync(
                        seconds: 2 * seconds, concurrency: concurrency, signIn(memory, binding: "bench"),
                        signIn(shared, binding: "bench"))
                    ceremonies.append(("memory_x\(concurrency)", local.operationsPerSecond))
                    ceremonies.append(("redis_x\(concurrency)", remote.operationsPerSecond))
                }
            } catch let error as PasskeyError {
                throw PasskeyInput.rejected(error)
            }
        }
        if let directory = arguments.value("export") {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let export: [String: Any] = [
                "response": String(decoding: json, as: UTF8.self), "challenge": Base64URL.encode(challenge),
                "publicKey": Base64URL.encode(cose.encoded), "signCount": 7, "rpId": "example.com",
                "origin": "https://example.com",
            ]
            try Data(JSONOutput.string(export).utf8).write(
                to: URL(fileURLWithPath: directory).appendingPathComponent("passkey.json"))
        }
        if arguments.has("json") {
            var object: [String: Any] = [:]
            for (name, value) in rows { object[name + "_us"] = (value * 1000).rounded() / 1000 }
            for (name, value) in ceremonies { object["signins_per_s_" + name] = value.rounded() }
            io.out(JSONOutput.string(object))
        } else {
            io.out("ES256 sign-in verification (µs)")
            for (name, value) in rows {
                io.out(
                    name.padding(toLength: 11, withPad: " ", startingAt: 0) + Bench.format(value, decimals: 2)
                        + String(format: "   (%.2fx raw)", value / rawResult.microseconds))
            }
            if !ceremonies.isEmpty {
                io.out("whole sign-ins per second (issue + redeem + verify), same run")
                for (name, value) in ceremonies {
                    io.out(name.padding(toLength: 11, withPad: " ", startingAt: 0) + Bench.format(value, decimals: 0))
                }
            }
        }
        return ExitCode.success
    }
}
