import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenLocalProvider
import WardenOAuth
import WardenTestSupport

@testable import WardenCLI

/// A declared option that a command parses but never looks at is a defect (`warden demo --issuer` once was one).
/// The suite walks the command tree from ``WardenCLI/root``, runs every leaf command in-process with the invocations
/// of ``table`` and checks, through ``OptionReads``, that each declared option was read by at least one of them.
///
/// Adding a command or an option therefore needs a line in ``table`` (test A fails otherwise), and that line must
/// reach the code that reads the option (test B fails otherwise).
@Suite("every declared option is read")
struct OptionReadTests {
    /// A leaf command (one without subcommands) and the options it declares (without the implicit `--help`).
    struct Leaf: Sendable, CustomTestStringConvertible {
        let path: [String]
        let options: [String]
        var name: String { path.joined(separator: " ") }
        var testDescription: String { name }
    }

    /// One run of a leaf command: its arguments after the command path. `{placeholder}`s are filled in by
    /// ``Workspace`` (files in a temporary directory, an in-process ``LocalProvider``, the test fixtures).
    struct Invocation: Sendable {
        var arguments: [String]
        var stdin = ""
        /// Runs with standard output reported as a terminal (options that only matter there are read only there).
        var terminal = false
        /// Complete `warden` argument lists run first in the same home, not recorded (e.g. a login before `token`).
        var setup: [[String]] = []

        init(_ arguments: [String], stdin: String = "", terminal: Bool = false, setup: [[String]] = []) {
            self.arguments = arguments
            self.stdin = stdin
            self.terminal = terminal
            self.setup = setup
        }
    }

    static let leaves: [Leaf] = collect(WardenCLI.root, path: [])

    static func collect(_ command: any CLICommand.Type, path: [String]) -> [Leaf] {
        let configuration = command.configuration
        guard configuration.subcommands.isEmpty else {
            return configuration.subcommands.flatMap { collect($0, path: path + [$0.configuration.name]) }
        }
        return [Leaf(path: path, options: configuration.options.map(\.name).filter { $0 != "help" })]
    }

    static let now = 1_800_000_000
    static let clientID = "option-reads"
    static let browser = "curl -s -L -o /dev/null"
    static let store = ["--store", "file", "--insecure-storage", "--account", "alice"]
    static let login =
        ["login", "--issuer", "{issuer}", "--client-id", clientID, "--browser", browser, "--timeout", "20"] + store

