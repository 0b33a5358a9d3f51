#if canImport(AuthenticationServices) && !os(watchOS)
    import AuthenticationServices
    import Foundation
    import WardenOAuth

    /// Presents an authorization request in `ASWebAuthenticationSession` (the system browser sheet) and returns
    /// the validated authorization code.
    ///
    /// - `prefersEphemeralWebBrowserSession` defaults to `false`: the shared browser cookies give single sign-on
    ///   with the user's existing session. Set `true` only for flows the user wants isolated (account switching).
    /// - `canceledLogin` becomes ``OAuthError/Code/cancelled`` (`.userCancelled`), which is never retried.
    /// - The callback URL is validated by ``PendingAuthorization/validate(_:)`` (state, iss, duplicates...).
    ///
    /// APIs: `ASWebAuthenticationSession(url:callback:completionHandler:)` (iOS 17.4, macOS 14.4) or
    /// `init(url:callbackURLScheme:completionHandler:)`; `presentationContextProvider`; `start()`.
    @MainActor
    public final class WebAuthenticationAgent: NSObject, ASWebAuthenticationPresentationContextProviding {
        public var prefersEphemeralWebBrowserSession = false
        private let anchor: () -> ASPresentationAnchor
        private var session: ASWebAuthenticationSession?

        /// - Parameter anchor: the window to present from.
        public init(anchor: @escaping () -> ASPresentationAnchor) { self.anchor = anchor }

        public func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor { anchor() }

        /// Runs the request; returns the code to exchange with ``TokenClient/exchange(_:)``.
        public func authorize(url: URL, pending: PendingAuthorization) async throws -> AuthorizationCode {
            guard let callback = WebAuthenticationCallback(pending.redirectURI) else {
                throw OAuthError(.invalidRedirectURI, "ASWebAuthenticationSession cannot use a loopback redirect")
            }
            let callbackURL: URL = try await withCheckedThrowingContinuation { continuation in
                let completion: (URL?, (any Error)?) -> Void = { url, error in
                    if let url {
                        continuation.resume(returning: url)
                        return
                    }
                    if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                        continuation.resume(throwing: OAuthError(.cancelled, "the user cancelled the sign-in"))
                    } else {
                        continuation.resume(throwing: OAuthError(.network, "the web authentication session failed"))
                    }
                }
                let session: ASWebAuthenticationSession
                if #available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, *) {
                    session = ASWebAuthenticationSession(
                        url: url, callback: callback.sessionCallback, completionHandler: completion)
                } else {
                    guard case .customScheme(let scheme) = callback else {
                        continuation.resume(
                            throwing: OAuthError(.invalidRedirectURI, "https callbacks need iOS 17.4 / macOS 14.4"))
                        return
                    }
                    session = ASWebAuthenticationSession(
                        url: url, callbackURLScheme: scheme, completionHandler: completion)
                }
                session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
                session.presentationContextProvider = self
                self.session = session
                if !session.start() {
                    continuation.resume(
                        throwing: OAuthError(.invalidConfiguration, "the web authentication session did not start"))
                }
            }
            session = nil
            return try pending.validate(callbackURL.absoluteString)
        }
    }

    extension WebAuthenticationCallback {
        /// The matching `ASWebAuthenticationSession.Callback` (iOS 17.4, macOS 14.4): `customScheme(_:)` or
        /// `https(host:path:)`.
        @available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, *)
        var sessionCallback: ASWebAuthenticationSession.Callback {
            switch self {
            case .customScheme(let scheme): .customScheme(scheme)
            case .https(let host, let path): .https(host: host, path: path)
            }
        }
    }

    #if canImport(SwiftUI)
        import SwiftUI

        /// The SwiftUI variant over `@Environment(\.webAuthenticationSession)` (iOS 16.4, macOS 13.3).
        @available(iOS 16.4, macOS 13.3, tvOS 16.4, visionOS 1.0, *)
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
                guard let callback = WebAuthenticationCallback(pending.redirectURI) else {
                    throw OAuthError(.invalidRedirectURI, "a web authentication session cannot use a loopback redirect")
                }
                let browser: WebAuthenticationSession.BrowserSession = ephemeral ? .ephemeral : .shared
                do {
                    let callbackURL: URL
                    if #available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, *) {
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
                    return try pending.validate(callbackURL.absoluteString)
                } catch let error as ASWebAuthenticationSessionError where error.code == .canceledLogin {
                    throw OAuthError(.cancelled, "the user cancelled the sign-in")
                }
            }
        }
    #endif
#endif
