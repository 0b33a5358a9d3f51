// RFC 8252 loopback sign-in is for desktops: compiled where Package.swift defines WARDEN_LOOPBACK (macOS, Linux).
#if WARDEN_LOOPBACK
    import Foundation
    import WardenCore

    /// The desktop ``AuthorizationBrowser``: an RFC 8252 §7.3 loopback redirect. A listener on 127.0.0.1 with an
    /// ephemeral port receives the callback; the request's redirect URI (`http://127.0.0.1/callback` as registered)
    /// is sent with that port; the URL opens in the user's browser (``SystemBrowser`` by default, or any
    /// ``BrowserLauncher``).
    ///
    /// ```swift
    /// let signIn = try await client.signIn(with: LoopbackBrowser(launcher: CommandBrowser(command: "firefox")))
    /// ```
    public struct LoopbackBrowser: AuthorizationBrowser {
        /// What opens the authorization URL (default ``SystemBrowser``).
        public let launcher: any BrowserLauncher
        /// How long to wait for the browser's callback before failing (default 300 seconds).
        public let timeout: Duration
        /// The path the listener takes the sign-in callback on (default `/callback`); it must start with `/` and have
        /// no query or fragment.
        public let path: String
        /// Listeners whose browser request waits for ``signInFinished(_:error:)``, by pending request.
        private let held = Locked<[ObjectIdentifier: LoopbackRedirectListener]>([:])

        /// A loopback browser opening URLs with `launcher` (default ``SystemBrowser``), waiting up to `timeout`
        /// (default 300 seconds) for the callback on `path` (default `/callback`).
        public init(
            launcher: any BrowserLauncher = SystemBrowser(), timeout: Duration = .seconds(300),
            path: String = "/callback"
        ) {
            self.launcher = launcher
            self.timeout = timeout
            self.path = path
        }

        public func authorize(_ request: AuthorizationRequest, requireIssuer: Bool) async throws -> AuthorizationCode {
            let listener = try LoopbackRedirectListener(path: path)
            var (url, pending) = try await request.prepare(redirectOverride: listener.redirectURI)
            if requireIssuer { pending = pending.requiringIssuer() }
            listener.expect(state: pending.state)
            try launcher.open(url)
            let callback = try await listener.waitForCallback(timeout: timeout)
            do {
                let code = try pending.validate(callback)
                // The page waits for the rest of the sign-in (exchange, ID token): signInFinished answers it, or the
                // listener's 30 s bound says it did not complete.
                held.withLock { $0[ObjectIdentifier(code.pending)] = listener }
                return code
            } catch {
                listener.respond(.refused(code: error.codeName))
                throw error
            }
        }

        /// Answers the browser's page with the sign-in's outcome: "Signed in" only when the exchange and the
        /// ID-token validation passed, otherwise the error code. Call it after ``authorize(_:requireIssuer:)`` when
        /// driving this browser without `AuthClient` (which calls it).
        public func signInFinished(_ pending: PendingAuthorization, error: (any Error)?) async {
            let listener = held.withLock { $0.removeValue(forKey: ObjectIdentifier(pending)) }
            guard let listener else { return }
            if let error {
                listener.respond(.refused(code: (error as? any WardenError)?.codeName ?? "sign_in_failed"))
            } else {
                listener.respond(.signedIn)
            }
            listener.stop()
        }

        /// Opens the logout in the browser; with a loopback post-logout redirect (`http://127.0.0.1/logged-out` as
        /// registered) a listener on its path takes the return, validates it and answers "Signed out".
        public func endSession(_ request: EndSessionRequest) async throws -> EndSessionOutcome {
            guard let redirect = request.postLogoutRedirectURI else {
                try launcher.open(try request.url())
                return .opened
            }
            guard redirect.kind == .loopback else {
                throw OAuthError(.invalidRedirectURI, "a loopback browser needs a loopback post_logout_redirect_uri")
            }
            let listener = try LoopbackRedirectListener(path: redirect.path)
            defer { listener.stop() }
            listener.expect(state: request.state)
            try launcher.open(try request.url(redirectOverride: listener.redirectURI))
            let callback = try await listener.waitForCallback(timeout: timeout)
            do {
                try request.validateReturn(callback)
                listener.respond(.signedOut)
                return .confirmed
            } catch {
                listener.respond(.refused(code: error.codeName))
                throw error
            }
        }
    }
#endif
