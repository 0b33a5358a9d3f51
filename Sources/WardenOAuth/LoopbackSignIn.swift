// RFC 8252 loopback sign-in is for desktops: compiled where Package.swift defines WARDEN_LOOPBACK (macOS, Linux).
#if WARDEN_LOOPBACK
    import Foundation
    import WardenCore
    import WardenJOSE

    /// The whole RFC 8252 loopback sign-in for desktop and command-line apps: listener on 127.0.0.1, system
    /// browser, PKCE S256, `state`, `nonce`, RFC 9207 `iss`, the code exchange, and ID token validation against the
    /// provider's JWKS (signature, `iss`, `aud`, `exp`, `iat`, `nonce`, `at_hash`).
    ///
    /// ```swift
    /// let signIn = LoopbackSignIn(metadata: metadata, clientID: "cli", scopes: ["openid", "offline_access"],
    ///                             browser: SystemBrowser(), transport: URLSessionTransport())
    /// let result = try await signIn.run()
    /// ```
    public struct LoopbackSignIn: Sendable {
        public let metadata: ProviderMetadata
        public let clientID: String
        public let scopes: [String]
        public let browser: any BrowserLauncher
        let transport: any HTTPTransport
        public let timeout: Duration
        public let requireIssuer: Bool
        let now: NowProvider

        public init(
            metadata: ProviderMetadata, clientID: String, scopes: [String] = ["openid"], browser: any BrowserLauncher,
            transport: any HTTPTransport, timeout: Duration = .seconds(300), requireIssuer: Bool = false,
            now: @escaping NowProvider = systemNow
        ) {
            self.metadata = metadata
            self.clientID = clientID
            self.scopes = scopes
            self.browser = browser
            self.transport = transport
            self.timeout = timeout
            self.requireIssuer = requireIssuer
            self.now = now
        }

        /// What a sign-in produced.
        public struct Result: Sendable {
            public let tokens: TokenResponse
            /// The validated ID token claims (when `openid` was requested).
            public let idTokenClaims: JWTClaims?
            /// The redirect URI that was used (with its port).
            public let redirectURI: String
        }

        public func run() async throws -> Result {
            let request = try AuthorizationRequest(
                metadata: metadata, clientID: clientID, redirectURI: try RedirectURI("http://127.0.0.1/callback"),
                scopes: scopes)
            let loopback = LoopbackBrowser(launcher: browser, timeout: timeout)
            let code = try await loopback.authorize(request, requireIssuer: requireIssuer)
            do {
                let client = TokenClient(metadata: metadata, clientID: clientID, transport: transport, now: now)
                let tokens = try await client.exchange(code)
                var claims: JWTClaims?
                if scopes.contains("openid") {
                    claims = try await IDTokenVerification(
                        metadata: metadata, clientID: clientID, transport: transport, now: now
                    ).verify(tokens, nonce: code.pending.nonce?.unredacted())
                }
                await loopback.signInFinished(code.pending, error: nil)
                return Result(tokens: tokens, idTokenClaims: claims, redirectURI: code.pending.redirect)
            } catch {
                await loopback.signInFinished(code.pending, error: error)
                throw error
            }
        }
    }
#endif
