#if WARDEN_APPLE
    import Foundation
    import WardenOAuth

    /// The Apple ``AuthorizationBrowser``: `AuthClient.signIn(with: WebAuthenticationAgent { window })` runs the same
    /// chain (discovery, PKCE, exchange, ID-token validation, storage) as the desktop loopback and the tests, and
    /// `AuthClient.signOut(_:endingBrowserSessionWith:)` ends the provider's session in the same sheet
    /// (the main-actor ``WebAuthenticationAgent/endSession(_:)`` witnesses the async requirement).
    extension WebAuthenticationAgent: AuthorizationBrowser {
        /// Prepares `request` and runs it in the sheet (``WebAuthenticationAgent/authorize(url:pending:)``);
        /// `requireIssuer` demands RFC 9207 `iss` in the response.
        public nonisolated func authorize(_ request: AuthorizationRequest, requireIssuer: Bool) async throws
            -> AuthorizationCode
        {
            var (url, pending) = try await request.prepare()
            if requireIssuer { pending = pending.requiringIssuer() }
            return try await authorize(url: url, pending: pending)
        }
    }
#endif
