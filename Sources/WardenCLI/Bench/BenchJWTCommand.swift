import Foundation
import WardenCrypto
import WardenJOSE

struct BenchJWTCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "jwt",
        abstract:
            "µs per full JWT verification (parse, key lookup, signature, claims) next to the raw signature verify.",
        discussion: "scripts/bench-jwt runs this with --export and times PyJWT and joserfc on the same tokens.",
        options: [
            .value("seconds", "S", "Time per measurement (default 1)."),
            .value("export", "DIR", "Write the tokens, public keys and HMAC secret for peer benchmarks."),
            .value("algorithm", "A", "Only this algorithm (HS256, RS256, ES256, EdDSA)."),
            .flag("json", "Print JSON."),
        ])

    struct Row {
        let algorithm: String
        let full: Double
        let raw: Double
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let seconds = Double(try arguments.integer("seconds", range: 1...60) ?? 1)
        if let warning = Bench.buildWarning { io.err(warning) }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let payload =
            #"{"iss":"https://id.example.com","aud":"app","sub":"248289761001","exp":1800000300,"iat":1799999990,"scope":"openid profile"}"#
        let secret = try SecureRandom().bytes(count: 32)
        let ec = try ECPrivateKey()
        let ed = try Ed25519PrivateKey()
        let rsa = try RSAPrivateKey(generatingBits: 2048)

        func token(_ alg: String, _ sign: ([UInt8]) throws -> [UInt8]) throws -> (String, [UInt8], [UInt8]) {
            let input =
                Base64URL.encode(Array(#"{"alg":"\#(alg)","kid":"k1","typ":"JWT"}"#.utf8)) + "."
                + Base64URL.encode(Array(payload.utf8))
            let signature = try sign(Array(input.utf8))
            return (input + "." + Base64URL.encode(signature), Array(input.utf8), signature)
        }
        let hs = try token("HS256") { HMAC.authenticationCode(for: $0, key: secret, hash: .sha256) }
        let rs = try token("RS256") { try rsa.signature(for: $0, hash: .sha256) }
        let es = try token("ES256") { try ec.signature(for: $0) }
        let eddsa = try token("EdDSA") { try ed.signature(for: $0) }

        let policy = JWTVerifier.standardPolicy(issuer: "https://id.example.com", audience: "app")
        func verifier(_ key: JWK, _ alg: JWSAlgorithm) throws -> JWTVerifier {
            JWTVerifier(keys: try JWKSet(keys: [key]), allowedAlgorithms: [alg], policy: policy, now: { now })
        }
        let hsKey = try JWK(json: #"{"kty":"oct","kid":"k1","k":"\#(Base64URL.encode(secret))"}"#)
        let hmacKey = HMACKey(secret, hash: .sha256)
        let rsaJWK = try JWK(publicKey: rsa.publicKey, keyID: "k1", algorithm: nil)
        let cases: [(String, (String, [UInt8], [UInt8]), JWTVerifier, () throws -> Bool)] = [
            ("HS256", hs, try verifier(hsKey, .hs256), { hmacKey.isValid(hs.2, for: hs.1) }),
            (
                "RS256", rs, try verifier(rsaJWK, .rs256),
                {
                    try rsaJWK.publicKey!.isValidSignature(rs.2, for: rs.1, algorithm: .rsaPKCS1v15(.sha256))
                }
            ),
            (
                "ES256", es, try verifier(try JWK(publicKey: ec.publicKey, keyID: "k1", algorithm: nil), .es256),
                {
                    try ec.publicKey.isValidSignature(es.2, for: es.1, algorithm: .ecdsa(.sha256))
                }
            ),
            (
                "EdDSA", eddsa, try verifier(try JWK(publicKey: ed.publicKey, keyID: "k1", algorithm: nil), .edDSA),
                {
                    try ed.publicKey.isValidSignature(eddsa.2, for: eddsa.1, algorithm: .ed25519)
                }
            ),
        ]
        var rows: [Row] = []
        let only = arguments.value("algorithm")
        for (name, token, verifier, raw) in cases where only == nil || only == name {
            _ = try verifier.verify(token.0)
            guard try raw() else { throw CLIError.usage("raw verification failed", code: "internal") }
            let (full, rawResult) = try Bench.interleaved(
                seconds: 2 * seconds, { _ = try verifier.verify(token.0) }, { _ = try raw() })
            rows.append(Row(algorithm: name, full: full.microseconds, raw: rawResult.microseconds))
        }
        if let directory = arguments.value("export") {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let export: [String: Any] = [
                "now": 1_800_000_000, "issuer": "https://id.example.com", "audience": "app",
                "tokens": ["HS256": hs.0, "RS256": rs.0, "ES256": es.0, "EdDSA": eddsa.0],
                "keys": [
                    "HS256": Base64URL.encode(secret), "RS256": pem(rsa.publicKey), "ES256": pem(ec.publicKey),
                    "EdDSA": pem(ed.publicKey),
                ],
            ]
            // warden:ignore secret-in-file test vectors signed with throwaway keys, exported only on request (--export)
            try Data(JSONOutput.string(export).utf8).write(
                to: URL(fileURLWithPath: directory).appendingPathComponent("tokens.json"))
        }
        if arguments.has("json") {
            io.out(
                JSONOutput.string([
                    "results": rows.map {
                        [
                            "algorithm": $0.algorithm, "full_us": ($0.full * 1000).rounded() / 1000,
                            "raw_us": ($0.raw * 1000).rounded() / 1000,
                        ]
                    }
                ]))
        } else {
            io.out("algorithm  full verify µs  raw signature µs  overhead")
            for row in rows {
                io.out(
                    row.algorithm.padding(toLength: 11, withPad: " ", startingAt: 0)
                        + Bench.format(row.full, decimals: 2).padding(toLength: 15, withPad: " ", startingAt: 0)
                        + Bench.format(row.raw, decimals: 2).padding(toLength: 18, withPad: " ", startingAt: 0)
                        + Bench.format((row.full / row.raw - 1) * 100) + "%")
            }
        }
        return ExitCode.success
    }

    static func pem(_ key: PublicKey) -> String {
        "-----BEGIN PUBLIC KEY-----\n" + Data(key.spkiDER).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END PUBLIC KEY-----\n"
    }
}
