import Foundation
import WardenCore
import WardenJOSE
import WardenOAuth
import WardenSession
import WardenStorage

struct PKCECommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "pkce", abstract: "Print a PKCE S256 verifier and challenge as JSON.",
        discussion:
            "A given --verifier must follow RFC 7636 §4.1 (43-128 characters of A-Z a-z 0-9 - . _ ~); otherwise exit 2.",
        options: [.value("verifier", "V", "Use this verifier instead of a random one.")])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let pkce: PKCE
        if let verifier = arguments.value("verifier") {
            do { pkce = try PKCE(verifier: verifier) } catch {
                throw CLIError.usage(error.reason, code: error.codeName)
            }
        } else {
            pkce = try PKCE()
        }
        // The user asked for exactly this value: the verifier is printed.
        io.out(
            JSONOutput.string(["verifier": pkce.verifier.unredacted(), "challenge": pkce.challenge, "method": "S256"]))
        return ExitCode.success
    }
}

struct OAuthCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "oauth", abstract: "Check OAuth authorization responses.", subcommands: [OAuthCallbackCommand.self])
}

struct OAuthCallbackCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "callback", abstract: "Validate an authorization response exactly as the client library does.",
        arguments: "URL",
        discussion:
            #"Prints {"code": ...} on success (exit 0); a rejected response is exit 1; an invalid --redirect-uri is exit 2."#,
        options: [
            .value("redirect-uri", "URI", "The registered redirect URI (an RFC 8252 form).").required(),
            .value("state", "S", "The state that was sent.").required(),
            .value("issuer", "ISS", "The expected issuer (RFC 9207 iss)."),
            .flag("require-iss", "Reject responses without iss."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let redirect: RedirectURI
        do { redirect = try RedirectURI(try arguments.required("redirect-uri")) } catch let error as OAuthError {
            throw CLIError.usage(error.reason, code: error.codeName)
        }
        let state = try arguments.required("state")
        let callback = Input.text(try arguments.singlePositional("URL"), io: io)
        let validator = AuthorizationResponseValidator(
            redirectURI: redirect, state: Redacted(state), issuer: arguments.value("issuer"),
            requireIssuer: arguments.has("require-iss"))
        do {
            let code = try validator.code(from: try validator.authenticate(callback))
            io.out(JSONOutput.string(["code": code.unredacted()]))  // asked for exactly this value
            return ExitCode.success
        } catch {
            throw CLIError.rejected(error.codeName, error.reason)
        }
    }
}

/// Shared state for login/token/logout: where the issuer and client are remembered (not secret).
enum SessionFiles {
    struct Profile: Codable {
        var issuer: String
        var clientID: String
        var revocationEndpoint: String?
        /// `--token-param` pairs: every refresh sends them too.
        var tokenParameters: [[String]]?
        var trustedAudiences: [String]?
    }

    static func url(_ account: String, io: CommandIO) throws -> URL {
        let base = try io.directory(xdg: "XDG_CONFIG_HOME", fallback: ".config")
        return URL(fileURLWithPath: base).appendingPathComponent(
            "warden/accounts/\(PlaintextFileStore.fileName(account)).json")
    }

    static func save(_ profile: Profile, account: String, io: CommandIO) throws {
        let target = try url(account, io: io)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(profile).write(to: target, options: .atomic)
    }

    static func load(account: String, io: CommandIO) throws -> Profile? {
        guard let data = FileManager.default.contents(atPath: try url(account, io: io).path) else { return nil }
        return try? JSONDecoder().decode(Profile.self, from: data)
    }
}

