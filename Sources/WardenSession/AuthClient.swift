import Foundation
import WardenCore
import WardenJOSE
import WardenOAuth
import WardenStorage

/// The sign-in façade: configured once, it runs the whole chain for every platform — discovery, PKCE S256 + `state`
/// + `nonce`, the browser (``AuthorizationBrowser``: `WebAuthenticationAgent` on Apple platforms, ``LoopbackBrowser``
/// on the desktop, ``ScriptedBrowser`` in tests), response validation, the code exchange, full ID-token validation,
/// and persistence — and hands back an ``AuthSession`` that refreshes, degrades and signs out as the checklist says.
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
/// await signIn.session.signOut()
/// ```
///
/// Thread-safety: an actor; discovery is fetched once and cached.
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

        public var provider: Provider
        public var clientID: String
        /// The registered redirect URI (a loopback browser replaces the port with its listener's).
        public var redirectURI: RedirectURI
        public var scopes: [String]
        public var store: any CredentialStore
        public var service: String
        public var account: String
        public var transport: any HTTPTransport
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
        public var now: NowProvider

        public init(
            issuer: String, clientID: String, redirectURI: RedirectURI,
            scopes: [String] = ["openid", "offline_access"],
            store: any CredentialStore, service: String, account: String = "default",
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

        public init(
            provider: Provider, clientID: String, redirectURI: RedirectURI,
            scopes: [String] = ["openid", "offline_access"], store: any CredentialStore, service: String,
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

    public let configuration: Configuration
    private var cachedMetadata: ProviderMetadata?

    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// The provider's metadata (discovered once, then cached), with the configured revocation endpoint.
    public func metadata() async throws(OAuthError) -> ProviderMetadata {
        if let cachedMetadata { return cachedMetadata }
        var metadata: ProviderMetadata
        switch configuration.provider {
        case .metadata(let given): metadata = given
        case .issuer(let issuer):
            metadata = try await ProviderMetadata.discover(issuer: issuer, transport: configuration.transport)
        }
        if let revocation = configuration.revocationEndpoint {
            metadata = try metadata.withRevocationEndpoint(revocation)
        }
        cachedMetadata = metadata
        return metadata
    }

    /// Signs the user in through `browser` and stores the session; see the type's documentation for the steps.
    public func signIn(with browser: any AuthorizationBrowser) async throws -> SignIn {
        let metadata = try await metadata()
        var request = try AuthorizationRequest(
            metadata: metadata, clientID: configuration.clientID, redirectURI: configuration.redirectURI,
            scopes: configuration.scopes)
        request.transport = configuration.transport
        request.pushed = configuration.pushedAuthorization
        request.dpopThumbprint = configuration.dpop?.thumbprint
        let code = try await browser.authorize(request, requireIssuer: configuration.requireIssuerParameter)
        let client = tokenClient(metadata)
        let response = try await client.exchange(code)
        var claims: JWTClaims?
        if configuration.scopes.contains("openid") {
            claims = try await IDTokenVerification.verify(
                response, metadata: metadata, clientID: configuration.clientID,
                nonce: code.pending.nonce?.unredacted(), transport: configuration.transport, now: configuration.now)
        }
        let tokens = TokenSet(
            response: response, issuer: metadata.issuer, now: configuration.now(),
            dpopThumbprint: configuration.dpop?.thumbprint)
        let session = AuthSession(
            tokens: tokens, store: configuration.store, service: configuration.service,
            account: configuration.account, refresher: client, now: configuration.now, dpop: configuration.dpop)
        try await session.persist()
        return SignIn(session: session, claims: claims, redirectURI: code.pending.redirect)
    }

    /// The stored session of the configured account (after the reinstall check), or nil when signed out.
    public func restoreSession() async throws -> AuthSession? {
        let metadata = try await metadata()
        let session = try await AuthSession.restore(
            store: configuration.store, service: configuration.service, account: configuration.account,
            refresher: tokenClient(metadata), sentinel: configuration.sentinel, now: configuration.now,
            dpop: configuration.dpop)
        guard case .signedIn = await session.state else { return nil }
        return session
    }

    /// An HTTP client that authorizes requests with `session` (single-flight refresh on 401, retries, degradation).
    public nonisolated func authorizedClient(
        for session: AuthSession, clock: any Clock<Duration> = ContinuousClock()
    ) -> AuthorizedClient {
        AuthorizedClient(
            session: session, transport: configuration.transport, retryPolicy: configuration.retryPolicy, clock: clock,
            now: configuration.now)
    }

    private func tokenClient(_ metadata: ProviderMetadata) -> TokenClient {
        TokenClient(
            metadata: metadata, clientID: configuration.clientID, transport: configuration.transport,
            dpop: configuration.dpop, now: configuration.now)
    }
}
