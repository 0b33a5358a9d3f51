#if canImport(Observation)
    import Observation
    import WardenJOSE
    import WardenOAuth
    import WardenStorage

    /// The account for SwiftUI with Observation (iOS 17, macOS 14): a view that reads ``state``, ``claims`` or
    /// ``isWorking`` redraws when it changes. Before iOS 17, WardenApple's `SessionModel` (`ObservableObject`) is the
    /// same object for `@StateObject`. Both mirror a ``SessionController``, which follows the session's own state
    /// stream, so an offline spell, a refresh that fails or a sign-out elsewhere (an extension) reaches the view.
    ///
    /// ```swift
    /// @State private var account = ObservableSessionModel(client: client)
    /// var body: some View {
    ///     switch account.state {
    ///     case .signedIn: Text("Hello \((try? account.claims?.subject) ?? "")")
    ///     case .degraded(reason: .offline): Text("Offline: read-only")
    ///     case .degraded: Text("Trying again soon")
    ///     case .signedOut: SignInButton(account: account)
    ///     }
    /// }
    /// ```
    @available(iOS 17.0, macOS 14.0, macCatalyst 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @MainActor @Observable
    public final class ObservableSessionModel: SessionControlling {
        /// The session's state, with its typed reason (``DegradedReason``, ``SignedOutReason``).
        public private(set) var state: SessionState = .signedOut(reason: .noSession)
        /// Who is signed in (the session's ID-token claims), without the network.
        public private(set) var claims: JWTClaims?
        /// Whether a restore, sign-in or sign-out is running.
        public private(set) var isWorking = false
        /// The session, while there is one (for API calls).
        public private(set) var session: AuthSession?
        /// The controller the model mirrors.
        @ObservationIgnored public let controller: SessionController

        /// A model mirroring a new ``SessionController`` over `client`; it starts signed out, before ``restore()``.
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
