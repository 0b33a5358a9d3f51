import Foundation
import WardenCore
import WardenJOSE
import WardenOAuth
import WardenStorage

/// The sign-in façade: configured once, it runs the whole chain for every platform — discovery, PKCE S256 + `state`
/// + `nonce`, the browser (``AuthorizationBrowser``: `WebAuthenticationAgent` on Apple platforms, ``LoopbackBrowser``
/// on the desktop, a scripted one in tests), response validation, the code exchange, full ID-token validation,
/// and persistence — and hands back an ``AuthSession`` that refreshes, degrades and signs out (only a refused grant
/// signs out; a transient failure keeps the session).
///
/// Nothing is stored unless every check passed: a forged state, a wrong redirect, a bad ID token signature, a
/// wrong `nonce` or `at_hash` all throw before the store is touched.
///
/// ```swift
/// let client = AuthClient(.init(
///     issuer: "https://id.example.com", clientID: "my-app",
///     redirectURI: try RedirectURI("com.example.app:/oauth/callback"),
///     store: KeychainStore(), service: "com.example.app.tokens"))
/// let signIn = try await client.signIn(with: WebAuthenticationAgent { window })
/// let token = try await signIn.session.validAccessToken()
/// let api = client.authorizedClient(for: signIn.session)
/// let report = await signIn.session.signOut()
/// ```
///
/// **Offline first.** ``restoreSession()`` reads only the store: discovery runs lazily, at the first sign-in,
/// refresh or revocation that needs the provider, so an app launched in airplane mode gets its stored session back
/// and a still-valid access token with zero requests.
///
/// Thread-safety: an actor; discovery is fetched once and cached (a failed fetch is retried at the next need).
public actor AuthClient {
    /// Everything a sign-in needs, set once.
    public struct Configuration: Sendable {
        /// Where the provider's endpoints come from.
        public enum Provider: Sendable {
            /// OpenID / RFC 8414 discovery from this issuer.
            case issuer(String)
            /// Endpoints configured by hand.
            case metadata(ProviderMetadata)
        }

        /// Where the provider's endpoints come from: discovery from an issuer, or metadata given by hand.
        public var provider: Provider
        /// The OAuth client ID registered with the provider.
        public var clientID: String
        /// The registered redirect URI (a loopback browser replaces the port with its listener's).
        public var redirectURI: RedirectURI
        /// The scopes requested at sign-in (default ``AuthClient/Configuration/defaultScopes``).
        public var scopes: [String]
        /// Where the session lives (``ItemTokenStore`` when a `CredentialStore` was given, or a ``SplitTokenStore``).
        public var store: any TokenStore
        /// The store service the session's tokens are saved under.
        public var service: String
        /// The store account the session's tokens are saved under (default `"default"`).
        public var account: String
        /// The HTTP transport for discovery, token requests and authorized API calls (default `URLSessionTransport`).
        public var transport: any HTTPTransport
        /// The retry policy of the clients ``AuthClient/authorizedClient(for:clock:)`` makes.
        public var retryPolicy: RetryPolicy
        /// RFC 7009 endpoint when discovery omits it.
        public var revocationEndpoint: URL?
        /// Demand RFC 9207 `iss` in authorization responses even when discovery does not announce it.
        public var requireIssuerParameter: Bool
        /// Reinstall hygiene, checked before a stored session is restored.
        public var sentinel: InstallSentinel?
        /// Sender-constrained tokens (RFC 9449): every token request and API call carries a proof of this key,
        /// `dpop_jkt` binds the code, and a `Bearer` answer is refused.
        public var dpop: DPoPBinding?
        /// Pushed authorization requests (RFC 9126): nil pushes when the provider has a PAR endpoint, true
        /// requires one, false never pushes.
        public var pushedAuthorization: Bool?
        /// Provider parameters of every sign-in (`audience`, `prompt`, `login_hint`, `max_age`, `acr_values`,
        /// `ui_locales`, `resource`, others); ``AuthClient/signIn(with:parameters:)`` overrides them per sign-in.
        public var authorizationParameters = AuthorizationParameters()
        /// Extra token-request parameters for the code exchange and every refresh (RFC 8707 `resource`, Auth0's
        /// `audience`); the names the token request sets itself are refused.
        public var tokenParameters: [(String, String)] = []
        /// Audiences an ID token's `aud` may name besides ``clientID`` (e.g. the API of an Auth0 `audience`);
        /// any other is refused (OpenID Connect Core §3.1.3.7).
        public var trustedAudiences: Set<String> = []
        /// The largest provider/device clock difference that ID-token validation corrects (``ProviderTime``).
        public var maximumClockOffset: TimeInterval = ProviderTime.defaultMaximumOffset
        /// Where the provider sends the browser after an RP-initiated logout (registered with the provider), for
        /// ``AuthClient/signOut(_:endingBrowserSessionWith:)``.
        public var postLogoutRedirectURI: RedirectURI?
        /// The OpenID Connect RP-Initiated Logout endpoint when discovery omits it.
        public var endSessionEndpoint: URL?
        /// Opt-in for a multi-tenant issuer (Microsoft Entra's `common`, `organizations`, `consumers`): discovery
        /// may announce exactly this template instead of the configured issuer, and each ID token's `iss` must be
        /// the template filled with its own `tid` (an allowed tenant, when the template names them); the session
        /// is stored under that tenant's issuer, and refreshes must keep it. Nil (the default): issuers are equal.
        public var issuerTemplate: TenantIssuerTemplate?
        /// The clock for token expiry and ID-token validation (default `systemNow`).
        public var now: NowProvider

        /// The scopes when none are configured: `openid offline_access`, less `offline_access` where discovery's
        /// `scopes_supported` omits it (``ProviderMetadata/requestableScopes(_:)``). Scopes configured otherwise are
        /// sent as given.
        public static let defaultScopes = ["openid", "offline_access"]

        /// A configuration whose tokens are one item per account in `store` (``ItemTokenStore``).
        @_disfavoredOverload
        public init(
            issuer: String, clientID: String, redirectURI: RedirectURI,
            scopes: [String] = Configuration.defaultScopes,
            store: any CredentialStore, service: String, account: String = "default",
            transport: any HTTPTransport = URLSessionTransport(), retryPolicy: RetryPolicy = RetryPolicy(),
            revocationEndpoint: URL? = nil, requireIssuerParameter: Bool = false, sentinel: InstallSentinel? = nil,
            now: @escaping NowProvider = systemNow
        ) {
            self.init(
                provider: .issuer(issuer), clientID: clientID, redirectURI: redirectURI, scopes: scopes,
                store: ItemTokenStore(store), service: service, account: account, transport: transport,
                retryPolicy: retryPolicy, revocationEndpoint: revocationEndpoint,
                requireIssuerParameter: requireIssuerParameter, sentinel: sentinel, now: now)
        }

        /// A configuration over a token store (a ``SplitTokenStore`` whose refresh token is biometric-bound).
        public init(
            issuer: String, clientID: String, redirectURI: RedirectURI,
            scopes: [String] = Configuration.defaultScopes,
            store: any TokenStore, service: String, account: String = "default",
            transport: any HTTPTransport = URLSessionTransport(), retryPolicy: RetryPolicy = RetryPolicy(),
            revocationEndpoint: URL? = nil, requireIssuerParameter: Bool = false, sentinel: InstallSentinel? = nil,
            now: @escaping NowProvider = systemNow
        ) {
            self.init(
                provider: .issuer(issuer), clientID: clientID, redirectURI: redirectURI, scopes: scopes, store: store,
                service: service, account: account, transport: transport, retryPolicy: retryPolicy,
                revocationEndpoint: revocationEndpoint, requireIssuerParameter: requireIssuerParameter,
                sentinel: sentinel, now: now)
        }

        /// A configuration for `provider` whose tokens are one item per account in `store` (``ItemTokenStore``).
        @_disfavoredOverload
        public init(
            provider: Provider, clientID: String, redirectURI: RedirectURI,
            scopes: [String] = Configuration.defaultScopes, store: any CredentialStore, service: String,
            account: String = "default", transport: any HTTPTransport = URLSessionTransport(),
            retryPolicy: RetryPolicy = RetryPolicy(), revocationEndpoint: URL? = nil,
            requireIssuerParameter: Bool = false, sentinel: InstallSentinel? = nil,
            now: @escaping NowProvider = systemNow
        ) {
            self.init(
                provider: provider, clientID: clientID, redirectURI: redirectURI, scopes: scopes,
                store: ItemTokenStore(store), service: service, account: account, transport: transport,
                retryPolicy: retryPolicy, revocationEndpoint: revocationEndpoint,
                requireIssuerParameter: requireIssuerParameter, sentinel: sentinel, now: now)
        }

        /// A configuration for `provider` over a token store.
        public init(
            provider: Provider, clientID: String, redirectURI: RedirectURI,
            scopes: [String] = Configuration.defaultScopes, store: any TokenStore, service: String,
            account: String = "default", transport: any HTTPTransport = URLSessionTransport(),
            retryPolicy: RetryPolicy = RetryPolicy(), revocationEndpoint: URL? = nil,
            requireIssuerParameter: Bool = false, sentinel: InstallSentinel? = nil,
            now: @escaping NowProvider = systemNow
        ) {
            self.provider = provider
            self.clientID = clientID
            self.redirectURI = redirectURI
            self.scopes = scopes
            self.store = store
            self.service = service
            self.account = account
            self.transport = transport
            self.retryPolicy = retryPolicy
            self.revocationEndpoint = revocationEndpoint
            self.requireIssuerParameter = requireIssuerParameter
            self.sentinel = sentinel
            self.now = now
        }
    }

    /// A completed sign-in.
    public struct SignIn: Sendable {
        /// The stored, live session.
        public let session: AuthSession
        /// The validated ID token's claims (nil when `openid` was not requested).
        public let claims: JWTClaims?
        /// The redirect URI the provider was sent (with the loopback port, where there is one).
        public let redirectURI: String
    }

    /// Readable without `await` (a value, fixed at creation).
    public nonisolated let configuration: Configuration
    /// The migration running now (``migrateSession(_:)`` runs one at a time).
    var migrationRun: Task<SessionMigration.Outcome, any Error>?
    private var cachedMetadata: ProviderMetadata?
    private var cachedVerification: IDTokenVerification?
    private var revocationRetry: Task<[SignOutReport.Revocation], Never>?

    /// A client for `configuration`; nothing is fetched until a sign-in, refresh or revocation needs it.
    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// The provider's metadata (discovered once, then cached), with the configured revocation endpoint.
    public func metadata() async throws(OAuthError) -> ProviderMetadata {
        if let cachedMetadata { return cachedMetadata }
        var metadata: ProviderMetadata
        switch configuration.provider {
        case .metadata(let given): metadata = given
        case .issuer(let issuer):
            metadata = try await ProviderMetadata.discover(
                issuer: issuer, transport: configuration.transport, issuerTemplate: configuration.issuerTemplate)
        }
        if let revocation = configuration.revocationEndpoint {
            metadata = try metadata.withRevocationEndpoint(revocation)
        }
        if let endSession = configuration.endSessionEndpoint {
            metadata = try metadata.withEndSessionEndpoint(endSession)
        }
        cachedMetadata = metadata
        return metadata
    }

    /// The ID-token verification of this client: one JWKS cache for every sign-in and refresh, so a rotated key is
    /// fetched once (an unknown `kid` refetches at most once a minute) instead of at every token.
    func idTokenVerification() async throws(OAuthError) -> IDTokenVerification {
        if let cachedVerification { return cachedVerification }
        let verification = try IDTokenVerification(
            metadata: try await metadata(), clientID: configuration.clientID,
            trustedAudiences: configuration.trustedAudiences, transport: configuration.transport,
            maximumClockOffset: configuration.maximumClockOffset, now: configuration.now)
        cachedVerification = verification
        return verification
    }

    /// Signs the user in through `browser` and stores the session; see the type's documentation for the steps.
    ///
    /// Every failure is an ``OAuthError`` an app can switch over: the provider's refusals and the checks' codes as
    /// they are, a session that could not be stored as ``OAuthError/Code/storageFailed`` (the store's error as
    /// ``OAuthError/underlying``), a cancelled task as ``OAuthError/Code/cancelled``, and any other error a
    /// browser throws as ``OAuthError/Code/browserFailed`` (its own `WardenError` kept as the underlying one).
    ///
    /// ```swift
    /// do { session = try await client.signIn(with: browser).session } catch {
    ///     switch error.code {
    ///     case .cancelled, .accessDenied: break                      // the user said no: show nothing
    ///     case .network, .timedOut: showRetry()
    ///     default: showNotice(error.reason)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter parameters: provider parameters for this sign-in, over the configuration's
    ///   (``AuthorizationParameters/merged(over:)``); e.g. `prompt=select_account` to switch accounts.
    public func signIn(with browser: any AuthorizationBrowser, parameters: AuthorizationParameters? = nil)
        async throws(OAuthError) -> SignIn
    {
        do { return try await signInSteps(with: browser, parameters: parameters) } catch {
            throw Self.signInError(error)
        }
    }

    /// A sign-in failure as the one error type ``signIn(with:parameters:)`` throws.
    static func signInError(_ error: any Error) -> OAuthError {
        switch error {
        case let error as OAuthError: return error
        case let error as StorageError:
            return OAuthError(
                .storageFailed, "the signed-in session could not be stored (\(error.code))", underlying: error)
        case is CancellationError: return OAuthError(.cancelled, "the sign-in task was cancelled")
        case let error as TransportError:
            return OAuthError(
                error.failureKind == .transient ? .network : .browserFailed,
                "the browser's request failed (\(error.code))",
                underlying: error)
        case let error as any WardenError:
            return OAuthError(.browserFailed, "the browser failed (\(error.codeName))", underlying: error)
        default:
            // Another library's error: its type names it; its text may carry what the browser saw, so it stays out.
            return OAuthError(.browserFailed, "the browser failed (\(type(of: error)))")
        }
    }

    private func signInSteps(with browser: any AuthorizationBrowser, parameters: AuthorizationParameters?)
        async throws -> SignIn
    {
        let metadata = try await metadata()
        if metadata.issuerTemplate != nil, !configuration.scopes.contains("openid") {
            // Only the ID token names the tenant; refused before the browser opens (no grant to throw away).
            throw OAuthError(.invalidConfiguration, "a tenant issuer template needs the openid scope")
        }
        let merged =
            parameters?.merged(over: configuration.authorizationParameters)
            ?? configuration.authorizationParameters
        var request = try AuthorizationRequest(
            metadata: metadata, clientID: configuration.clientID, redirectURI: configuration.redirectURI,
            scopes: configuration.scopes == Configuration.defaultScopes
                ? metadata.requestableScopes(configuration.scopes) : configuration.scopes,
            parameters: merged)
        request.transport = configuration.transport
        request.pushed = configuration.pushedAuthorization
        request.dpopThumbprint = configuration.dpop?.thumbprint
        let client = try tokenClient(metadata)
        let code = try await browser.authorize(request, requireIssuer: configuration.requireIssuerParameter)
        do {
            let signIn = try await complete(code, client: client, metadata: metadata)
            await browser.signInFinished(code.pending, error: nil)
            return signIn
        } catch {
            await browser.signInFinished(code.pending, error: error)  // the loopback page names the refusal
            throw error
        }
    }

    /// After the redirect: the code exchange, the ID-token validation and persistence.
    private func complete(_ code: AuthorizationCode, client: TokenClient, metadata: ProviderMetadata) async throws
        -> SignIn
    {
        let response = try await client.exchange(code)
        var claims: JWTClaims?
        if configuration.scopes.contains("openid") {
            claims = try await idTokenVerification().verify(
                response, nonce: code.pending.nonce?.unredacted(), maxAge: code.pending.maxAge,
                acrValues: code.pending.acrValues)
        }
        return try await store(
            response, claims: claims, metadata: metadata, sentIssuer: code.issuer, redirect: code.pending.redirect)
    }

    /// Signs the user in on a device without a browser (RFC 8628): asks the provider for a device code, hands the
    /// user code and the verification URI to `show` (a TV screen, a terminal line, a QR code of
    /// ``DeviceAuthorization/verificationURIComplete``), polls until the user approves on another device, validates the
    /// ID token (with `openid`; no `nonce` exists in this grant) and stores the session — the chain of
    /// ``signIn(with:parameters:)`` from the code exchange on. A denial is ``OAuthError/Code/accessDenied``, an expired
    /// code ``OAuthError/Code/expiredToken``; a provider without the endpoint
    /// ``OAuthError/Code/noDeviceAuthorizationEndpoint`` (GitHub and Twitch publish no discovery: configure
    /// `.metadata(…withDeviceAuthorizationEndpoint(_:))`).
    ///
    /// ```swift
    /// let signIn = try await client.signInOnDevice { authorization in
    ///     print("Open \(authorization.verificationURI) and enter \(authorization.userCode)")
    /// }
    /// ```
    public func signInOnDevice(
        parameters: [(String, String)] = [], clock: any Clock<Duration> = ContinuousClock(),
        show: @Sendable (DeviceAuthorization) async -> Void
    ) async throws(OAuthError) -> SignIn {
        do {
            let metadata = try await metadata()
            if metadata.issuerTemplate != nil, !configuration.scopes.contains("openid") {
                throw OAuthError(.invalidConfiguration, "a tenant issuer template needs the openid scope")
            }
            let client = try tokenClient(metadata)
            let scopes =
                configuration.scopes == Configuration.defaultScopes
                ? metadata.requestableScopes(configuration.scopes) : configuration.scopes
            let authorization = try await client.authorizeDevice(scopes: scopes, parameters: parameters)
            await show(authorization)
            let response = try await client.pollDeviceToken(authorization, clock: clock)
            var claims: JWTClaims?
            if configuration.scopes.contains("openid") {
                claims = try await idTokenVerification().verify(response, nonce: nil)
            }
            return try await store(response, claims: claims, metadata: metadata, sentIssuer: nil, redirect: "")
        } catch {
            throw Self.signInError(error)
        }
    }

    /// A validated token response as the stored session: the issuer (a tenant's, proved by its ID token, under a
    /// template), the token set, the write.
    private func store(
        _ response: TokenResponse, claims: JWTClaims?, metadata: ProviderMetadata, sentIssuer: String?,
        redirect: String
    ) async throws -> SignIn {
        var issuer = metadata.issuer
        if metadata.issuerTemplate != nil {
            // The tenant's own issuer, which the ID token proved; an RFC 9207 iss must name the same tenant.
            guard let tenantIssuer = try claims?.issuer else {
                throw OAuthError(.invalidConfiguration, "a tenant issuer template needs the openid scope")
            }
            if let sentIssuer, !CodePoints.equal(sentIssuer, tenantIssuer) {
                throw OAuthError(.issuerMismatch, "the response's iss and the ID token's iss name different tenants")
            }
            issuer = tenantIssuer
        }
        let tokens = TokenSet(
            response: response, issuer: issuer, now: configuration.now(),
            dpopThumbprint: configuration.dpop?.thumbprint)
        let session = AuthSession(
            tokens: tokens, store: configuration.store, service: configuration.service,
            account: configuration.account, refresher: ProviderEndpoint(client: self), now: configuration.now,
            dpop: configuration.dpop)
        try await session.persist()
        return SignIn(session: session, claims: claims, redirectURI: redirect)
    }

    /// The stored session of the configured account (after the reinstall check), or nil when signed out.
    ///
    /// Needs no network: only the store is read. Revocations that failed at an earlier sign-out are retried in the
    /// background (``retryPendingRevocations()`` awaits them).
    public func restoreSession() async throws(StorageError) -> AuthSession? {
        let session = try await AuthSession.restore(
            store: configuration.store, service: configuration.service, account: configuration.account,
            refresher: ProviderEndpoint(client: self), sentinel: configuration.sentinel, now: configuration.now,
            dpop: configuration.dpop)
        startRevocationRetry()
        guard case .signedIn = await session.state else { return nil }
        return session
    }

    /// Sends the revocations an earlier ``AuthSession/signOut()`` could not (offline), once each; those that fail
    /// transiently again are kept for the next launch or network return, the others are forgotten. Joins a retry
    /// already running. Returns one outcome per revocation tried.
    ///
    /// ```swift
    /// NetworkPathObserver {
    ///     await session.networkBecameAvailable()
    ///     _ = await client.retryPendingRevocations()
    /// }
    /// ```
    @discardableResult
    public func retryPendingRevocations() async -> [SignOutReport.Revocation] {
        await startRevocationRetry().value
    }

    @discardableResult
    private func startRevocationRetry() -> Task<[SignOutReport.Revocation], Never> {
        if let revocationRetry { return revocationRetry }
        let pending = PendingRevocations(
            store: configuration.store.records, service: configuration.service, account: configuration.account,
            now: configuration.now)
        let endpoint = ProviderEndpoint(client: self)
        let task = Task {
            let outcomes = await pending.retry(with: endpoint)
            self.revocationRetryFinished()
            return outcomes
        }
        revocationRetry = task
        return task
    }

    /// A finished retry is never joined again: the next call (the network's return) sends what is still kept.
    private func revocationRetryFinished() { revocationRetry = nil }

    /// Signs out of `session` (``AuthSession/signOut()``: local deletion first, then revocation) and then ends the
    /// provider's browser session through `browser` — the same browser the sign-in used — with an RP-initiated
    /// logout (OpenID Connect RP-Initiated Logout 1.0): `id_token_hint` (the session's ID token),
    /// ``Configuration/postLogoutRedirectURI`` and a `state` checked on return.
    ///
    /// Without it, the browser's cookie at the provider signs the same user straight back in; with it, the next
    /// sign-in asks who the user is. ``SignOutReport/browserSession`` says what happened; the local sign-out has
    /// happened in every case.
    ///
    /// ```swift
    /// let report = await client.signOut(session, endingBrowserSessionWith: WebAuthenticationAgent { window })
    /// ```
    @discardableResult
    public func signOut(_ session: AuthSession, endingBrowserSessionWith browser: any AuthorizationBrowser) async
        -> SignOutReport
    {
        let idToken = await session.currentTokens?.idToken?.unredacted()
        var report = await session.signOut()
        do {
            let request = try EndSessionRequest(
                metadata: try await metadata(), clientID: configuration.clientID, idTokenHint: idToken,
                postLogoutRedirectURI: configuration.postLogoutRedirectURI,
                uiLocales: configuration.authorizationParameters.uiLocales)
            switch try await browser.endSession(request) {
            case .confirmed: report.browserSession = .ended
            case .opened: report.browserSession = .opened
            }
        } catch {
            report.browserSession = .failed(reason: (error as? any WardenError)?.summary ?? "the browser failed")
        }
        return report
    }

    /// The signed-in user's claims from the provider's UserInfo endpoint (OpenID Connect Core §5.3), as Auth0's
    /// `userProfile()` and Okta's `userInfo()` give them: requested with the session's access token (Bearer or DPoP,
    /// refreshed once on a 401), answered as a JSON object whose `sub` must equal the session's ID token's, code point
    /// for code point (§5.3.2: otherwise "the UserInfo Response values MUST NOT be used"). A session without an ID
    /// token (plain OAuth 2.0) has nothing to compare with: the response's own `sub` is required and returned as is.
    /// For who is signed in *without* the network, read ``AuthSession/idTokenClaims``.
    ///
    /// ```swift
    /// let profile = try await client.userInfo(for: session)
    /// let email = try profile.string("email")
    /// ```
    ///
    /// - Throws: ``OAuthError/Code/noUserInfoEndpoint`` when the provider announces none;
    ///   ``OAuthError/Code/invalidUserInfo`` for a response that is not a JSON object with a `sub`, a signed or
    ///   encrypted one (`application/jwt`, not supported), or another user's; ``OAuthError/Code/httpError`` for another
    ///   status; the transport's and the session's errors as they are.
    public func userInfo(for session: AuthSession) async throws -> JWTClaims {
        let metadata = try await metadata()
        guard let endpoint = metadata.userinfoEndpoint else {
            throw OAuthError(.noUserInfoEndpoint, "the provider announces no userinfo_endpoint")
        }
        let response = try await authorizedClient(for: session).send(
            HTTPRequest(url: endpoint, headers: ["Accept": "application/json"]))
        guard response.status == 200 else {
            throw OAuthError(.httpError, "the UserInfo endpoint answered \(response.status)", status: response.status)
        }
        let type = response.headers.first { $0.key.lowercased() == "content-type" }?.value.lowercased() ?? ""
        guard !type.hasPrefix("application/jwt") else {
            throw OAuthError(
                .invalidUserInfo, "signed or encrypted UserInfo responses (application/jwt) are not supported")
        }
        let object: JSONObject
        do { object = try JSONReader(maximumBytes: 64 << 10).parseObject(Array(response.body)) } catch {
            throw OAuthError(.invalidUserInfo, "the UserInfo response is not a JSON object: \(error.reason)")
        }
        let claims = JWTClaims(object: object)
        guard let subject = try? claims.subject, !subject.isEmpty else {
            throw OAuthError(.invalidUserInfo, "the UserInfo response has no sub")
        }
        if let expected = try? await session.idTokenClaims?.subject, !CodePoints.equal(subject, expected) {
            throw OAuthError(
                .invalidUserInfo, "the UserInfo sub is not the ID token's (OpenID Connect Core §5.3.2): not used")
        }
        return claims
    }

    /// An HTTP client that authorizes requests with `session` (single-flight refresh on 401, retries, degradation).
    public nonisolated func authorizedClient(
        for session: AuthSession, clock: any Clock<Duration> = ContinuousClock()
    ) -> AuthorizedClient {
        AuthorizedClient(
            session: session, transport: configuration.transport, retryPolicy: configuration.retryPolicy, clock: clock,
            now: configuration.now)
    }

    /// The token endpoint client, resolving the metadata first (lazily: the first refresh after an offline launch
    /// is where discovery happens).
    func tokenClient() async throws(OAuthError) -> TokenClient { try tokenClient(try await metadata()) }

    private func tokenClient(_ metadata: ProviderMetadata) throws(OAuthError) -> TokenClient {
        try TokenClient(
            metadata: metadata, clientID: configuration.clientID, transport: configuration.transport,
            dpop: configuration.dpop, additionalParameters: configuration.tokenParameters, now: configuration.now)
    }
}

/// The provider's token and revocation endpoints as a ``TokenRefresher`` whose metadata is resolved at the first
/// request, never at restore.
struct ProviderEndpoint: TokenRefresher {
    let client: AuthClient

    func refresh(refreshToken: String, scope: String?) async throws(OAuthError) -> TokenResponse {
        try await client.tokenClient().refresh(refreshToken: refreshToken, scope: scope)
    }

    func revoke(token: String, hint: String) async throws(OAuthError) {
        try await client.tokenClient().revoke(token: token, hint: hint)
    }

    func checkRefreshedIDToken(_ response: TokenResponse, current: String?) async -> RefreshedIDToken {
        guard response.idToken != nil else { return .absent }
        do throws(OAuthError) {
            return try await client.idTokenVerification().check(response, current: current)
        } catch {
            return .unchecked(error.reason)
        }
    }
}