struct LoginCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "login", abstract: "Sign in with the system browser (RFC 8252 loopback redirect, PKCE S256).",
        discussion:
            "--param adds an authorization parameter (prompt, login_hint, max_age, acr_values, ui_locales, audience, resource or any other the provider takes); max_age and acr_values are then checked in the ID token. Names Warden sets itself (state, nonce, code_challenge, ...) are refused (exit 2). An ID token that fails validation (no sub, an untrusted audience, a bad signature, issued in the provider's future) is refused (exit 1) and nothing is stored.",
        options: [
            .value("issuer", "URL", "The OpenID provider / authorization server issuer.").required(),
            .value("client-id", "ID", "The public client registered for http://127.0.0.1/callback.").required(),
            .value("scope", "S", "Scopes (default: openid offline_access)."),
            .value("param", "NAME=VALUE", "An authorization parameter (repeatable).", repeatable: true),
            .value(
                "token-param", "NAME=VALUE",
                "A token-request parameter for the exchange and every refresh (repeatable).",
                repeatable: true),
            .value(
                "trusted-audience", "AUD", "An audience the ID token may name besides the client (repeatable).",
                repeatable: true),
            .value("browser", "CMD", "Open the URL with this command instead of the system browser."),
            .value("timeout", "SEC", "How long to wait for the redirect (default 300)."),
            .value("revocation-endpoint", "URL", "RFC 7009 endpoint, when the provider's discovery omits it."),
            .value(
                "issuer-template", "URL",
                "A multi-tenant issuer (Entra's https://login.microsoftonline.com/{tenantid}/v2.0, with --issuer …/common/v2.0): each ID token's iss must be it filled with the token's own tid; the session is kept under that tenant's issuer."
            ),
            .value(
                "allowed-tenant", "GUID", "With --issuer-template: a tenant that may sign in (repeatable).",
                repeatable: true),
            .flag(
                "device",
                "Sign in on another device (RFC 8628): print the code and where to enter it, then wait for the approval."
            ),
        ] + StoreChoice.options)

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let issuer = try arguments.required("issuer")
        let clientID = try arguments.required("client-id")
        let scopes = (arguments.value("scope") ?? "openid offline_access").split(separator: " ").map(String.init)
        let timeout = try arguments.integer("timeout", range: 1...3600) ?? 300
        let store = try StoreChoice.store(arguments, io: io)
        let account = try StoreChoice.account(arguments)
        let revocation = try arguments.value("revocation-endpoint").map { text throws -> URL in
            guard let url = URL(string: text) else { throw CLIError.usage("--revocation-endpoint is not a URL") }
            return url
        }
        var configuration = AuthClient.Configuration(
            issuer: issuer, clientID: clientID, redirectURI: try RedirectURI("http://127.0.0.1/callback"),
            scopes: scopes, store: store, service: StoreChoice.service, account: account,
            revocationEndpoint: revocation)
        let tokenParameters = try pairs(arguments.all("token-param"), option: "token-param")
        do {
            configuration.authorizationParameters = try AuthorizationParameters(
                pairs: try pairs(arguments.all("param"), option: "param"))
            try TokenClient.check(additionalParameters: tokenParameters)
        } catch let error as OAuthError {
            throw CLIError.usage(error.reason, code: error.codeName)
        }
        configuration.tokenParameters = tokenParameters
        configuration.trustedAudiences = Set(arguments.all("trusted-audience"))
        let allowedTenants = arguments.all("allowed-tenant")
        if let template = arguments.value("issuer-template") {
            do {
                configuration.issuerTemplate = try TenantIssuerTemplate(
                    template, allowedTenants: allowedTenants.isEmpty ? nil : Set(allowedTenants))
            } catch { throw CLIError.usage("--issuer-template: \(error.reason)", code: error.codeName) }
        } else if !allowedTenants.isEmpty {
            throw CLIError.usage("--allowed-tenant needs --issuer-template")
        }
        let client = AuthClient(configuration)
        let metadata: ProviderMetadata
        do { metadata = try await client.metadata() } catch {
            throw error.failureKind == .transient
                ? CLIError.from(error) : CLIError.usage(error.reason, code: error.codeName)
        }
        let signIn: AuthClient.SignIn
        let deviceParameters = try pairs(arguments.all("param"), option: "param")
        do {
            if arguments.has("device") {
                // RFC 8628: the user signs in on another device; this process only polls.
                signIn = try await deviceSignIn(client, parameters: deviceParameters, timeout: timeout, io: io)
            } else {
                let launcher: any BrowserLauncher =
                    arguments.value("browser").map { CommandBrowser(command: $0) } ?? SystemBrowser()
                io.err("Opening the browser to sign in at \(metadata.issuer) …")
                signIn = try await client.signIn(
                    with: LoopbackBrowser(launcher: launcher, timeout: .seconds(Int64(timeout))))
            }
        } catch {
            if let stored = error.underlying as? StorageError, error.code == .storageFailed {
                throw StoreChoice.failure(stored)
            }
            throw CLIError.from(error)  // offline or a 5xx during the exchange: 75; a refusal: 1
        }
        // With a tenant template the session lives under the tenant's own issuer: later refreshes discover it there.
        let sessionIssuer = await signIn.session.currentTokens?.issuer ?? metadata.issuer
        try SessionFiles.save(
            .init(
                issuer: sessionIssuer, clientID: clientID, revocationEndpoint: revocation?.absoluteString,
                tokenParameters: tokenParameters.isEmpty ? nil : tokenParameters.map { [$0.0, $0.1] },
                trustedAudiences: configuration.trustedAudiences.isEmpty ? nil : configuration.trustedAudiences.sorted()
            ),
            account: account, io: io)
        let subject = (try? signIn.claims?.subject) ?? nil
        io.out(
            "Signed in\(subject.map { " as \($0)" } ?? "") (account \(account)); tokens are in the \(arguments.value("store") ?? StoreChoice.defaultStore) store."
        )
        return ExitCode.success
    }

    /// The RFC 8628 sign-in, its wait for the approval bounded by `timeout` seconds (the device code's own lifetime
    /// may be longer): the user code and the address go to stderr.
    static func deviceSignIn(
        _ client: AuthClient, parameters: [(String, String)], timeout: Int, io: CommandIO
    ) async throws(OAuthError) -> AuthClient.SignIn {
        let waiting = Task { () async throws -> AuthClient.SignIn in
            try await client.signInOnDevice(parameters: parameters) { authorization in
                io.err("To sign in, open \(authorization.verificationURI) and enter \(authorization.userCode)")
                if let complete = authorization.verificationURIComplete { io.err("(or open \(complete))") }
            }
        }
        let deadline = Task {
            try? await Task.sleep(for: .seconds(timeout))
            waiting.cancel()
        }
        defer { deadline.cancel() }
        do { return try await waiting.value } catch let error as OAuthError {
            if error.code == .cancelled { throw OAuthError(.timedOut, "no approval within \(timeout) s (--timeout)") }
            throw error
        } catch {
            throw OAuthError(.cancelled, "the device sign-in was cancelled")
        }
    }

    /// `NAME=VALUE` arguments; a missing `=` or an empty name is a usage error.
    static func pairs(_ values: [String], option: String) throws -> [(String, String)] {
        try values.map { text in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw CLIError.usage("--\(option) needs NAME=VALUE, got '\(text.prefix(64))'")
            }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
    }
}