    /// Invocations per leaf command (keyed by its path): together they mention every declared option, and each one
    /// runs far enough (successfully, where the options allow) that the command consults what it was given.
    /// Mutually exclusive options go into separate invocations.
    static let table: [String: [Invocation]] = [
        "demo": [
            Invocation([
                "--json", "--issuer", "{issuer}", "--client-id", clientID, "--browser", browser,
                "--revocation-endpoint", "{issuer}/revoke",
            ])
        ],
        "login": [
            Invocation(
                [
                    "--issuer", "{issuer}", "--client-id", clientID, "--scope", "openid offline_access", "--browser",
                    browser, "--timeout", "20", "--revocation-endpoint", "{issuer}/revoke", "--param", "prompt=login",
                    "--token-param", "resource=https://api.example.com", "--trusted-audience",
                    "https://api.example.com",
                ] + store),
            Invocation(
                [
                    "--issuer", "{issuer}", "--client-id", clientID, "--issuer-template", "{issuer}/{tenantid}/v2.0",
                    "--allowed-tenant", "9188040d-6c67-4c5b-b112-36a304b66dad", "--browser", browser, "--timeout", "5",
                ] + store),
            Invocation(["--issuer", "{issuer}", "--client-id", clientID, "--device", "--timeout", "5"] + store),
        ],
        "provider": [
            Invocation([
                "--emulate", "entra", "--client-id", "x", "--redirect-uri", "com.example.app:/cb", "--tenant",
                "9188040d-6c67-4c5b-b112-36a304b66dad", "--for", "1",
            ])
        ],
        "token": [Invocation(["--min-ttl", "86400", "--burst", "3"] + store, setup: [login])],
        "discover": [Invocation(["--json", "{issuer}"])],
        "logout": [
            Invocation(store, setup: [login]),
            Invocation(["--end-session", "--browser", browser, "--timeout", "20"] + store, setup: [login]),
        ],
        "jwt decode": [Invocation(["--json", "{token}"])],
        "jwt verify": [
            Invocation([
                "--jwks", "{jwks}", "--iss", "https://id.example.com", "--aud", "app", "--leeway", "30", "--now",
                "\(now)", "--nonce", "n-1", "--max-age", "600", "--alg", "ES256", "{token}",
            ]),
            Invocation(["--jwks", "{jwks}", "--any-audience", "--now", "\(now)", "{token}"]),
        ],
        "jws verify": [
            Invocation(["--jwk", "{jwk}", "--alg", "ES256", "{token}"]),
            Invocation(["--jwks", "{jwks}", "{token}"]),
        ],
        "pkce": [Invocation(["--verifier", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"])],
        "oauth callback": [
            Invocation([
                "--redirect-uri", "com.example.app:/cb", "--state", "s1", "--issuer", "https://id.example.com",
                "--require-iss", "com.example.app:/cb?code=c1&state=s1&iss=https%3A%2F%2Fid.example.com",
            ])
        ],
        "oauth1 sign": [
            Invocation([
                "--method", "POST", "--url", "https://api.example.com/1/update.json?x=1", "--consumer-key", "ck",
                "--consumer-secret", "cs", "--token", "tk", "--token-secret", "ts", "--signature-method",
                "HMAC-SHA256", "--form", "status=hi", "--nonce", "n1", "--timestamp", "1700000000", "--realm",
                "Photos", "--callback", "https://app.example.com/cb", "--verifier", "v1", "--no-version",
            ]),
            Invocation([
                "--method", "GET", "--url", "https://api.example.com/1/home.json", "--consumer-key", "ck", "--rsa-key",
                "{crypto-fixtures}/rsa.key",
            ]),
        ],
        "pin": [Invocation(["--json", "{crypto-fixtures}/rsa.pem"])],
        "sealed keygen": [Invocation(["{dir}/sealing.key"])],
        "sealed seal": [
            Invocation(
                [
                    "--key", "{dir}/s1.key", "--out", "{dir}/s1.sealed", "--context", "c", "--algorithm",
                    "chacha20-poly1305", "-",
                ],
                stdin: "hello", setup: [["sealed", "keygen", "{dir}/s1.key"]])
        ],
        "sealed open": [
            Invocation(
                ["--key", "{dir}/s2.key", "--out", "{dir}/s2.plain", "--context", "c", "{dir}/s2.sealed"],
                setup: [
                    ["sealed", "keygen", "{dir}/s2.key"],
                    ["sealed", "seal", "--key", "{dir}/s2.key", "--out", "{dir}/s2.sealed", "--context", "c", "-"],
                ])
        ],
        "dpop keygen": [Invocation(["{dir}/new-dpop-key.pem"])],
        "siwa client-secret": [
            Invocation([
                "--team-id", "TEAM123456", "--client-id", "com.example.app", "--key-id", "KEY1234567", "--key",
                "{dpop-key}", "--ttl", "600",
            ])
        ],
        "siwa verify": [
            Invocation([
                "--jwks", "{apple-jwks}", "--client-id", "com.example.app", "--nonce", "raw-nonce", "--issuer",
                "https://appleid.apple.com", "--now", "{dpop-now}", "{apple-token}",
            ]),
            Invocation([
                "--jwks", "{apple-jwks}", "--client-id", "com.example.app", "--no-nonce", "--now", "{dpop-now}",
                "{apple-token}",
            ]),
        ],
        "dpop proof": [
            Invocation([
                "--key", "{dpop-key}", "--htm", "GET", "--htu", "https://api.example.com/me", "--access-token", "at-1",
                "--nonce", "n-1",
            ])
        ],
        "dpop verify": [
            Invocation([
                "--htm", "GET", "--htu", "https://api.example.com/me", "--access-token", "at-1", "--nonce", "n-1",
                "--jkt", "{dpop-jkt}", "--now", "{dpop-now}", "--max-age", "300", "{dpop-proof}",
            ]),
            // Nothing listens on port 1: the shared cache is read, then refuses (exit 75); WardenRedisTests runs it
            // against a real Redis.
            Invocation([
                "--htm", "GET", "--htu", "https://api.example.com/me", "--now", "{dpop-now}", "--replay-cache",
                "redis://127.0.0.1:1", "{dpop-proof}",
            ]),
        ],
        "passkey issue-challenge": [
            Invocation([
                "--challenge-store", "redis://127.0.0.1:1", "--binding", "s", "--ceremony", "registration",
                "--lifetime", "60",
            ])
        ],
        "store": [
            Invocation(
                [
                    "set", "--service", "dev.warden.option-reads", "--store", "file", "--insecure-storage", "--account",
                    "a",
                ],
                stdin: "item")
        ],
        "passkey verify-registration": [
            Invocation([
                "--rp-id", "example.com", "--origin", "https://example.com", "--challenge", "{registration-challenge}",
                "--require-uv", "--allow-cross-origin", "--top-origin", "https://top.example.com", "--user-handle",
                "{user-handle}", "--accept-unknown-attestation", "--now", "\(now)", "{registration}",
            ]),
            Invocation([
                "--rp-id", "localhost", "--origin", "http://localhost:5000", "--challenge", "{yubikey-challenge}",
                "--attestation-roots", "{passkey-fixtures}/yubico-u2f-root.pem", "--require-trusted-attestation",
                "{yubikey-registration}",
            ]),
            Invocation([
                "--rp-id", "example.com", "--origin", "https://example.com", "--challenge-store", "redis://127.0.0.1:1",
                "--binding", "s", "--user-handle", "{user-handle}", "{registration}",
            ]),
        ],
        "passkey verify-assertion": [
            Invocation([
                "--rp-id", "example.com", "--origin", "https://example.com", "--challenge", "{assertion-challenge}",
                "--require-uv", "--allow-cross-origin", "--top-origin", "https://top.example.com", "--user-handle",
                "{user-handle}", "--credential", "{credential}", "--json", "{assertion}",
            ]),
            Invocation([
                "--rp-id", "example.com", "--origin", "https://example.com", "--challenge-store", "redis://127.0.0.1:1",
                "--binding", "s", "--credential", "{credential}", "{assertion}",
            ]),
        ],
        "audit": [
            Invocation(["--rules"]),
            Invocation(["{app}", "--write-baseline", "{dir}/baseline.json"]),
            Invocation(["{app}", "--json"]),
            Invocation(["{app}", "--absolute-paths"]),
            // --no-color is consulted only when standard output is a terminal.
            Invocation(
                [
                    "{app}", "--baseline", "{dir}/baseline.json", "--format", "text", "--fail-on", "error",
                    "--include-vendored", "--include-tests", "--no-color", "--output", "{dir}/report.txt",
                ], terminal: true),
        ],
        "bench crypto": [Invocation(["--seconds", "1", "--no-openssl", "--json"])],
        "bench seal": [Invocation(["--seconds", "1", "--no-openssl", "--json"])],
        "bench jwt": [Invocation(["--seconds", "1", "--algorithm", "HS256", "--export", "{dir}/jwt", "--json"])],
        "bench oauth1": [Invocation(["--seconds", "1", "--json"])],
        "bench dpop": [Invocation(["--seconds", "1", "--proofs", "100", "--json"])],
        "bench redact": [Invocation(["--seconds", "1", "--json"])],
        "bench refresh": [Invocation(["--callers", "2", "--refresh-ms", "0", "--json"])],
        "bench passkey": [
            Invocation(["--seconds", "1", "--export", "{dir}/passkey", "--json"]),
            Invocation(["--seconds", "1", "--challenge-store", "redis://127.0.0.1:1"]),
        ],
        "bench audit": [
            Invocation(["--lines", "1000", "--runs", "1", "--json"]),
            Invocation(["--one-scope", "200", "--runs", "1"]),
            Invocation(["{app}", "--labels", "{app-labels}", "--runs", "1"]),
            Invocation(["{app}", "--labels", "{app-labels}", "--line-tolerance", "2", "--runs", "1"]),
        ],
    ]

    /// The option an argument names (`--name` or `--name=value`), if it names one.
    static func optionName(_ argument: String) -> String? {
        guard argument.hasPrefix("--"), argument.count > 2 else { return nil }
        return String(argument.dropFirst(2).prefix { $0 != "=" })
    }

    static func list(_ options: [String]) -> String { options.map { "--\($0)" }.joined(separator: ", ") }

    @Test("A: every leaf command has invocations that mention each of its options")
    func tableIsComplete() {
        #expect(!Self.leaves.isEmpty, "no leaf commands found under WardenCLI.root")
        for leaf in Self.leaves {
            guard let invocations = Self.table[leaf.name] else {
                Issue.record(
                    "'warden \(leaf.name)' has no entry in OptionReadTests.table (options: \(Self.list(leaf.options)))")
                continue
            }
            let mentioned = Set(invocations.flatMap(\.arguments).compactMap(Self.optionName))
            let missing = leaf.options.filter { !mentioned.contains($0) }
            #expect(
                missing.isEmpty,
                "'warden \(leaf.name)': no invocation in OptionReadTests.table mentions \(Self.list(missing))")
        }
        let stale = Set(Self.table.keys).subtracting(Self.leaves.map(\.name)).sorted()
        #expect(stale.isEmpty, "OptionReadTests.table has entries for commands that are not leaves: \(stale)")
    }

    @Test("B: every declared option is read", arguments: leaves)
    func optionsAreRead(_ leaf: Leaf) async throws {
        guard let invocations = Self.table[leaf.name] else {
            Issue.record("'warden \(leaf.name)' has no entry in OptionReadTests.table; nothing ran")
            return
        }
        let workspace = try Workspace()
        defer { workspace.close() }
        var read: Set<String> = []
        var log: [String] = []
        for invocation in invocations {
            for setup in invocation.setup {
                let arguments = try setup.map { try workspace.expand($0) }
                let run = await Self.run(arguments, stdin: "", terminal: false, home: workspace.home)
                log.append("setup: warden \(arguments.joined(separator: " ")) → exit \(run.status)\n\(run.stderr)")
            }
            let arguments = try leaf.path + invocation.arguments.map { try workspace.expand($0) }
            let reads = OptionReads()
            let run = await OptionReads.$current.withValue(reads) {
                await Self.run(
                    arguments, stdin: invocation.stdin, terminal: invocation.terminal, home: workspace.home)
            }
            read.formUnion(reads.all)
            log.append(
                "warden \(arguments.joined(separator: " ")) → exit \(run.status), read \(Self.list(reads.all.sorted()))"
                    + "\nstderr: \(run.stderr)")
        }
        let unread = leaf.options.filter { !read.contains($0) }
        #expect(
            unread.isEmpty,
            "'warden \(leaf.name)' declares but never reads \(Self.list(unread))\n\(log.joined(separator: "\n"))")
    }

    /// Runs `warden` in-process like ``CLI/run(_:stdin:home:)``, optionally with standard output as a terminal.
    static func run(_ arguments: [String], stdin: String, terminal: Bool, home: String) async -> CLIRun {
        let out = Locked("")
        let err = Locked("")
        let io = CommandIO(
            writeOut: { text in out.withLock { $0 += text } },
            writeErr: { text in err.withLock { $0 += text } },
            readStdin: { Data(stdin.utf8) }, stdoutIsTerminal: terminal, environment: CLI.environment(home: home))
        let status = await WardenCLI.main(arguments: arguments, io: io)
        return CLIRun(status: status, stdout: out.current, stderr: err.current)
    }
}

/// A temporary directory (with a home inside it) and the `{placeholder}` values of one test case, made on first use.
private final class Workspace {
    let dir: String
    let home: String
    private var provider: LocalProvider?
    private var values: [String: String] = [:]

