#if WARDEN_APPLE
    import AuthenticationServices
    import Foundation
    import WardenOAuth

    /// Presents an authorization request in `ASWebAuthenticationSession` (the system browser sheet) and returns
    /// the validated authorization code.
    ///
    /// - `prefersEphemeralWebBrowserSession` defaults to `false`: the shared browser cookies give single sign-on
    ///   with the user's existing session. Set `true` only for flows the user wants isolated (account switching).
    /// - One sheet at a time: a second concurrent ``authorize(url:pending:)`` fails with
    ///   ``OAuthError/Code/signInInProgress``; cancelling the calling task dismisses the sheet and throws
    ///   ``OAuthError/Code/cancelled``.
    /// - `canceledLogin` becomes ``OAuthError/Code/cancelled`` (`.userCancelled`, never retried); a missing or invalid
    ///   presentation anchor ``OAuthError/Code/presentationUnavailable`` (misconfiguration), never a network error.
    /// - The callback URL is validated by ``PendingAuthorization/validate(_:)`` (state, iss, duplicates...).
    ///
    /// The completion handler AuthenticationServices calls (on a background queue on macOS) is built in a
    /// `nonisolated` static function, so it is `@Sendable` and not main-actor isolated: it never traps on Swift 6's
    /// runtime isolation check. It only hands the outcome to the portable ``BrowserSessionSlot``, which resumes the
    /// caller exactly once; going back to the main actor is explicit (`Task { @MainActor in ... }`).
    ///
    /// APIs: `ASWebAuthenticationSession(url:callback:completionHandler:)` (iOS 17.4, macOS 14.4) or
    /// `init(url:callbackURLScheme:completionHandler:)`; `presentationContextProvider`; `start()`; `cancel()`.
    ///
    /// ```swift
    /// let agent = WebAuthenticationAgent { view.window ?? ASPresentationAnchor() }  // no `window!`: off screen, nil
    /// let code = try await agent.authorize(url: url, pending: pending)
    /// ```
    @MainActor
    public final class WebAuthenticationAgent: NSObject, ASWebAuthenticationPresentationContextProviding {
        /// Whether the sheet uses a private browser session (no shared cookies, so no single sign-on); default `false`.
        public var prefersEphemeralWebBrowserSession = false
        private let anchor: () -> ASPresentationAnchor
        private let slot = BrowserSessionSlot()

        /// The session one run presented: cancellation hops to the main actor later, and must dismiss this run's
        /// sheet, never a sheet a later run presented meanwhile.
        @MainActor private final class Presented {
            var session: ASWebAuthenticationSession?
        }

        /// - Parameter anchor: the window to present from.
        public init(anchor: @escaping () -> ASPresentationAnchor) { self.anchor = anchor }

        /// `nonisolated` and entered with `MainActor.assumeIsolated`: the requirement is main-actor isolated only in
        /// SDKs whose headers say so (iOS 17 on), so a main-actor witness does not compile against older ones; the
        /// system calls it on the main thread in both.
        public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor() }
        }

        /// Runs the request; returns the code to exchange with ``TokenClient/exchange(_:)``.
        public func authorize(url: URL, pending: PendingAuthorization) async throws -> AuthorizationCode {
            let callbackURL = try await present(
                url, returningTo: pending.redirectURI, ephemeral: prefersEphemeralWebBrowserSession)
            return try pending.validate(callbackURL.absoluteString)
        }

        /// Opens an RP-initiated logout in the same browser session (so the provider's cookie is the one that goes)
        /// and validates the return to its post-logout redirect (``EndSessionRequest/validateReturn(_:)``).
        ///
        /// `ASWebAuthenticationSession` needs a callback to finish, so a post-logout redirect (a custom-scheme or, on
        /// iOS 17.4+, claimed https one registered with the provider) is required here. The logout always runs in the
        /// shared browser session, where the provider's cookie is, even when ``prefersEphemeralWebBrowserSession``
        /// is set; like the sign-in, iOS first asks the user to let the app use the provider's site.
        public func endSession(_ request: EndSessionRequest) async throws -> EndSessionOutcome {
            guard let redirect = request.postLogoutRedirectURI else {
                throw OAuthError(
                    .invalidConfiguration, "ASWebAuthenticationSession needs a post_logout_redirect_uri to come back to"
                )
            }
            // The provider's cookie lives in the shared browser session: an ephemeral sheet would show the logout page
            // and leave that cookie in place, reporting an end that did not happen.
            let callbackURL = try await present(try request.url(), returningTo: redirect, ephemeral: false)
            try request.validateReturn(callbackURL.absoluteString)
            return .confirmed
        }

        /// Shows `url` in the browser sheet until it is sent to `redirect`; returns that URL.
        private func present(_ url: URL, returningTo redirect: RedirectURI, ephemeral: Bool) async throws -> URL {
            guard let callback = WebAuthenticationCallback(redirect) else {
                throw OAuthError(.invalidRedirectURI, "ASWebAuthenticationSession cannot use a loopback redirect")
            }
            if case .https = callback, !Self.supportsHTTPSCallbacks {
                throw OAuthError(.invalidRedirectURI, "https callbacks need iOS 17.4 / macOS 14.4 / visionOS 1.1")
            }
            // Kept by the cancel closure for the whole run and by a pending cancellation after it.
            let presented = Presented()
            return try await slot.run(
                start: { complete in
                    let session = try Self.makeSession(
                        url: url, callback: callback, completion: Self.completion(complete))
                    session.prefersEphemeralWebBrowserSession = ephemeral
                    session.presentationContextProvider = self
                    presented.session = session
                    guard session.start() else {
                        presented.session = nil
                        throw OAuthError(
                            .presentationUnavailable, "the browser sheet did not start (no window to present from?)")
                    }
                },
                cancel: { Task { @MainActor in presented.session?.cancel() } })
        }

        private static var supportsHTTPSCallbacks: Bool {
            if #available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *) { return true }
            return false
        }

        /// The completion handler, formed outside any actor so Swift 6 does not infer main-actor isolation for it.
        private nonisolated static func completion(
            _ complete: @escaping @Sendable (BrowserSessionSlot.Outcome) -> Void
        ) -> @Sendable (URL?, (any Error)?) -> Void {
            { url, error in
                let code = error.map { ($0 as? ASWebAuthenticationSessionError)?.code.rawValue ?? 0 }
                complete(BrowserSessionSlot.outcome(url: url, errorCode: code))
            }
        }

        private static func makeSession(
            url: URL, callback: WebAuthenticationCallback,
            completion: @escaping @Sendable (URL?, (any Error)?) -> Void
        ) throws -> ASWebAuthenticationSession {
            if #available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *) {
                return ASWebAuthenticationSession(
                    url: url, callback: callback.sessionCallback, completionHandler: completion)
            }
            guard case .customScheme(let scheme) = callback else {
                throw OAuthError(.invalidRedirectURI, "https callbacks need iOS 17.4 / macOS 14.4 / visionOS 1.1")
            }
            return ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: completion)
        }
    }

    extension WebAuthenticationCallback {
        /// The matching `ASWebAuthenticationSession.Callback` (iOS 17.4, macOS 14.4): `customScheme(_:)` or
        /// `https(host:path:)`.
        @available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *)
        var sessionCallback: ASWebAuthenticationSession.Callback {
            switch self {
            case .customScheme(let scheme): .customScheme(scheme)
            case .https(let host, let path): .https(host: host, path: path)
            }
        }
    }

    #if WARDEN_APPLE
        import SwiftUI

        /// SwiftUI's `@Environment(\.webAuthenticationSession)` as the browser of ``AuthClient``: the whole chain
        /// (discovery, PAR, PKCE, the exchange, the ID token, storage) runs in the client, and the environment's session
        /// only shows the provider's page. No `@unchecked Sendable`: the environment value is a main-actor struct, and
        /// every call into it is made on the main actor.
        ///
        /// ```swift
        /// struct SignInButton: View {
        ///     @Environment(\.webAuthenticationSession) private var webAuthenticationSession
        ///     let client: AuthClient
        ///     var body: some View {
        ///         Button("Sign in") {
        ///             Task { _ = try await client.signIn(with: WebAuthenticationSessionBrowser(webAuthenticationSession)) }
        ///         }
        ///     }
        /// }
        /// ```
        @available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
        public struct WebAuthenticationSessionBrowser: AuthorizationBrowser {
            private let session: WebAuthenticationSession
            private let ephemeral: Bool

            /// A browser over the environment's session; `ephemeral` asks for a private browser session (no shared
            /// cookies, so no single sign-on), as documented on ``WebAuthenticationAgent``.
            public init(_ session: WebAuthenticationSession, ephemeral: Bool = false) {
                self.session = session
                self.ephemeral = ephemeral
            }

            /// Prepares `request`, presents it in the environment's web authentication session and returns the
            /// validated code; `requireIssuer` demands RFC 9207 `iss` in the response.
            public func authorize(_ request: AuthorizationRequest, requireIssuer: Bool) async throws
                -> AuthorizationCode
            {
                var (url, pending) = try await request.prepare()
                if requireIssuer { pending = pending.requiringIssuer() }
                return try await WebAuthenticationSwiftUI.authorize(
                    session, url: url, pending: pending, ephemeral: ephemeral)
            }

            /// Opens the provider's logout in the shared browser session (where its cookie is) and validates the return
            /// to the post-logout redirect, which a web authentication session needs to finish.
            public func endSession(_ request: EndSessionRequest) async throws -> EndSessionOutcome {
                guard let redirect = request.postLogoutRedirectURI else {
                    throw OAuthError(
                        .invalidConfiguration,
                        "a web authentication session needs a post_logout_redirect_uri to return to")
                }
                let returned = try await WebAuthenticationSwiftUI.present(
                    session, url: try request.url(), returningTo: redirect, ephemeral: false)
                try request.validateReturn(returned.absoluteString)
                return .confirmed
            }
        }

        /// The SwiftUI variant over `@Environment(\.webAuthenticationSession)` (iOS 16.4, macOS 13.3).
        @available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
        public enum WebAuthenticationSwiftUI {
            /// Runs the request with the environment's session; `ephemeral` as documented on ``WebAuthenticationAgent``.
            ///
            /// APIs: `authenticate(using:callback:preferredBrowserSession:additionalHeaderFields:)` (iOS 17.4,
            /// macOS 14.4; custom-scheme and https callbacks) or `authenticate(using:callbackURLScheme:
            /// preferredBrowserSession:)` (custom schemes only) before that.
            @MainActor
            public static func authorize(
                _ session: WebAuthenticationSession, url: URL, pending: PendingAuthorization, ephemeral: Bool = false
            ) async throws -> AuthorizationCode {
                let callbackURL = try await present(
                    session, url: url, returningTo: pending.redirectURI, ephemeral: ephemeral)
                return try pending.validate(callbackURL.absoluteString)
            }

            /// Shows `url` with the environment's session until it is sent to `redirect`; returns that URL.
            @MainActor
            static func present(
                _ session: WebAuthenticationSession, url: URL, returningTo redirect: RedirectURI, ephemeral: Bool
            ) async throws -> URL {
                guard let callback = WebAuthenticationCallback(redirect) else {
                    throw OAuthError(.invalidRedirectURI, "a web authentication session cannot use a loopback redirect")
                }
                let browser: WebAuthenticationSession.BrowserSession = ephemeral ? .ephemeral : .shared
                do {
                    let callbackURL: URL
                    if #available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *) {
                        callbackURL = try await session.authenticate(
                            using: url, callback: callback.sessionCallback, preferredBrowserSession: browser,
                            additionalHeaderFields: [:])
                    } else {
                        guard case .customScheme(let scheme) = callback else {
                            throw OAuthError(.invalidRedirectURI, "https callbacks need iOS 17.4 / macOS 14.4")
                        }
                        callbackURL = try await session.authenticate(
                            using: url, callbackURLScheme: scheme, preferredBrowserSession: browser)
                    }
                    return callbackURL
                } catch let error as ASWebAuthenticationSessionError {
                    guard
                        case .failed(let mapped) = BrowserSessionSlot.outcome(url: nil, errorCode: error.code.rawValue)
                    else { throw error }
                    throw mapped
                }
            }
        }
    #endif
#endif
