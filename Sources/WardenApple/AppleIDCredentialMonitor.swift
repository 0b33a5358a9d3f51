#if canImport(AuthenticationServices) && !os(tvOS)
    import AuthenticationServices
    import Foundation
    import WardenJOSE
    import WardenSession

    /// Sign in with Apple on the device: the request with a hashed nonce, and a monitor that signs the session out
    /// when the Apple ID credential is revoked (at launch via `getCredentialState(forUserID:)`, and while running
    /// via `credentialRevokedNotification`).
    public final class AppleIDCredentialMonitor: @unchecked Sendable {  // mutable state only on the main actor
        private let session: AuthSession
        private let userID: String
        private var observer: (any NSObjectProtocol)?

        public init(session: AuthSession, userID: String) {
            self.session = session
            self.userID = userID
        }

        /// A request whose nonce is the SHA-256 of `nonce.raw`; keep `nonce` and send `raw` with the identity token
        /// and authorization code to your server (``AppleIdentityTokenValidator``).
        public static func request(nonce: AppleSignInNonce, scopes: [ASAuthorization.Scope] = [.email, .fullName])
            -> ASAuthorizationAppleIDRequest
        {
            let request = ASAuthorizationAppleIDProvider().createRequest()
            request.requestedScopes = scopes
            request.nonce = nonce.hashed
            return request
        }

        /// Checks the credential state now and starts observing revocations.
        @MainActor
        public func start() async {
            let state = try? await ASAuthorizationAppleIDProvider().credentialState(forUserID: userID)
            let mapped: AppleIDCredentialReaction.State =
                switch state {
                case .authorized: .authorized
                case .revoked: .revoked
                case .transferred: .transferred
                default: .notFound
                }
            if state != nil, AppleIDCredentialReaction.reaction(to: mapped) == .signOut { await session.signOut() }
            let session = session
            observer = NotificationCenter.default.addObserver(
                forName: ASAuthorizationAppleIDProvider.credentialRevokedNotification, object: nil, queue: .main
            ) { _ in
                Task { await session.signOut() }
            }
        }

        deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }
    }
#endif
