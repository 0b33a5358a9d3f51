import Foundation
import WardenCore
import WardenOAuth

/// `warden dpop keygen / proof / verify` (RFC 9449).
struct DPoPCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "dpop", abstract: "DPoP (RFC 9449): make a proof key, sign proofs, verify them as a server would.",
        subcommands: [DPoPKeygenCommand.self, DPoPProofCommand.self, DPoPVerifyCommand.self])
}

struct DPoPKeygenCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "keygen", abstract: "Write a new P-256 DPoP key (PKCS#8 PEM, mode 0600) and print its thumbprint.",
        arguments: "FILE", discussion: "An existing FILE is never overwritten (exit 2).")

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let path = try arguments.singlePositional("FILE")
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CLIError.usage("'\(path)' exists; refusing to overwrite a key", code: "file_exists")
        }
        let key = try SoftwareDPoPKey()
        let pem = Data(key.pkcs8PEM().unredacted().utf8)
        guard FileManager.default.createFile(atPath: path, contents: pem, attributes: [.posixPermissions: 0o600]) else {
            throw CLIError.usage("cannot write '\(path)'", code: "unwritable_file")
        }
        io.out(JSONOutput.string(["jkt": key.thumbprint, "file": path]))
        return ExitCode.success
    }
}

struct DPoPProofCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "proof", abstract: "Print a DPoP proof JWT for one request.",
        options: [
            .value("key", "FILE", "The DPoP key (from 'warden dpop keygen').").required(),
            .value("htm", "METHOD", "The request's HTTP method.").required(),
            .value("htu", "URL", "The request's URL (query and fragment are dropped).").required(),
            .value("access-token", "T", "The access token the request presents (adds ath); '-' reads stdin."),
            .value("nonce", "N", "The server's DPoP-Nonce."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let pem = String(decoding: try Input.file(try arguments.required("key"), io: io), as: UTF8.self)
        let key: SoftwareDPoPKey
        do { key = try SoftwareDPoPKey(pem: pem) } catch {
            throw CLIError.usage("--key is not a P-256 private key", code: "invalid_key")
        }
        let method = try arguments.required("htm")
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter }) else { throw CLIError.usage("--htm is not a method") }
        guard let url = URL(string: try arguments.required("htu")), DPoPURL.normalize(url) != nil else {
            throw CLIError.usage("--htu must be an absolute http(s) URL")
        }
        let token = arguments.value("access-token").map { Input.text($0, io: io) }
        let proof = try DPoPProofFactory(key: key).proof(
            method: method, url: url, accessToken: token, nonce: arguments.value("nonce"))
        io.out(proof)
        return ExitCode.success
    }
}

struct DPoPVerifyCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "verify", abstract: "Verify a DPoP proof as a resource server or token endpoint would.",
        arguments: "PROOF",
        discussion: """
            Exit 0 valid (prints {"jkt","jti","iat"}), 1 refused (the reason on stderr), 2 invocation error, 75 the
            replay cache could not answer (retry). PROOF '-' reads stdin. With --replay-cache, processes sharing one
            Redis accept a proof once between them (password from WARDEN_REDIS_PASSWORD).
            """,
        options: [
            .value("htm", "METHOD", "The request's HTTP method.").required(),
            .value("htu", "URL", "The request's URL.").required(),
            .value("access-token", "T", "The access token presented with the proof (ath must match)."),
            .value("nonce", "N", "The nonce the server issued (required in the proof)."),
            .value("jkt", "THUMBPRINT", "The token's cnf.jkt (the proof key must match)."),
            .value("now", "UNIX", "Verify as of this time (seconds since 1970)."),
            .value("max-age", "SEC", "Oldest accepted iat (default 300)."),
            .value("replay-cache", "URL", "A shared jti replay cache: redis://[user@]host[:port][/db]."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let proof = Input.text(try arguments.singlePositional("PROOF"), io: io)
        let method = try arguments.required("htm")
        guard let url = URL(string: try arguments.required("htu")), DPoPURL.normalize(url) != nil else {
            throw CLIError.usage("--htu must be an absolute http(s) URL")
        }
        let now = try arguments.integer("now", range: 0...Int(Int32.max) * 2).map {
            Date(timeIntervalSince1970: TimeInterval($0))
        }
        let maxAge = try arguments.integer("max-age", range: 1...86_400) ?? 300
        let verifier = DPoPVerifier(
            replayCache: try SharedStores.replayCache(arguments, io: io), maxAge: TimeInterval(maxAge),
            now: { now ?? Date() })
        do {
            let verified = try await verifier.verify(
                proof, method: method, url: url, expectedNonce: arguments.value("nonce"),
                accessToken: arguments.value("access-token").map { Input.text($0, io: io) },
                boundThumbprint: arguments.value("jkt"))
            io.out(
                JSONOutput.string([
                    "jkt": verified.thumbprint, "jti": verified.jti,
                    "iat": Int(verified.issuedAt.timeIntervalSince1970),
                ]))
            return ExitCode.success
        } catch {
            // Only a cache that could not answer is "try again" (75); a proof refused, use_dpop_nonce included, is 1.
            guard error.code == .replayCacheUnavailable else { throw CLIError.rejected(error.codeName, error.reason) }
            throw CLIError.from(error)
        }
    }
}