struct TokenCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "token", abstract: "Print a valid access token, refreshing it when it expires within --min-ttl.",
        discussion:
            "Needs no network while the stored access token is valid. Several 'warden token' processes share one refresh (a lease beside the store); a newer token another process stored is used, never an old refresh token. Exit 1 when the session is signed out (the grant was revoked; the store is purged); exit 75 (EX_TEMPFAIL) on a transient failure (offline, a timeout, 5xx: the session is kept; try again).",
        options: [
            .value("min-ttl", "SEC", "Refresh when the token expires within this many seconds (default 60)."),
            .value("burst", "N", "Ask for the token from N concurrent callers (they share one refresh)."),
        ] + StoreChoice.options)

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let minTTL = TimeInterval(try arguments.integer("min-ttl", range: 0...86_400) ?? 60)
        let burst = try arguments.integer("burst", range: 1...10_000) ?? 1
        let (session, client) = try await SessionLoader.load(arguments, io: io)
        do {
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<burst { group.addTask { try await session.validAccessToken(minTTL: minTTL) } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            guard tokens.count == 1, let token = tokens.first else {
                throw CLIError.rejected("inconsistent", "concurrent callers received different tokens")
            }
            if burst > 1 { io.err("warden: note: \(burst) callers, \(await session.refreshCount) refresh request(s)") }
            io.out(token)  // asked for exactly this value
            // An earlier offline logout's revocation, now that the provider answered.
            _ = await client.retryPendingRevocations()
            return ExitCode.success
        } catch let error as SessionError {
            throw CLIError.from(error)
        }
    }
}

