#if WARDEN_APPLE
    import AuthenticationServices
    import Foundation
    import WardenCore
    import WardenCrypto
    import WardenJOSE
    import WardenOAuth

    /// Sign in with Apple from Apple's own buttons — SwiftUI's `SignInWithAppleButton` and UIKit's
    /// `ASAuthorizationAppleIDButton` — with the request and the credential handled as ``AppleAuthorizationCoordinator``
    /// handles its own: ``prepare(_:)`` gives the request the scopes, the SHA-256 of a fresh CSPRNG nonce and a random
    /// `state`; ``complete(_:)`` checks that the credential echoes that `state` (constant time) and carries an identity
    /// token and code, returns the ``AppleIDSignIn`` (the raw nonce for your server, the e-mail and name Apple sends
    /// only at the first authorization), and classifies a failure as an ``AppleAuthorizationError`` (a cancellation is
    /// ``AppleAuthorizationError/Code/cancelled``, never an error to show).
    ///
    /// ```swift
    /// let flow = AppleSignInButtonFlow()
    /// SignInWithAppleButton(.signIn, onRequest: flow.prepare, onCompletion: { result in
    ///     Task { let signIn = try flow.complete(result); try await send(signIn) }   // verify on your server
    /// })
    /// ```
    ///
    /// One flow serves one button: a second `prepare(_:)` replaces the first request's nonce and `state`, so only the
    /// latest request's credential completes.
    @MainActor
    public final class AppleSignInButtonFlow {
        /// What the button asks for (default: the full name and the e-mail).
        public let scopes: [ASAuthorization.Scope]
        private var pending: (nonce: AppleSignInNonce, state: String)?

        /// A flow asking for `scopes`.
        public init(scopes: [ASAuthorization.Scope] = [.fullName, .email]) { self.scopes = scopes }

        /// Fills the button's request (its `onRequest`): the scopes, the hashed nonce and the `state`. If no nonce can
        /// be drawn from the system's random source the request gets none, and ``complete(_:)`` refuses the result.
        public func prepare(_ request: ASAuthorizationAppleIDRequest) {
            request.requestedScopes = scopes
            guard let nonce = try? AppleSignInNonce(), let state = try? SecureRandom().bytes(count: 32) else {
                pending = nil
                return
            }
            let encoded = Base64URL.encode(state)
            pending = (nonce, encoded)
            request.nonce = nonce.hashed
            request.state = encoded
        }

        /// Checks the button's result (its `onCompletion`) against the prepared request and returns the sign-in, or
        /// throws the classified ``AppleAuthorizationError``. A result is used once: a second call throws
        /// ``AppleAuthorizationError/Code/invalidResponse``.
        public func complete(_ result: Result<ASAuthorization, any Error>) throws(AppleAuthorizationError)
            -> AppleIDSignIn
        {
            let prepared = pending
            pending = nil
            switch result {
            case .failure(let error):
                let reported = error as NSError
                throw AppleAuthorizationError(
                    domain: reported.domain, code: reported.code,
                    failureReason: reported.userInfo[NSLocalizedFailureReasonErrorKey] as? String)
            case .success(let authorization):
                guard let prepared else {
                    throw AppleAuthorizationError(.invalidResponse, "no prepared request for this credential")
                }
                let mapped: AppleAuthorizationResult
                do {
                    mapped = try AppleAuthorizationCoordinator.map(
                        authorization.credential, state: prepared.state, nonce: prepared.nonce)
                } catch let error as AppleAuthorizationError {
                    throw error
                } catch {
                    throw AppleAuthorizationError(.invalidResponse, "the credential could not be read")
                }
                guard case .appleID(let signIn) = mapped else {
                    throw AppleAuthorizationError(.invalidResponse, "the button returned another kind of credential")
                }
                return signIn
            }
        }
    }
#endif
