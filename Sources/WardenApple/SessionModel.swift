#if WARDEN_APPLE
    import Combine
    import WardenJOSE
    import WardenOAuth
    import WardenSession
    import WardenStorage

    /// The account for SwiftUI as an `ObservableObject` (iOS 13 on, so the iOS 16 deployment target): a view that
    /// holds it with `@StateObject` redraws when ``state``, ``claims``, ``isWorking`` or ``session`` change. It mirrors
    /// a ``SessionController``, which follows the session's own state stream, so an offline spell, a failed refresh
    /// or a sign-out elsewhere (an extension) reaches the view; on iOS 17 `ObservableSessionModel` is the same with
    /// Observation.
    ///
    /// ```swift
    /// @StateObject private var account = SessionModel(client: client)
    /// @Environment(\.webAuthenticationSession) private var webAuthenticationSession
    /// var body: some View {
    ///     if case .signedIn = account.state {
    ///         Text("Hello \((try? account.claims?.subject) ?? "")")
    ///     } else {
    ///         Button("Sign in") {
    ///             Task { try await account.signIn(with: WebAuthenticationSessionBrowser(webAuthenticationSession)) }
    ///         }
    ///         .disabled(account.isWorking)
    ///     }
    /// }
    /// ```
    @MainActor
    public final class SessionModel: ObservableObject, SessionControlling {
        /// The session's state, with its typed reason (``DegradedReason``, ``SignedOutReason``).
        @Published public private(set) var state: SessionState = .signedOut(reason: .noSession)
        /// Who is signed in (the session's ID-token claims), without the network.
        @Published public private(set) var claims: JWTClaims?
        /// Whether a restore, sign-in or sign-out is running.
        @Published public private(set) var isWorking = false
        /// The session, while there is one (for API calls).
        @Published public private(set) var session: AuthSession?
        /// The controller the model mirrors.
        public let controller: SessionController

        /// A model mirroring a new `SessionController` over `client`; it starts signed out, before ``restore()``.
        public init(client: AuthClient) {
            controller = SessionController(client: client)
            controller.onChange = { [weak self] in self?.mirror($0) }
        }

        private func mirror(_ controller: SessionController) {
            if state != controller.state { state = controller.state }
            claims = controller.claims
            if isWorking != controller.isWorking { isWorking = controller.isWorking }
            if session !== controller.session { session = controller.session }
        }
    }
#endif