struct LogoutCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "logout", abstract: "Revoke the tokens and delete everything stored for the account.",
        discussion:
            "--end-session also ends the provider's browser session (OpenID Connect RP-Initiated Logout): the browser opens the provider's end_session_endpoint with the ID token as id_token_hint and comes back to http://127.0.0.1/logged-out (register it as a post-logout redirect URI), whose state is checked. The local sign-out happens first in every case; exit 1 when the browser session could not be ended.",
        options: [
            .flag("end-session", "End the provider's browser session too (RP-initiated logout)."),
            .value("browser", "CMD", "Open the logout page with this command instead of the system browser."),
            .value("timeout", "SEC", "How long to wait for the browser to come back (default 120)."),
        ] + StoreChoice.options)

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let account = try StoreChoice.account(arguments)
        let store = try StoreChoice.store(arguments, io: io)
        let endSession = arguments.has("end-session")
        let timeout = try arguments.integer("timeout", range: 1...3600)
        let browser = arguments.value("browser")
        if !endSession, browser != nil || timeout != nil {
            throw CLIError.usage("--browser and --timeout are for --end-session")
        }
        guard let client = try SessionLoader.client(arguments, io: io) else {
            try? await store.delete(service: StoreChoice.service, account: account)  // idempotent
            io.out("Signed out (account \(account)); nothing was stored.")
            return ExitCode.success
        }
        let restored: AuthSession?
        do { restored = try await client.restoreSession() } catch { throw StoreChoice.failure(error) }
        if let session = restored {
            let report: SignOutReport
            if endSession {
                let launcher: any BrowserLauncher = browser.map { CommandBrowser(command: $0) } ?? SystemBrowser()
                report = await client.signOut(
                    session,
                    endingBrowserSessionWith: LoopbackBrowser(
                        launcher: launcher, timeout: .seconds(Int64(timeout ?? 120))))
            } else {
                report = await session.signOut()
            }
            io.out("Signed out (account \(account)): \(describe(report))")
            switch report.browserSession {
            case .kept: break
            case .ended: io.out("The provider's browser session was ended (its return carried the request's state).")
            case .opened: io.out("The provider's logout page was opened.")
            case .failed(let reason):
                // Signed out here (exit 1 all the same: what was asked for did not happen).
                if case .failed(_, willRetry: true) = report.revocation {
                } else {
                    try? FileManager.default.removeItem(at: SessionFiles.url(account, io: io))
                }
                throw CLIError.rejected(
                    "end_session_failed", "the provider's browser session could not be ended: \(reason)")
            }
            // The profile stays while a revocation is pending: the next 'warden token' or 'logout' retries it.
            if case .failed(_, willRetry: true) = report.revocation { return ExitCode.success }
            _ = await client.retryPendingRevocations()
        } else {
            // Nothing live to revoke: still delete whatever is stored, and send what an earlier offline logout could
            // not (the same client joins the retry its restore started).
            try? await store.delete(service: StoreChoice.service, account: account)
            let outcomes = await client.retryPendingRevocations()
            if outcomes.contains(where: { if case .failed(_, willRetry: true) = $0 { true } else { false } }) {
                io.out("Signed out (account \(account)); an earlier revocation still cannot be sent, kept for later.")
                return ExitCode.success
            }
            io.out(
                "Signed out (account \(account)); nothing was stored"
                    + (outcomes.isEmpty ? "." : "; \(outcomes.count) earlier revocation(s) sent."))
        }
        try? FileManager.default.removeItem(at: SessionFiles.url(account, io: io))
        return ExitCode.success
    }

    static func describe(_ report: SignOutReport) -> String {
        let local =
            report.localDataDeleted
            ? "local tokens deleted"
            : "local tokens could not all be deleted (\(report.localDeletionError?.codeName ?? "?"))"
        switch report.revocation {
        case .revoked(let type): return "\(local); the \(type.replacingOccurrences(of: "_", with: " ")) was revoked."
        case .failed(let reason, willRetry: true):
            return
                "\(local); the provider could not be reached (\(reason)): the grant is still live there, the revocation is kept and retried by the next 'warden token' or 'warden logout'."
        case .failed(let reason, willRetry: false):
            return "\(local); the provider refused the revocation (\(reason))."
        case .noEndpoint:
            return "\(local); the provider has no revocation endpoint: the grant stays live until it expires."
        case .nothingToRevoke: return "\(local); nothing to revoke."
        }
    }
}

enum SessionLoader {
    /// The account's client from its profile, or nil when there is no profile.
    static func client(_ arguments: ParsedArguments, io: CommandIO) throws -> AuthClient? {
        let store = try StoreChoice.store(arguments, io: io)
        let account = try StoreChoice.account(arguments)
        guard let profile = try SessionFiles.load(account: account, io: io) else { return nil }
        var configuration = AuthClient.Configuration(
            issuer: profile.issuer, clientID: profile.clientID,
            redirectURI: try RedirectURI("http://127.0.0.1/callback"), store: store, service: StoreChoice.service,
            account: account, revocationEndpoint: profile.revocationEndpoint.flatMap(URL.init(string:)))
        configuration.tokenParameters = (profile.tokenParameters ?? []).compactMap {
            $0.count == 2 ? ($0[0], $0[1]) : nil
        }
        configuration.trustedAudiences = Set(profile.trustedAudiences ?? [])
        configuration.postLogoutRedirectURI = try RedirectURI("http://127.0.0.1/logged-out")
        return AuthClient(configuration)
    }

    /// The stored session; reads only the store (no discovery: an offline machine still gets a valid token).
    static func load(_ arguments: ParsedArguments, io: CommandIO) async throws -> (AuthSession, AuthClient) {
        let account = try StoreChoice.account(arguments)
        guard let client = try client(arguments, io: io) else {
            throw CLIError.rejected("signed_out", "no session for account '\(account)'; run 'warden login' first")
        }
        let restored: AuthSession?
        do { restored = try await client.restoreSession() } catch { throw StoreChoice.failure(error) }
        guard let session = restored else {
            throw CLIError.rejected("signed_out", "no stored session for account '\(account)'")
        }
        return (session, client)
    }
}