    static let placeholders = [
        "dir", "issuer", "token", "jwk", "jwks", "app", "crypto-fixtures", "passkey-fixtures", "registration",
        "registration-challenge", "user-handle", "assertion", "assertion-challenge", "credential",
        "yubikey-registration", "yubikey-challenge", "dpop-key", "dpop-jkt", "dpop-proof", "dpop-now",
        "apple-jwks", "apple-token", "app-labels",
    ]

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("warden-option-reads-\(UUID())").path
        home = dir + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    func close() {
        provider?.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    func expand(_ argument: String) throws -> String {
        var result = argument
        for name in Self.placeholders where result.contains("{\(name)}") {
            result = result.replacingOccurrences(of: "{\(name)}", with: try value(name))
        }
        return result
    }

    private func value(_ name: String) throws -> String {
        if let value = values[name] { return value }
        switch name {
        case "dir":
            values[name] = dir
        case "issuer":
            let provider = try LocalProvider(clientID: OptionReadTests.clientID)
            self.provider = provider
            values[name] = provider.issuer
        case "crypto-fixtures", "passkey-fixtures":
            let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            values["crypto-fixtures"] = tests.appendingPathComponent("WardenCryptoTests/Fixtures").path
            values["passkey-fixtures"] = tests.appendingPathComponent("WardenPasskeysTests/Fixtures").path
        case "token", "jwk", "jwks":
            try makeJOSE()
        case "app":
            try FileManager.default.createDirectory(atPath: dir + "/app", withIntermediateDirectories: true)
            try write("app/A.swift", "print(token)\n")
            values[name] = dir + "/app"
        case "app-labels":
            values[name] = try write("app-labels.tsv", "A.swift\t1\texpect\tsecret-in-log\n")
        case "registration", "registration-challenge", "user-handle", "assertion", "assertion-challenge", "credential":
            try makePasskey()
        case "yubikey-registration", "yubikey-challenge":
            try makeYubiKeyRegistration()
        case "apple-jwks", "apple-token":
            let key = try ECPrivateKey(curve: .p256)
            let jwk = try #require(try JWK(publicKey: key.publicKey, keyID: "apple-1", algorithm: .es256).publicJSON)
            values["apple-jwks"] = try write("apple-jwks.json", #"{"keys":[\#(jwk)]}"#)
            let t = Int(Date().timeIntervalSince1970)
            let claims =
                #"{"iss":"https://appleid.apple.com","aud":"com.example.app","exp":\#(t + 600),"iat":\#(t),"sub":"001234.abc","nonce":"\#(AppleIdentityTokenVerifier.hashedNonce("raw-nonce"))"}"#
            let input =
                Base64URL.encode(Array(#"{"alg":"ES256","kid":"apple-1"}"#.utf8)) + "."
                + Base64URL.encode(Array(claims.utf8))
            values["apple-token"] = input + "." + Base64URL.encode(try key.signature(for: Array(input.utf8)))
        case "dpop-key", "dpop-jkt", "dpop-proof", "dpop-now":
            let key = try SoftwareDPoPKey()
            let now = Date()
            values["dpop-key"] = try write("dpop.pem", key.pkcs8PEM().unredacted())
            values["dpop-jkt"] = key.thumbprint
            values["dpop-now"] = String(Int(now.timeIntervalSince1970))
            values["dpop-proof"] = try DPoPProofFactory(key: key, now: { now }).proof(
                method: "GET", url: URL(string: "https://api.example.com/me")!, accessToken: "at-1", nonce: "n-1")
        default:
            break
        }
        guard let value = values[name] else { throw WorkspaceError.unknownPlaceholder(name) }
        return value
    }

    enum WorkspaceError: Error { case unknownPlaceholder(String) }

    @discardableResult
    private func write(_ name: String, _ text: String) throws -> String {
        let path = dir + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// An ES256 key as a JWK and a JWKS, and a token it signed with every claim `jwt verify` can check.
    private func makeJOSE() throws {
        let key = try ECPrivateKey()
        let jwk = try JWK(publicKey: key.publicKey, keyID: "k1", algorithm: .es256).publicJSON!
        values["jwk"] = try write("jwk.json", jwk)
        values["jwks"] = try write("jwks.json", #"{"keys":[\#(jwk)]}"#)
        let now = OptionReadTests.now
        let payload =
            #"{"iss":"https://id.example.com","aud":"app","sub":"u1","exp":\#(now + 300),"iat":\#(now),"nonce":"n-1"}"#
        let input =
            Base64URL.encode(Array(#"{"alg":"ES256","kid":"k1"}"#.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        values["token"] = input + "." + Base64URL.encode(try key.signature(for: Array(input.utf8)))
    }

    /// A software passkey's registration and sign-in for example.com, and the credential record of the former.
    private func makePasskey() throws {
        var authenticator = try LocalPasskeyAuthenticator()
        let userHandle = Array("option-reads-user".utf8)
        let registrationChallenge = [UInt8](repeating: 1, count: 32)
        let assertionChallenge = [UInt8](repeating: 2, count: 32)
        let registration = try authenticator.register(
            rpID: "example.com", origin: "https://example.com", challenge: registrationChallenge,
            userHandle: userHandle)
        let assertion = try authenticator.assert(
            rpID: "example.com", origin: "https://example.com", challenge: assertionChallenge)
        values["registration"] = try write("registration.json", registration.json())
        values["assertion"] = try write("assertion.json", assertion.json())
        values["credential"] = try write(
            "credential.json",
            #"{"id":"\#(Base64URL.encode(authenticator.credentialID))","publicKey":"\#(Base64URL.encode(try authenticator.publicKey.encoded))","signCount":0,"userHandle":"\#(Base64URL.encode(userHandle))"}"#
        )
        values["registration-challenge"] = Base64URL.encode(registrationChallenge)
        values["assertion-challenge"] = Base64URL.encode(assertionChallenge)
        values["user-handle"] = Base64URL.encode(userHandle)
    }

    /// py_webauthn's recorded YubiKey registration (packed attestation with a chain to the Yubico root).
    private func makeYubiKeyRegistration() throws {
        let fixtures = try value("passkey-fixtures")
        let data = try Data(contentsOf: URL(fileURLWithPath: fixtures + "/py_webauthn_recorded.json"))
        let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let item = (root["registrations"] as! [[String: Any]]).first {
            $0["name"] as? String == "packed_yubikey_firefox"
        }!
        let response = try JSONSerialization.data(withJSONObject: item["response"]!)
        values["yubikey-registration"] = try write(
            "yubikey-registration.json", String(decoding: response, as: UTF8.self))
        values["yubikey-challenge"] = item["challenge"] as? String
    }
}
