import Foundation
import WardenCrypto
import WardenOAuth

struct OAuth1Command: CLICommand {
    static let configuration = CommandConfiguration(
        name: "oauth1", abstract: "OAuth 1.0a request signing (RFC 5849).", subcommands: [OAuth1SignCommand.self])
}

struct OAuth1SignCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "sign", abstract: "Print the Authorization header value for a request.",
        options: [
            .value("method", "M", "HTTP method.").required(),
            .value("url", "URL", "The request URL (with its query).").required(),
            .value("consumer-key", "K", "Consumer key.").required(),
            .value("consumer-secret", "S", "Consumer secret (HMAC/PLAINTEXT).").oneOf("secret"),
            .value("rsa-key", "PEM", "RSA private key file (RSA-SHA1/RSA-SHA256).").oneOf("secret"),
            .value("token", "T", "Token."),
            .value("token-secret", "TS", "Token secret."),
            .value(
                "signature-method", "M",
                "HMAC-SHA1 (default), HMAC-SHA256, HMAC-SHA512, RSA-SHA1, RSA-SHA256, PLAINTEXT."),
            .value("form", "BODY", "An application/x-www-form-urlencoded body to sign."),
            .value("nonce", "N", "Fixed nonce."),
            .value("timestamp", "T", "Fixed timestamp."), .value("realm", "R", "Realm (header only)."),
            .value("callback", "URL", "oauth_callback."), .value("verifier", "V", "oauth_verifier."),
            .flag("no-version", "Omit oauth_version=\"1.0\"."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let httpMethod = try arguments.required("method")
        let url = try arguments.required("url")
        let consumerKey = try arguments.required("consumer-key")
        let name = arguments.value("signature-method") ?? (arguments.value("rsa-key") != nil ? "RSA-SHA1" : "HMAC-SHA1")
        func secret() throws -> String {
            guard let secret = arguments.value("consumer-secret") else {
                throw CLIError.usage("\(name) needs --consumer-secret")
            }
            return secret
        }
        func rsa() throws -> RSAPrivateKey {
            guard let path = arguments.value("rsa-key") else { throw CLIError.usage("\(name) needs --rsa-key") }
            let pem = String(decoding: try Input.file(path, io: io), as: UTF8.self)
            do { return try RSAPrivateKey(pem: pem) } catch {
                throw CLIError.usage("--rsa-key: \(error.reason)", code: error.codeName)
            }
        }
        let method: OAuth1Signer.Method
        switch name {
        case "HMAC-SHA1": method = .hmacSHA1(consumerSecret: try secret())
        case "HMAC-SHA256": method = .hmacSHA256(consumerSecret: try secret())
        case "HMAC-SHA512": method = .hmacSHA512(consumerSecret: try secret())
        case "PLAINTEXT": method = .plaintext(consumerSecret: try secret())
        case "RSA-SHA1": method = .rsaSHA1(try rsa())
        case "RSA-SHA256": method = .rsaSHA256(try rsa())
        default: throw CLIError.usage("unknown --signature-method '\(name)'")
        }
        if arguments.value("token-secret") != nil && arguments.value("token") == nil {
            throw CLIError.usage("--token-secret needs --token")
        }
        let signer = OAuth1Signer(
            consumerKey: consumerKey, method: method, token: arguments.value("token"),
            tokenSecret: arguments.value("token-secret"),
            realm: arguments.value("realm"), callback: arguments.value("callback"),
            verifier: arguments.value("verifier"),
            includeVersion: !arguments.has("no-version"))
        do {
            io.out(
                try signer.authorizationHeader(
                    method: httpMethod, url: url, body: arguments.value("form"), nonce: arguments.value("nonce"),
                    timestamp: arguments.value("timestamp")))
        } catch let error as OAuthError {
            throw CLIError.usage(error.reason, code: error.codeName)
        }
        return ExitCode.success
    }
}
