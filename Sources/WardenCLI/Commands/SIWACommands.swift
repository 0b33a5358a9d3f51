import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenOAuth

/// `warden siwa client-secret / verify`: Sign in with Apple on the server.
struct SIWACommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "siwa", abstract: "Sign in with Apple: make the REST API client secret, validate identity tokens.",
        subcommands: [SIWAClientSecretCommand.self, SIWAVerifyCommand.self])
}

struct SIWAClientSecretCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "client-secret", abstract: "Print the ES256 client secret JWT for /auth/token and /auth/revoke.",
        discussion: "The output is a credential (asked for exactly that value). Exit 2 for a bad key, TTL or flag.",
        options: [
            .value("team-id", "T", "The Apple developer team ID (iss).").required(),
            .value("client-id", "C", "The Services ID or bundle ID (sub).").required(),
            .value("key-id", "K", "The key ID of the .p8 key (kid).").required(),
            .value("key", "FILE.p8", "The .p8 private key (PKCS#8 P-256).").required(),
            .value("ttl", "SEC", "Lifetime in seconds (default 3600, at most 15552000 = 180 days)."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let team = try arguments.required("team-id")
        let client = try arguments.required("client-id")
        let keyID = try arguments.required("key-id")
        let ttl = try arguments.integer("ttl", range: 1...Int(AppleClientSecret.maximumLifetime)) ?? 3600
        let pem = String(decoding: try Input.file(try arguments.required("key"), io: io), as: UTF8.self)
        let key: ECPrivateKey
        do { key = try ECPrivateKey(pem: pem) } catch {
            throw CLIError.usage("--key is not a .p8 (PKCS#8 P-256) private key", code: "invalid_key")
        }
        do {
            let secret = try AppleClientSecret(teamID: team, clientID: client, keyID: keyID, privateKey: key)
            io.out(try secret.make(ttl: TimeInterval(ttl)).unredacted())  // asked for exactly this value
        } catch let error as JOSEError {
            throw CLIError.usage(error.reason, code: error.codeName)
        }
        return ExitCode.success
    }
}

struct SIWAVerifyCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "verify", abstract: "Validate a Sign in with Apple identity token; print what it says about the user.",
        arguments: "TOKEN",
        discussion:
            "--nonce is the raw nonce the app kept (its SHA-256 must be in the token); --no-nonce says the flow has none. Exit 1 rejected, 2 usage.",
        options: [
            .value("jwks", "FILE|URL", "Apple's keys (https://appleid.apple.com/auth/keys, or a file).").required(),
            .value("client-id", "C", "An allowed audience (repeatable).", repeatable: true).required(),
            .value("nonce", "RAW", "The raw nonce the app generated.").oneOf("nonce"),
            .flag("no-nonce", "The token comes from a flow without a nonce (it is then not checked).").oneOf("nonce"),
            .value("issuer", "ISS", "The expected iss (default https://appleid.apple.com)."),
            .value("now", "UNIX", "Validate as of this time (seconds since 1970)."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let clients = arguments.all("client-id")
        let keys = try await TokenInput.keySet(try arguments.required("jwks"), io: io)
        let token = try TokenInput.token(arguments, io: io)
        let validator = AppleIdentityTokenVerifier(
            clientIDs: Set(clients), keys: keys,
            issuer: arguments.value("issuer") ?? AppleIdentityTokenVerifier.issuer,
            now: try TokenInput.now(arguments))
        do {
            let identity = try validator.verify(
                token, rawNonce: arguments.value("nonce"), withoutNonce: arguments.has("no-nonce"))
            var output: [String: Any] = ["sub": identity.subject, "aud": identity.audience]
            if let email = identity.email { output["email"] = email }
            if let verified = identity.emailVerified { output["email_verified"] = verified }
            if let privateEmail = identity.isPrivateEmail { output["is_private_email"] = privateEmail }
            if let status = identity.realUserStatus { output["real_user_status"] = status }
            io.out(JSONOutput.string(output))
            return ExitCode.success
        } catch {
            throw TokenInput.rejected(error)
        }
    }
}
