import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenLocalProvider
import WardenOAuth
import WardenPasskeys
import WardenSession
import WardenStorage
import WardenTestSupport

/// A user agent that "logs in" by fetching the authorization URL and following the redirect to the loopback
/// listener, as a browser would (the local provider approves without a form).
struct ScriptedUserAgent: BrowserLauncher {
    func open(_ url: URL) throws {
        Task.detached {
            // Warden's transport never follows redirects; a browser does, so follow them here (loopback only).
            var next: URL? = url
            for _ in 0..<5 {
                guard let current = next,
                    let response = try? await URLSessionTransport().send(HTTPRequest(url: current, timeout: 10)),
                    (300..<400).contains(response.status), let location = response.header("Location")
                else { return }
                next = URL(string: location, relativeTo: current)?.absoluteURL
            }
        }
    }
}

/// Records every secret the demo sees, so the log check can look for them.
final class SecretLedger: Sendable {
    private let secrets = Locked<[String]>([])
    func add(_ values: String?...) { secrets.withLock { $0 += values.compactMap { $0 }.filter { $0.count >= 12 } } }
    var all: [String] { secrets.current }
}

struct DemoCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "demo",
        abstract: "The end-to-end tour: every link of the chain on an embedded local OpenID provider.",
        discussion: "Exit 0 only if every link held. The embedded provider is for the demo only, never for production.",
        options: [
            .flag("json", #"Print {"links":[{"name","ok","evidence"}],"ok":...}."#),
            .value("issuer", "URL", "Run the parts that need no provider switches against this provider instead."),
            .value("client-id", "ID", "With --issuer: a public client registered for http://127.0.0.1/callback."),
            .value("browser", "CMD", "With --issuer: open the authorization URL with this command."),
            .value("revocation-endpoint", "URL", "With --issuer: RFC 7009 endpoint when discovery omits it."),
        ])

    struct Link {
        let name: String
        var ok: Bool
        var evidence: String
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let sink = CollectingLogSink()
        let ledger = SecretLedger()
        let issuer = arguments.value("issuer")
        let clientID = arguments.value("client-id")
        for name in ["client-id", "browser", "revocation-endpoint"] where issuer == nil && arguments.value(name) != nil
        {
            throw CLIError.usage("'--\(name)' needs '--issuer'")
        }
        let links = try await WardenLog.withSink(sink) {
            if let issuer {
                guard let clientID else { throw CLIError.usage("'--issuer' needs '--client-id'") }
                return try await realProviderTour(
                    issuer: issuer, clientID: clientID, arguments: arguments, io: io, ledger: ledger,
                    progress: !arguments.has("json"))
            }
            return try await tour(io: io, ledger: ledger, progress: !arguments.has("json"))
        }
        // The last link: nothing the demo saw may appear in its logs.
        let canary = SecretCanary(secrets: ledger.all)
        let leaks = canary.leaks(in: sink.lines)
        var all = links
        all.append(
            Link(
                name: "secrets never in logs", ok: leaks.isEmpty && !ledger.all.isEmpty,
                evidence:
                    "\(sink.all.count) log lines (all levels) scanned for \(ledger.all.count) secrets and their 12-character substrings: \(leaks.count) found"
            ))
        let ok = all.allSatisfy(\.ok)
        if arguments.has("json") {
            io.out(
                JSONOutput.string([
                    "ok": ok, "links": all.map { ["name": $0.name, "ok": $0.ok, "evidence": $0.evidence] },
                ]))
        } else {
            io.out("")
            for link in all {
                io.out("\(link.ok ? "✔" : "✘") \(link.name)")
                io.out("    \(link.evidence)")
            }
            io.out("")
            io.out(ok ? "every link held (\(all.count)/\(all.count))" : "\(all.filter { !$0.ok }.count) link(s) broke")
        }
        return ok ? ExitCode.success : ExitCode.rejected
    }

    static func tour(io: CommandIO, ledger: SecretLedger, progress: Bool) async throws -> [Link] {
        var links: [Link] = []
        func step(_ text: String) { if progress { io.err("… \(text)") } }
        let provider = try LocalProvider(clientID: "warden-demo")
        defer { provider.stop() }
        let transport = URLSessionTransport()
        step("local OpenID provider on \(provider.issuer)")

        // Storage first: the Secret Service when reachable, otherwise memory (the sign-in stores into it).
        let service = "dev.warden.demo.\(UUID().uuidString.prefix(8))"
        let account = "demo-user"
        let (store, storeName) = await demoStore(io: io, service: service)

        // 1–2. Sign-in through AuthClient and the loopback browser, ID token verified, session stored.
        // The session reads time through an injected clock, so the demo can step past a backoff without waiting.
        let demoClock = DemoClock()
        var authConfiguration = AuthClient.Configuration(
            issuer: provider.issuer, clientID: provider.clientID,
            redirectURI: try RedirectURI("http://127.0.0.1/callback"), scopes: ["openid", "profile"],
            store: store, service: service, account: account, transport: transport, now: demoClock.now)
        authConfiguration.postLogoutRedirectURI = try RedirectURI("http://127.0.0.1/logged-out")
        let authClient = AuthClient(authConfiguration)
        step("signing in through the system-browser loopback flow")
        let signIn: AuthClient.SignIn
        do {
            signIn = try await authClient.signIn(
                with: LoopbackBrowser(launcher: ScriptedUserAgent(), timeout: .seconds(20)))
        } catch {
            links.append(
                Link(name: "sign-in (loopback, PKCE S256, state, nonce, iss)", ok: false, evidence: "\(error)"))
            return links
        }
        let metadata = try await authClient.metadata()
        let session = signIn.session
        guard let tokens = await session.currentTokens else { return links }
        ledger.add(tokens.accessToken.unredacted(), tokens.refreshToken?.unredacted(), tokens.idToken?.unredacted())
        // What the provider itself observed, not what the client claims to have sent.
        let seen = provider.observations
        links.append(
            Link(
                name: "sign-in (loopback, PKCE S256, state, nonce, iss)",
                // (iss is printed, not judged: the provider always sends its own, so that comparison could not fail.)
                ok: seen.codeChallengeMethod == "S256" && seen.verifierMatched == true && (seen.stateBytes ?? 0) >= 16
                    && seen.nonceEmbedded,
                evidence:
                    "AuthClient.signIn(with: LoopbackBrowser) — redirect \(signIn.redirectURI); the provider observed: code_challenge_method=\(seen.codeChallengeMethod ?? "none"), code_verifier matched: \(seen.verifierMatched.map(String.init) ?? "not sent"), state of \((seen.stateBytes ?? 0) * 8) bits, iss sent: \(seen.issuerSent ?? "none"), nonce embedded in the ID token: \(seen.nonceEmbedded), request pushed (PAR): \(seen.pushed); the client matched state in constant time and required iss"
            ))
        let claims = signIn.claims
        links.append(
            Link(
                name: "ID token verified", ok: claims != nil,
                evidence:
                    "ES256 signature via \(metadata.jwksURI?.absoluteString ?? "?"); iss=\((try? claims?.issuer) ?? nil ?? "?"), aud=\(provider.clientID), exp/iat checked, nonce and at_hash matched, sub=\((try? claims?.subject) ?? nil ?? "?")"
            ))

        // 3. Storage.
        do {
            let stored = try await store.load(service: service, account: account).map { data throws(StorageError) in
                try TokenSet(encoded: data)
            }
            links.append(
                Link(
                    name: "tokens stored", ok: stored?.refreshToken == tokens.refreshToken,
                    evidence: "\(storeName); one versioned item for access+refresh+ID token, read back intact"))
        } catch {
            links.append(Link(name: "tokens stored", ok: false, evidence: "\(storeName): \(error)"))
        }

        // 4. 50 concurrent API calls with an expired token → exactly one refresh, rotated and persisted.
        step("50 concurrent API calls with an expired access token")
        provider.expireAccessTokens()
        let oldRefresh = await session.currentTokens?.refreshToken?.unredacted()
        let refreshesBefore = provider.count("token.refresh_token")
        let api = URL(string: provider.issuer + "/api/resource")!
        let authorized = AuthorizedClient(
            session: session, transport: transport, retryPolicy: RetryPolicy(maximumAttempts: 1))
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { (try? await authorized.send(HTTPRequest(url: api)))?.status ?? -1 } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let refreshes = provider.count("token.refresh_token") - refreshesBefore
        let newTokens = await session.currentTokens
        ledger.add(newTokens?.accessToken.unredacted(), newTokens?.refreshToken?.unredacted())
        let persisted = try? await store.load(service: service, account: account).map { data throws(StorageError) in
            try TokenSet(encoded: data)
        }
        let rotated =
            newTokens?.refreshToken?.unredacted() != oldRefresh && persisted?.refreshToken == newTokens?.refreshToken
        links.append(
            Link(
                name: "single-flight refresh, rotation persisted",
                ok: refreshes == 1 && statuses.allSatisfy { $0 == 200 } && rotated,
                evidence:
                    "50 calls → \(statuses.filter { $0 == 200 }.count)×200; the provider saw \(refreshes) refresh request(s); refresh token rotated and the new one stored before callers resumed"
            ))

        // 5. Provider offline → session kept, read-only; back online → recovers.
        step("provider offline, then back")
        provider.outage = .connectionRefused
        provider.expireAccessTokens()
        let sleeper = RecordingClock()
        let offlineClient = AuthorizedClient(
            session: session, transport: transport,
            retryPolicy: RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(200), jitter: { 0.5 }),
            clock: sleeper, minimumTTL: 1e9)
        let offlineError = await { () -> String in
            do {
                _ = try await offlineClient.send(HTTPRequest(url: api))
                return "no error"
            } catch { return (error as? any WardenError)?.codeName ?? "error" }
        }()
        let degradedState = await session.state
        let keptWhileOffline = (try? await store.load(service: service, account: account)) != nil
        provider.outage = .none
        // Back online, but the session does not hammer: no refresh before its jittered backoff ends.
        let refreshesWhileBackingOff = provider.count("token.refresh_token")
        var backoff = "none"
        do { _ = try await session.validAccessToken(minTTL: 1e9) } catch {
            if let retryAt = error.retryAt {
                backoff = String(format: "%.2f s", retryAt.timeIntervalSince(demoClock.current))
                demoClock.advance(to: retryAt)
            }
        }
        let heldBack = provider.count("token.refresh_token") == refreshesWhileBackingOff
        let recovered = (try? await session.validAccessToken(minTTL: 1e9)) != nil
        let stateAfter = await session.state
        ledger.add(
            await session.currentTokens?.accessToken.unredacted(),
            await session.currentTokens?.refreshToken?.unredacted())
        let transportClient = AuthorizedClient(
            session: session, transport: RefusingTransport(),
            retryPolicy: RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(200), jitter: { 0.5 }),
            clock: sleeper)
        _ = try? await transportClient.send(HTTPRequest(url: api))
        let offlineAPIState = await session.state
        let onlineAgain =
            (try? await AuthorizedClient(session: session, transport: transport).send(HTTPRequest(url: api)))?.status
        let afterOnline = await session.state
        links.append(
            Link(
                name: "offline keeps the session",
                ok: offlineError == "degraded" && !degradedState.canMutate && keptWhileOffline && recovered
                    && stateAfter == .signedIn && heldBack && backoff != "none"
                    && sleeper.slept.count == 2,
                evidence:
                    "refresh while the port was closed → \(offlineError); state \(describe(degradedState)), canMutate=\(degradedState.canMutate), tokens kept in the store; API retries backed off \(sleeper.slept.map { "\($0)" }.joined(separator: ", ")); back online: no refresh during the \(backoff) jittered backoff, then → \(describe(stateAfter))"
            ))

        links.append(
            Link(
                name: "an offline API call makes the session read-only",
                ok: !offlineAPIState.canMutate && offlineAPIState != .signedIn && onlineAgain == 200
                    && afterOnline == .signedIn,
                evidence:
                    "API call with the network down (connection refused, after 3 attempts) → state \(describe(offlineAPIState)), canMutate=\(offlineAPIState.canMutate), session kept; the next request got \(onlineAgain.map(String.init) ?? "nothing") → \(describe(afterOnline))"
            ))

        // 6. 429 with Retry-After.
        step("rate limited with Retry-After")
        let rateSleeper = RecordingClock()
        provider.outage = .rateLimited(retryAfter: 2)
        let limited = AuthorizedClient(session: session, transport: transport, clock: rateSleeper)
        let limitedStatus = (try? await limited.send(HTTPRequest(url: api)))?.status ?? -1
        links.append(
            Link(
                name: "429 Retry-After honoured",
                ok: limitedStatus == 200 && rateSleeper.slept == [.seconds(2)],
                evidence:
                    "429 with Retry-After: 2 → waited \(rateSleeper.slept.map { "\($0)" }.joined(separator: ", ")) (injected clock), then \(limitedStatus)"
            ))

        // 6b. A Retry-After beyond the caller's budget: fail at once with the time, never retry early.
        step("rate limited beyond the budget")
        let budgetSleeper = RecordingClock()
        provider.outage = .rateLimited(retryAfter: 120)
        let apiCallsBefore = provider.count("api")
        let budgeted = AuthorizedClient(
            session: session, transport: transport, retryPolicy: RetryPolicy(maximumTotalDelay: .seconds(60)),
            clock: budgetSleeper, now: demoClock.now)
        let budgetStart = demoClock.current
        var budgetOutcome = "accepted"
        var retryIn: TimeInterval?
        do { _ = try await budgeted.send(HTTPRequest(url: api)) } catch let error as SessionError {
            budgetOutcome = error.codeName
            retryIn = error.retryAt?.timeIntervalSince(budgetStart)
        } catch { budgetOutcome = (error as? any WardenError)?.codeName ?? "error" }
        let apiCalls = provider.count("api") - apiCallsBefore
        provider.outage = .none
        links.append(
            Link(
                name: "rate limit beyond the budget is not retried early",
                ok: budgetOutcome == "rate_limited" && abs((retryIn ?? 0) - 120) < 1
                    && budgetSleeper.slept.isEmpty
                    && apiCalls == 1,
                evidence:
                    "429 with Retry-After: 120 against a 60 s budget → \(budgetOutcome), retry allowed in \(retryIn.map { "\(Int($0)) s" } ?? "?"); \(apiCalls) request(s) sent, \(budgetSleeper.slept.count) sleeps (no early retry)"
            ))

        // 7. Grant revoked at the provider → invalid_grant → signed out, store purged.
        step("grant revoked at the provider")
        provider.revokeAllGrants()
        provider.expireAccessTokens()
        let revokedError = await { () -> String in
            do {
                _ = try await session.validAccessToken(minTTL: 1e9)
                return "no error"
            } catch { return (error as? any WardenError)?.codeName ?? "error" }
        }()
        let afterRevoke = await session.state
        let purged: Bool
        do { purged = try await store.load(service: service, account: account) == nil } catch { purged = false }
        var signedOut = false
        if case .signedOut = afterRevoke { signedOut = true }
        links.append(
            Link(
                name: "revoked grant signs out", ok: revokedError == "signed_out" && signedOut && purged,
                evidence:
                    "refresh → invalid_grant → \(revokedError); state \(describe(afterRevoke)); stored items for the account: \(purged ? 0 : 1)"
            ))

        // 7a. Sign-out that ends the provider's browser session too (RP-initiated logout), then another account.
        step("RP-initiated logout and switching accounts")
        links.append(await logout(client: authClient, provider: provider, ledger: ledger))

        // 7b. The app's life between sign-ins: offline launch, two holders of one grant, an offline sign-out.
        step("offline cold launch, two holders of one grant, sign-out offline")
        links += await DemoSessionLife.links(ledger: ledger)

        // 8. Attack round.
        step("attack round")
        links.append(await attacks(provider: provider, metadata: metadata, transport: transport, ledger: ledger))
        try? await store.deleteAll(service: service)

        // 8b. PAR and DPoP-bound tokens.
        step("pushed authorization request and DPoP-bound tokens")
        links += await parAndDPoP(provider: provider, transport: transport, ledger: ledger)

        // 8c. Sign in with Apple, server side, against the provider's emulation of Apple's endpoints.
        step("Sign in with Apple server calls")
        links.append(await signInWithApple(provider: provider, transport: transport, ledger: ledger))

        // 9. Passkeys, verified on the server.
        step("passkeys")
        links.append(await passkeys())
        return links
    }

    /// RFC 9126 and RFC 9449 on the embedded provider: a sign-in whose front channel carries only `client_id` and
    /// `request_uri`, then DPoP-bound tokens that work with their key and are refused replayed, for another URL and
    /// without the key.
    static func parAndDPoP(provider: LocalProvider, transport: any HTTPTransport, ledger: SecretLedger) async -> [Link]
    {
        var links: [Link] = []
        let parName = "PAR request (RFC 9126)"
        let dpopName = "DPoP-bound tokens (RFC 9449)"
        do {
            provider.requirePushedAuthorizationRequests = true
            provider.requireDPoPNonce = true
            defer {
                provider.requirePushedAuthorizationRequests = false
                provider.requireDPoPNonce = false
            }
            let dpop = DPoPBinding(key: try SoftwareDPoPKey())
            var configuration = AuthClient.Configuration(
                issuer: provider.issuer, clientID: provider.clientID,
                redirectURI: try RedirectURI("http://127.0.0.1/callback"), scopes: ["openid", "profile"],
                store: InMemoryStore(), service: "dev.warden.demo.dpop", transport: transport)
            configuration.dpop = dpop
            let pushedBefore = provider.count("authorize.pushed")
            let signIn = try await AuthClient(configuration).signIn(
                with: LoopbackBrowser(launcher: ScriptedUserAgent(), timeout: .seconds(20)))
            guard let tokens = await signIn.session.currentTokens else { throw CLIError.rejected("demo", "no tokens") }
            ledger.add(tokens.accessToken.unredacted(), tokens.refreshToken?.unredacted(), tokens.idToken?.unredacted())
            let pushed = provider.count("authorize.pushed") - pushedBefore
            links.append(
                Link(
                    name: parName, ok: pushed == 1,
                    evidence:
                        "the provider requires PAR; parameters pushed to \(provider.issuer)/par, the browser opened only client_id + request_uri (one-time, 60 s); \(pushed) pushed authorization(s) served"
                ))
            let api = URL(string: provider.issuer + "/api/resource")!
            let token = tokens.accessToken.unredacted()
            let bound = tokens.dpopThumbprint == dpop.thumbprint
            let withKey = try await AuthorizedClient(session: signIn.session, transport: transport).send(
                HTTPRequest(url: api)
            ).status
            let proof = try dpop.proof(method: "GET", url: api, accessToken: token)
            let headers = ["Authorization": "DPoP " + token, "DPoP": proof]
            let first = try await transport.send(HTTPRequest(url: api, headers: headers)).status
            let replayed = try await transport.send(HTTPRequest(url: api, headers: headers)).status
            let elsewhere = try dpop.proof(
                method: "GET", url: URL(string: provider.issuer + "/userinfo")!, accessToken: token)
            let otherURL = try await transport.send(
                HTTPRequest(url: api, headers: ["Authorization": "DPoP " + token, "DPoP": elsewhere])
            ).status
            let withoutKey = try await transport.send(
                HTTPRequest(url: api, headers: ["Authorization": "Bearer " + token])
            ).status
            let challenges = provider.count("dpop.refused.use_dpop_nonce")
            links.append(
                Link(
                    name: dpopName,
                    ok: bound && withKey == 200 && first == 200 && replayed == 401 && otherURL == 401
                        && withoutKey == 401 && challenges >= 1,
                    evidence:
                        "token_type DPoP bound to jkt \(dpop.thumbprint.prefix(10))…, nonce challenge answered (\(challenges) use_dpop_nonce); API with its key → \(withKey); replayed proof → \(replayed); proof for another URL → \(otherURL); token without its key (Bearer) → \(withoutKey)"
                ))
        } catch {
            if links.isEmpty { links.append(Link(name: parName, ok: false, evidence: "\(error)")) }
            links.append(Link(name: dpopName, ok: false, evidence: "\(error)"))
        }
        return links
    }

    /// The server half of Sign in with Apple on the emulated endpoints: client secret, code exchange with the nonce
    /// required, revoke; a wrong nonce and a secret signed by another key are refused.
    static func signInWithApple(provider: LocalProvider, transport: any HTTPTransport, ledger: SecretLedger) async
        -> Link
    {
        let name = "Sign in with Apple server calls (client secret, exchange, revoke)"
        do {
            let key = try ECPrivateKey(curve: .p256)
            provider.registerAppleClient(
                teamID: "TEAM123456", clientID: "com.example.app", keyID: "KEY1234567", publicKey: key.publicKey)
            func server(_ key: ECPrivateKey) throws -> SignInWithAppleServer {
                SignInWithAppleServer(
                    secret: try AppleClientSecret(
                        teamID: "TEAM123456", clientID: "com.example.app", keyID: "KEY1234567", privateKey: key),
                    transport: transport, base: URL(string: provider.issuer)!, issuer: provider.issuer)
            }
            let apple = try server(key)
            let rawNonce = Base64URL.encode(try SecureRandom().bytes(count: 32))
            let result = try await apple.exchange(
                code: provider.appleAuthorizationCode(rawNonce: rawNonce), rawNonce: rawNonce)
            ledger.add(result.tokens.accessToken.unredacted(), result.tokens.refreshToken?.unredacted())
            func verdict(_ body: () async throws -> Void) async -> String {
                do {
                    try await body()
                    return "accepted"
                } catch { return (error as? any WardenError)?.codeName ?? "error" }
            }
            let wrongNonce = await verdict {
                _ = try await apple.exchange(code: provider.appleAuthorizationCode(rawNonce: rawNonce), rawNonce: "x")
            }
            let impostor = await verdict {
                _ = try await server(try ECPrivateKey(curve: .p256)).exchange(
                    code: provider.appleAuthorizationCode(rawNonce: rawNonce), rawNonce: rawNonce)
            }
            let revokesBefore = provider.count("apple.revoke")
            if let refresh = result.tokens.refreshToken?.unredacted() { try await apple.revoke(refreshToken: refresh) }
            let revoked = provider.count("apple.revoke") - revokesBefore
            let identity = result.identity
            return Link(
                name: name,
                ok: identity.isPrivateEmail == true && identity.realUserStatus == 2 && wrongNonce == "nonce_mismatch"
                    && impostor == "invalid_client" && revoked == 1,
                evidence:
                    "ES256 client secret (kid, iss=team, sub=client, aud=appleid) checked by the emulation; code exchanged, identity token verified with the nonce: sub=\(identity.subject), is_private_email=\(identity.isPrivateEmail ?? false), real_user_status=\(identity.realUserStatus ?? -1); wrong nonce → \(wrongNonce); secret from another key → \(impostor); refresh token revoked (\(revoked) /auth/revoke)"
            )
        } catch {
            return Link(name: name, ok: false, evidence: "\(error)")
        }
    }

    /// The Secret Service when the library and a service are there, otherwise memory — with the reason.
    static func demoStore(io: CommandIO, service: String) async -> (any CredentialStore, String) {
        #if WARDEN_SECRET_SERVICE
            if let why = SecretServiceStore.libraryLoadError {
                return (InMemoryStore(), "memory store (libsecret not loadable: \(why.prefix(80)))")
            }
            guard io.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
                return (InMemoryStore(), "memory store (no D-Bus session bus for a Secret Service)")
            }
            let secretService = SecretServiceStore(timeout: .seconds(5))
            if await secretService.probe(),
                (try? await secretService.save(Data("probe".utf8), service: service, account: "probe")) != nil
            {
                try? await secretService.delete(service: service, account: "probe")
                return (secretService, "Secret Service (libsecret loaded at run time; gnome-keyring or KWallet)")
            }
            return (InMemoryStore(), "memory store (no Secret Service answered on the session bus)")
        #else
            return (InMemoryStore(), "memory store")
        #endif
    }

    /// A passkey registration and sign-in through server-issued challenges, then the three attacks a relying party
    /// must refuse: a replayed challenge, a cloned authenticator's counter, a look-alike origin.
    static func passkeys() async -> Link {
        let name = "passkeys verified server-side (WebAuthn)"
        do {
            let origin = "https://app.example.com"
            let rp = try RelyingParty(id: "example.com", origins: [origin])
            let challenges = InMemoryChallengeStore()
            let session = "demo-session"
            var authenticator = try LocalPasskeyAuthenticator()
            let userHandle = try SecureRandom().bytes(count: 16)
            let issued = try await challenges.issue(binding: session, ceremony: .registration)
            let registration = try authenticator.register(
                rpID: rp.id, origin: origin, challenge: issued.value, userHandle: userHandle)
            let redeemed = try await challenges.redeem(
                clientDataJSON: registration.clientDataJSON, binding: session, ceremony: .registration)
            let record = try rp.verifyRegistration(
                registration, challenge: redeemed.value, userHandle: userHandle, requireUserVerification: true
            ).credential

            func signIn(_ origin: String, count: UInt32? = nil) async throws -> (AssertionResponse, [UInt8]) {
                let challenge = try await challenges.issue(binding: session, ceremony: .authentication)
                let response =
                    try count.map {
                        try authenticator.assertion(rpID: rp.id, origin: origin, challenge: challenge.value, count: $0)
                    } ?? authenticator.assert(rpID: rp.id, origin: origin, challenge: challenge.value)
                return (response, challenge.value)
            }
            func verdict(_ body: () async throws -> Void) async -> String {
                do {
                    try await body()
                    return "accepted"
                } catch let error as PasskeyError {
                    return error.codeName
                } catch {
                    return "\(error)"
                }
            }
            let (assertion, _) = try await signIn(origin)
            let signInChallenge = try await challenges.redeem(
                clientDataJSON: assertion.clientDataJSON, binding: session, ceremony: .authentication)
            let result = try rp.verifyAssertion(
                assertion, challenge: signInChallenge.value, credential: record, requireUserVerification: true)
            let updated = record.updated(by: result)
            let replay = await verdict {
                _ = try await challenges.redeem(
                    clientDataJSON: assertion.clientDataJSON, binding: session, ceremony: .authentication)
            }
            let (cloned, clonedChallenge) = try await signIn(origin, count: updated.signCount)
            let clone = await verdict {
                _ = try rp.verifyAssertion(cloned, challenge: clonedChallenge, credential: updated)
            }
            let (phished, phishedChallenge) = try await signIn("https://app.examp1e.com")
            let phishing = await verdict {
                _ = try rp.verifyAssertion(phished, challenge: phishedChallenge, credential: updated)
            }
            let ok =
                result.newSignCount == 1 && result.userVerified && replay == "challenge_unknown"
                && clone == "sign_count_regression" && phishing == "origin_not_allowed"
            return Link(
                name: name, ok: ok,
                evidence:
                    "ES256 passkey registered (UV, \(updated.attestationFormat) attestation) and signed in with one-time challenges, counter \(result.newSignCount); replayed challenge → \(replay); cloned counter → \(clone); look-alike origin → \(phishing)"
            )
        } catch {
            return Link(name: name, ok: false, evidence: "\(error)")
        }
    }

    /// The links that need no provider switches, against any provider that allows a loopback redirect.
    static func realProviderTour(
        issuer: String, clientID: String, arguments: ParsedArguments, io: CommandIO, ledger: SecretLedger,
        progress: Bool
    )
        async throws -> [Link]
    {
        var links: [Link] = []
        func step(_ text: String) { if progress { io.err("… \(text)") } }
        let transport = URLSessionTransport()
        let revocation = arguments.value("revocation-endpoint").flatMap(URL.init(string:))
        let store = InMemoryStore()
        let authClient = AuthClient(
            .init(
                issuer: issuer, clientID: clientID, redirectURI: try RedirectURI("http://127.0.0.1/callback"),
                scopes: ["openid"], store: store, service: "dev.warden.demo", account: "real", transport: transport,
                revocationEndpoint: revocation))
        let metadata: ProviderMetadata
        do { metadata = try await authClient.metadata() } catch {
            throw CLIError.usage("discovery failed: \(error.reason)", code: error.codeName)
        }
        step("OpenID provider \(metadata.issuer) (no provider switches: sign-in, refresh, attacks, sign-out)")
        let launcher: any BrowserLauncher =
            arguments.value("browser").map { CommandBrowser(command: $0) } ?? SystemBrowser()
        let signIn: AuthClient.SignIn
        do {
            signIn = try await authClient.signIn(with: LoopbackBrowser(launcher: launcher, timeout: .seconds(120)))
        } catch {
            return [Link(name: "sign-in (loopback, PKCE S256, state, nonce)", ok: false, evidence: "\(error)")]
        }
        let session = signIn.session
        guard let tokens = await session.currentTokens else { return links }
        ledger.add(tokens.accessToken.unredacted(), tokens.refreshToken?.unredacted(), tokens.idToken?.unredacted())
        links.append(
            Link(
                name: "sign-in (loopback, PKCE S256, state, nonce)", ok: true,
                evidence:
                    "AuthClient.signIn(with: LoopbackBrowser) — issuer \(metadata.issuer); authorization at \(metadata.authorizationEndpoint.absoluteString); redirect \(signIn.redirectURI); code exchanged at \(metadata.tokenEndpoint.absoluteString) with the PKCE verifier"
            ))
        links.append(
            Link(
                name: "ID token verified", ok: signIn.claims != nil,
                evidence:
                    "signature via \(metadata.jwksURI?.absoluteString ?? "?"); iss/aud/exp/iat/nonce/at_hash checked; sub=\((try? signIn.claims?.subject) ?? nil ?? "?")"
            ))
        let oldRefresh = tokens.refreshToken?.unredacted()
        let results = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<50 { group.addTask { try? await session.validAccessToken(minTTL: 1e9) } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        let fresh = await session.currentTokens
        ledger.add(fresh?.accessToken.unredacted(), fresh?.refreshToken?.unredacted())
        let stored = try? await store.load(service: "dev.warden.demo", account: "real").map {
            data throws(StorageError) in try TokenSet(encoded: data)
        }
        let refreshes = await session.refreshCount
        links.append(
            Link(
                name: "single-flight refresh, rotation persisted",
                ok: refreshes == 1 && Set(results.compactMap { $0 }).count == 1 && results.allSatisfy { $0 != nil }
                    && stored?.refreshToken == fresh?.refreshToken,
                evidence:
                    "50 concurrent callers forced a refresh → \(refreshes) refresh request(s) to \(metadata.tokenEndpoint.absoluteString); refresh token \(fresh?.refreshToken?.unredacted() == oldRefresh ? "kept (not rotated by this provider)" : "rotated") and stored"
            ))
        links.append(await attacks(metadata: metadata, clientID: clientID, transport: transport))
        await session.signOut()
        let purged = (try? await store.load(service: "dev.warden.demo", account: "real")) == .some(nil)
        links.append(
            Link(
                name: "sign-out revokes and deletes", ok: purged,
                evidence: metadata.revocationEndpoint == nil
                    ? "no revocation endpoint known; stored tokens deleted"
                    : "RFC 7009 revocation sent to \(metadata.revocationEndpoint!.absoluteString); stored tokens deleted"
            ))
        return links
    }

    /// The attack round that needs no provider cooperation.
    static func attacks(metadata: ProviderMetadata, clientID: String, transport: any HTTPTransport) async -> Link {
        var results: [String] = []
        var ok = true
        // Only a pending state is needed (nothing is sent): a plain request, also where the provider requires PAR.
        let plain =
            metadata.pushedAuthorizationRequestEndpoint.flatMap {
                try? metadata.withPushedAuthorizationRequestEndpoint($0, required: false)
            } ?? metadata
        guard let redirect = try? RedirectURI("http://127.0.0.1/callback"),
            let request = try? AuthorizationRequest(metadata: plain, clientID: clientID, redirectURI: redirect),
            let (_, pending) = try? request.make(redirectOverride: "http://127.0.0.1:1/callback")
        else { return Link(name: "attack round", ok: false, evidence: "setup failed") }
        func record(_ name: String, _ expected: String, _ body: () async throws -> Void) async {
            do {
                try await body()
                ok = false
                results.append("\(name): ACCEPTED")
            } catch {
                let code = (error as? any WardenError)?.codeName ?? "error"
                if code != expected { ok = false }
                results.append("\(name) → \(code)")
            }
        }
        await record("forged state", "state_mismatch") {
            _ = try pending.validate("http://127.0.0.1:1/callback?code=x&state=forged")
        }
        await record("wrong redirect", "redirect_mismatch") {
            _ = try pending.validate("http://127.0.0.1:1/evil?code=x&state=\(pending.state.unredacted())")
        }
        await record("alg none token", "alg_none") {
            let keys = try JWKSet(json: Array(try await transport.send(HTTPRequest(url: metadata.jwksURI!)).body))
            let token =
                Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array(#"{"iss":"x"}"#.utf8))
                + "."
            _ = try IDTokenValidator(issuer: metadata.issuer, clientID: clientID, keys: keys).validate(
                token, nonce: nil)
        }
        return Link(name: "attack round", ok: ok, evidence: results.joined(separator: "; "))
    }

    static func describe(_ state: SessionState) -> String {
        switch state {
        case .signedIn: "signedIn"
        case .degraded(let reason): "degraded(\(reason))"
        case .signedOut(let reason): "signedOut(\(reason))"
        }
    }

    /// Signs in as alice, shows that a plain sign-out leaves the provider's cookie (bob's sign-in comes back as
    /// alice), then signs out ending the browser session and signs in as bob: the provider's observations say what
    /// it verified and did.
    static func logout(client: AuthClient, provider: LocalProvider, ledger: SecretLedger) async -> Link {
        let name = "sign-out ends the browser session (RP-initiated logout), then another account"
        let browser = LoopbackBrowser(launcher: ScriptedUserAgent(), timeout: .seconds(20))
        func hint(_ account: String) -> AuthorizationParameters {
            var parameters = AuthorizationParameters()
            parameters.loginHint = account
            return parameters
        }
        do {
            var fresh = hint("alice")
            fresh.prompt = [.login]  // the browser still holds the tour's first user: re-authenticate as alice
            let alice = try await client.signIn(with: browser, parameters: fresh)
            let first = (try? alice.claims?.subject) ?? nil
            ledger.add(await alice.session.currentTokens?.accessToken.unredacted())
            await alice.session.signOut()
            let cookie = try await client.signIn(with: browser, parameters: hint("bob"))
            ledger.add(await cookie.session.currentTokens?.accessToken.unredacted())
            let sameUser = (try? cookie.claims?.subject) ?? nil
            let report = await client.signOut(cookie.session, endingBrowserSessionWith: browser)
            let logout = provider.observations.logout
            let bob = try await client.signIn(with: browser, parameters: hint("bob"))
            ledger.add(await bob.session.currentTokens?.accessToken.unredacted())
            let next = (try? bob.claims?.subject) ?? nil
            await bob.session.signOut()
            return Link(
                name: name,
                ok: first == "alice" && sameUser == "alice" && report.browserSession == .ended
                    && logout?.idTokenHintValid == true
                    && logout?.stateReturned == true && next == "bob",
                evidence:
                    "prompt=login + login_hint=alice → sub=\(first ?? "?"); plain signOut() kept the provider's cookie: a sign-in with login_hint=bob came back as \(sameUser ?? "?"); signOut(_:endingBrowserSessionWith:) → \(report.browserSession); the provider verified the id_token_hint: \(logout?.idTokenHintValid ?? false), sent the browser to \(logout?.redirectedTo ?? "nowhere") with the state: \(logout?.stateReturned ?? false), ended its session: \(logout?.browserSessionEnded ?? false); the next sign-in with login_hint=bob → sub=\(next ?? "?")"
            )
        } catch {
            return Link(name: name, ok: false, evidence: "\(error)")
        }
    }

    /// The shared attack round plus a replayed authorization code (the local provider can issue a fresh code).
    static func attacks(
        provider: LocalProvider, metadata: ProviderMetadata, transport: any HTTPTransport, ledger: SecretLedger
    ) async -> Link {
        let shared = await attacks(metadata: metadata, clientID: provider.clientID, transport: transport)
        let replay = await { () -> String in
            do {
                let request = try AuthorizationRequest(
                    metadata: metadata, clientID: provider.clientID,
                    redirectURI: try RedirectURI("http://127.0.0.1/callback"))
                let listener = try LoopbackRedirectListener()
                let (url, fresh) = try request.make(redirectOverride: listener.redirectURI)
                try ScriptedUserAgent().open(url)
                let code = try fresh.validate(try await listener.waitForCallback(timeout: .seconds(10)))
                listener.respond(.signedIn)
                ledger.add(code.code.unredacted())
                let client = TokenClient(metadata: metadata, clientID: provider.clientID, transport: transport)
                let first = try await client.exchange(code)
                ledger.add(
                    first.accessToken.unredacted(), first.refreshToken?.unredacted(), first.idToken?.unredacted())
                _ = try await client.exchange(code)
                return "ACCEPTED"
            } catch { return (error as? any WardenError)?.codeName ?? "error" }
        }()
        return Link(
            name: shared.name, ok: shared.ok && replay == "invalid_grant",
            evidence: shared.evidence + "; replayed code → \(replay)")
    }
}

/// The demo session's clock: real time plus the backoff windows the demo steps past instead of waiting them out.
final class DemoClock: Sendable {
    private let offset = Locked<TimeInterval>(0)
    var current: Date { Date().addingTimeInterval(offset.current) }
    var now: NowProvider { { [self] in current } }
    func advance(to date: Date) {
        let delta = date.timeIntervalSince(current)
        if delta > 0 { offset.withLock { $0 += delta + 0.001 } }
    }
}
