#if WARDEN_APPLE
    import AuthenticationServices
    import Foundation
    import WardenCore
    import WardenJOSE
    import WardenOAuth
    import WardenSession

    /// Sign in with Apple on the device: the request with a hashed nonce, and a monitor that reacts to the Apple ID
    /// credential's state at launch (`credentialState(forUserID:)`) and while running
    /// (`credentialRevokedNotification`), as ``AppleIDCredentialReaction`` decides:
    /// - `.revoked`, or `.notFound` without an error: the session is signed out and its tokens purged;
    /// - `.transferred` (the app moved to another developer team): the session is kept and `onTransferred` is
    ///   called; the app must migrate the user with the transfer identifier, then sign in again;
    /// - a check that failed — `ASAuthorizationError` 1000 wrapping an AuthKit error (an Apple outage, a device in a
    ///   bad AuthKit state), offline, timed out — and a state this SDK version does not know keep the session and are
    ///   logged: they are not evidence of a revocation.
    ///
    /// The check uses the completion form, `getCredentialState(forUserID:completion:)`, which hands over the state and
    /// the error together (the async form only throws), so the decision sees both.
    ///
    /// ```swift
    /// let monitor = AppleIDCredentialMonitor(session: session, userID: storedAppleUserID) { showMigration() }
    /// await monitor.start()
    /// ```
    ///
    /// Thread-safety: main-actor isolated.
    @MainActor
    public final class AppleIDCredentialMonitor {
        typealias CheckResult = (AppleIDCredentialReaction.State, AppleIDCredentialReaction.CheckError?)

        private let session: AuthSession
        private let userID: String
        private let onTransferred: @MainActor () -> Void
        private var observer: (any NSObjectProtocol)?

        /// A monitor of the Apple ID `userID` signed in to `session`; `onTransferred` is called on the main actor
        /// when the credential was transferred to another team. Nothing is checked until ``start()``.
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
        /// the check could not reach Apple).
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

        /// The completion handler, formed outside any actor: Apple calls it off the main thread, and a closure written
        /// in this main-actor class would be main-actor isolated (a run-time trap in Swift 6 where the SDK does not
        /// mark the block `@Sendable`).
        private nonisolated static func completion(_ continuation: CheckedContinuation<CheckResult, Never>)
            -> @Sendable (ASAuthorizationAppleIDProvider.CredentialState, (any Error)?) -> Void
        {
            { state, error in
                let mapped: AppleIDCredentialReaction.State =
                    switch state {
                    case .authorized: .authorized
                    case .revoked: .revoked
                    case .transferred: .transferred
                    case .notFound: .notFound
                    @unknown default: .unknown
                    }
                continuation.resume(returning: (mapped, error.map(AppleIDCredentialReaction.CheckError.init)))
            }
        }

        @discardableResult
        private func check() async -> AppleIDCredentialReaction? {
            let userID = userID
            let (state, error) = await withCheckedContinuation {
                (continuation: CheckedContinuation<CheckResult, Never>) in
                ASAuthorizationAppleIDProvider().getCredentialState(
                    forUserID: userID, completion: Self.completion(continuation))
            }
            guard let reaction = AppleIDCredentialReaction.reaction(to: state, error: error) else {
                WardenLogger(category: "apple").notice(
                    "the Apple ID credential check was inconclusive (\(state), \(error?.description ?? "no error")); the session is kept"
                )
                return nil
            }
            switch reaction {
            case .signOut: await session.signOut()
            case .reauthenticate: onTransferred()
            case .keepSession: break
            }
            return reaction
        }
    }
#endif
