import Foundation
import WardenCore
import WardenJOSE
import WardenOAuth

struct JWTCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "jwt", abstract: "Decode or verify JSON Web Tokens.",
        subcommands: [JWTDecodeCommand.self, JWTVerifyCommand.self])
}

struct JWSCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "jws", abstract: "Verify compact JWS signatures (any payload).", subcommands: [JWSVerifyCommand.self])
}

/// Shared pieces of the token commands.
enum TokenInput {
    /// The TOKEN argument (`-` reads stdin, which is how tokens beyond argv limits are passed).
    static func token(_ arguments: ParsedArguments, io: CommandIO) throws -> String {
        let argument = try arguments.singlePositional("TOKEN")
        return Input.text(argument, io: io)
    }

    /// `--alg` values (repeatable); all algorithms when none is given (the key still decides).
    static func algorithms(_ arguments: ParsedArguments) throws -> Set<JWSAlgorithm> {
        let names = arguments.all("alg")
        guard !names.isEmpty else { return Set(JWSAlgorithm.allCases) }
        var result: Set<JWSAlgorithm> = []
        for name in names {
            guard let algorithm = JWSAlgorithm(rawValue: name) else {
                throw CLIError.usage(
                    "unknown --alg '\(name)' (one of \(JWSAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            result.insert(algorithm)
        }
        return result
    }

    /// A JWKS from a file or an http(s) URL; a malformed set is a configuration error (exit 2).
    static func keySet(_ source: String, io: CommandIO) async throws -> JWKSet {
        let bytes: [UInt8]
        if source.hasPrefix("https://") || source.hasPrefix("http://") {
            guard let url = URL(string: source) else { throw CLIError.usage("invalid --jwks URL") }
            do {
                let response = try await URLSessionTransport().send(
                    HTTPRequest(url: url, headers: ["Accept": "application/json"], timeout: 15))
                guard response.status == 200 else {
                    // A server that is down or busy now is retried later (75); any other answer is a verdict (1).
                    let transient = response.status >= 500 || response.status == 429 || response.status == 408
                    throw CLIError(
                        code: "key_set_unavailable", message: "the JWKS URL answered HTTP \(response.status)",
                        exitCode: transient ? ExitCode.temporaryFailure : ExitCode.rejected)
                }
                bytes = Array(response.body)
            } catch let error as TransportError {
                // Offline, refused, timed out: nothing was decided about the token (75, EX_TEMPFAIL).
                throw CLIError(
                    code: error.codeName, message: "cannot fetch the JWKS: \(error.reason)",
                    exitCode: error.failureKind == .transient ? ExitCode.temporaryFailure : ExitCode.usage)
            }
        } else {
            bytes = Array(try Input.file(source, io: io))
        }
        do {
            let set = try JWKSet(json: bytes)
            for (index, reason) in set.skipped { io.err("warden: note: JWKS key \(index) skipped: \(reason.reason)") }
            return set
        } catch {
            throw CLIError.usage("the JWKS is not usable: \(error.reason)", code: error.codeName)
        }
    }

    static func now(_ arguments: ParsedArguments) throws -> NowProvider {
        guard let text = arguments.value("now") else { return systemNow }
        guard let seconds = Int64(text), seconds >= 0 else {
            throw CLIError.usage("'--now' needs UNIX seconds, got '\(text)'")
        }
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        return { date }
    }

    /// A rejected token: exit 1, the reason code on stderr.
    static func rejected(_ error: JOSEError) -> CLIError {
        if error.failureKind == .misconfiguration { return CLIError.usage(error.reason, code: error.codeName) }
        return CLIError.rejected(error.codeName, error.reason)
    }
}

struct JWTDecodeCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "decode", abstract: "Print a token's header and payload, UNVERIFIED.", arguments: "TOKEN",
        discussion: "Nothing is verified: never base a decision on this output. TOKEN '-' reads standard input.",
        options: [.flag("json", #"Print {"verified":false,"header":...,"payload":...}."#)])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let token = try TokenInput.token(arguments, io: io)
        let decoded: (header: JSONObject, payload: JSONValue?)
        do { decoded = try JWSCompact.decodeUnverified(token) } catch { throw TokenInput.rejected(error) }
        let header = JSONValue.object(decoded.header).foundationObject
        let payload = decoded.payload?.foundationObject ?? "<payload is not JSON>"
        if arguments.has("json") {
            io.out(JSONOutput.string(["verified": false, "header": header, "payload": payload]))
        } else {
            io.out("UNVERIFIED: the signature was not checked")
            io.out("header: " + JSONOutput.string(header))
            io.out("payload: " + (decoded.payload == nil ? "<not JSON>" : JSONOutput.string(payload)))
        }
        return ExitCode.success
    }
}

struct JWTVerifyCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "verify", abstract: "Verify a JWT: signature via a JWKS, then claims.",
        arguments: "TOKEN",
        discussion: """
            exp is required; exp/nbf get --leeway (default 60 s, 0-300); iat in the future is rejected with no
            leeway. --aud is required (a token minted for another service must not pass) unless --any-audience says
            so. Prints the claims as JSON on success (exit 0); a rejected token is exit 1 with its reason code.
            """,
        options: [
            .value("jwks", "FILE|URL", "The key set (a file, or an http(s) URL).").required(),
            .value("iss", "S", "Required issuer (exact match)."),
            .value("aud", "S", "The audience this service accepts (or --any-audience).").oneOf("audience"),
            .flag("any-audience", "Accept a token whatever its aud (only for tokens meant for any service).")
                .oneOf("audience"),
            .value("leeway", "SEC", "Clock skew allowance for exp/nbf (default 60)."),
            .value("now", "UNIX", "Verify as of this time (seconds since 1970)."),
            .value("nonce", "S", "Required nonce."),
            .value("max-age", "SEC", "Reject tokens whose iat is older than this."),
            .value("alg", "A", "Allowed algorithm (repeatable; default: any the key fits).", repeatable: true),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let jwksSource = try arguments.required("jwks")
        let anyAudience = arguments.has("any-audience")
        let algorithms = try TokenInput.algorithms(arguments)
        let leewaySeconds = try arguments.integer("leeway", range: 0...300) ?? 60
        guard let leeway = try? Leeway(seconds: TimeInterval(leewaySeconds)) else {
            throw CLIError.usage("'--leeway' must be 0...300")
        }
        let maxAge = try arguments.integer("max-age", range: 0...Int(Int32.max)).map(TimeInterval.init)
        let now = try TokenInput.now(arguments)
        let token = try TokenInput.token(arguments, io: io)
        let keys = try await TokenInput.keySet(jwksSource, io: io)
        let issuer = arguments.value("iss")
        let audience = arguments.value("aud")
        let nonce = arguments.value("nonce")
        let policy = AllOf {
            JWTVerifier.standardPolicy(
                issuer: issuer, audience: audience, acceptingAnyAudience: anyAudience, leeway: leeway,
                maximumAge: maxAge)
            if let nonce { NoncePolicy(nonce) }
        }
        do {
            let verified = try JWTVerifier(keys: keys, allowedAlgorithms: algorithms, policy: policy, now: now).verify(
                token)
            io.out(JSONOutput.string(JSONValue.object(verified.claims.object).foundationObject))
            return ExitCode.success
        } catch {
            throw TokenInput.rejected(error)
        }
    }
}

struct JWSVerifyCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "verify", abstract: "Verify a compact JWS signature and print the payload.",
        arguments: "TOKEN",
        discussion: "Tokens are capped at 64 KiB; zip, enc and any crit are rejected. Claims are not checked.",
        options: [
            .value("jwk", "FILE", "A single JWK.").oneOf("keys"),
            .value("jwks", "FILE", "A JWK set.").oneOf("keys"),
            .value("alg", "A", "Allowed algorithm (repeatable; default: any the key fits).", repeatable: true),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let algorithms = try TokenInput.algorithms(arguments)
        let keys: JWKSet
        if let file = arguments.value("jwk") {  // the parser let exactly one of --jwk and --jwks through
            let text = String(decoding: try Input.file(file, io: io), as: UTF8.self)
            do { keys = try JWKSet(keys: [try JWK(json: text)]) } catch {
                throw CLIError.usage("the JWK is not usable: \(error.reason)", code: error.codeName)
            }
        } else {
            keys = try await TokenInput.keySet(try arguments.required("jwks"), io: io)
        }
        let token = try TokenInput.token(arguments, io: io)
        do {
            let verified = try JWSVerifier(keys: keys, allowedAlgorithms: algorithms).verify(token)
            io.writeOut(String(decoding: verified.payload, as: UTF8.self) + "\n")
            return ExitCode.success
        } catch {
            throw TokenInput.rejected(error)
        }
    }
}
