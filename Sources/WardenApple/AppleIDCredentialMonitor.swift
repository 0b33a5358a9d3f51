#if WARDEN_APPLE
    import AuthenticationServices
    import Foundation
    import WardenJOSE
    import WardenSession

    /// Sign in with Apple on the device: the request with a hashed nonce, and a monitor that reacts to the Apple ID
    /// credential's state at launch (`credentialState(forUserID:)`) and while running
    /// (`credentialRevokedNotification`), as ``AppleIDCredentialReaction`` decides:
    /// - `.revoked` / `.notFound`: the session is signed out and its tokens purged;
    /// - `.transferred` (the app moved to another developer team): the session is kept and `onTransferred` is
    ///   called; the app must migrate the user with the transfer identifier, then sign in again;
    /// - a failed state check keeps the session (it is not evidence of a revocation).
    ///
    /// ```swift
    /// let monitor = AppleIDCredentialMonitor(session: session, userID: storedAppleUserID) { showMigration() }
    /// await monitor.start()
    /// ```
    ///
    /// Thread-safety: main-actor isolated.
    @MainActor
    public final class AppleIDCredentialMonitor {
        private let session: AuthSession
        private let userID: String
        private let onTransferred: @MainActor () -> Void
        private var observer: (any NSObjectProtocol)?

        public init(session: AuthSession, userID: String, onTransferred: @escaping @MainActor () -> Void = {}) {
            self.session = session
            self.userID = userID
            self.onTransferred = onTransferred
        }

        /// A request whose nonce is the SHA-256 of `nonce.raw`; keep `nonce` and send `raw` with the identity token
        /// to your server.
        public static func request(nonce: AppleSignInNonce, scopes: [ASAuthorization.Scope] = [.email, .fullName])
            -> ASAuthorizationAppleIDRequest
        {
            let request = ASAuthorizationAppleIDProvider().createRequest()
            request.requestedScopes = scopes
            request.nonce = nonce.hashed
            return request
        }

        /// Checks the state now, then watches for revocations. Returns the reaction to the launch check (nil when
        /// the check itself failed).
        @discardableResult
        public func start() async -> AppleIDCredentialReaction? {
            let reaction = await check()
            if observer == nil {
                observer = NotificationCenter.default.addObserver(
                    forName: ASAuthorizationAppleIDProvider.credentialRevokedNotification, object: nil, queue: .main
                ) { [weak self] _ in
                    // The notification says "revoked"; confirm with the state, then react on the main actor.
                    Task { @MainActor in await self?.check() }
                }
            }
            return reaction
        }

        /// Stops watching.
        public func stop() {
            if let observer { NotificationCenter.default.removeObserver(observer) }
            observer = nil
        }

        @discardableResult
        private func check() async -> AppleIDCredentialReaction? {
            guard let state = try? await ASAuthorizationAppleIDProvider().credentialState(forUserID: userID) else {
                return nil
            }
            let mapped: AppleIDCredentialReaction.State =
                switch state {
                case .authorized: .authorized
                case .revoked: .revoked
                case .transferred: .transferred
                case .notFound: .notFound
                @unknown default: .notFound
                }
            let reaction = AppleIDCredentialReaction.reaction(to: mapped)
            switch reaction {
            case .signOut: await session.signOut()
            case .reauthenticate: onTransferred()
            case .keepSession: break
            }
            return reaction
        }
    }
#endif
