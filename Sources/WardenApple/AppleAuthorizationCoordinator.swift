#if WARDEN_APPLE
    import AuthenticationServices
    import Foundation
    import WardenCore
    import WardenCrypto
    import WardenJOSE
    import WardenPasskeys
    import WardenSession

    /// One async call over `ASAuthorizationController` for Sign in with Apple, passkeys (platform and security
    /// keys, registration and sign-in) and saved passwords, in three modes (``AppleAuthorizationMode``): a button
    /// tap, "sign in with what is already on the device" at launch (`preferImmediatelyAvailableCredentials`, silent
    /// when there is nothing), and passkey AutoFill (`performAutoFillAssistedRequests`, cancelled when the task is).
    ///
    /// Sign in with Apple requests get a CSPRNG nonce (its SHA-256 in the request, the raw value returned for the
    /// server) and a random `state` that the credential must echo (compared in constant time). Passkey results
    /// come back as the exact `toJSON()` documents `WardenPasskeys` verifies. Errors are
    /// ``AppleAuthorizationError`` values (a cancellation is never retried; on launch and in AutoFill it is not an
    /// error at all: the result is nil). The delegate callbacks are `nonisolated` and resume the caller exactly
    /// once through a lock; a second concurrent request is refused.
    ///
    /// ```swift
    /// let coordinator = AppleAuthorizationCoordinator { view.window! }
    /// if case .appleID(let signIn)? = try await coordinator.perform([.appleID()], mode: .interactive) {
    ///     try await AppleUserIDStore(store: KeychainStore(), service: "com.example.app.apple").save(signIn.userID)
    ///     try await api.post(signIn.identityToken, signIn.authorizationCode, signIn.rawNonce)   // and email/name, once
    /// }
    /// ```
    @MainActor
    public final class AppleAuthorizationCoordinator: NSObject, ASAuthorizationControllerDelegate,
        ASAuthorizationControllerPresentationContextProviding
    {
        /// What to ask for; several combine into one sheet.
        public enum Request: Sendable {
            case appleID(scopes: [ASAuthorization.Scope] = [.fullName, .email])
            case passkeyAssertion(relyingParty: String, challenge: Data)
            case passkeyRegistration(relyingParty: String, challenge: Data, userName: String, userID: Data)
            #if !WARDEN_VISIONOS
                /// Not on visionOS: Apple has no security-key credential API there.
                case securityKeyAssertion(relyingParty: String, challenge: Data)
            #endif
            case password
        }

        private let anchor: () -> ASPresentationAnchor
        private var controller: ASAuthorizationController?
        private let outcome = Locked<CheckedContinuation<AppleAuthorizationResult, any Error>?>(nil)
        /// The state and nonce this request sent (read by the nonisolated delegate callbacks).
        private let expected = Locked<(state: String, nonce: AppleSignInNonce)?>(nil)

        /// - Parameter anchor: the window to present from.
        public init(anchor: @escaping () -> ASPresentationAnchor) { self.anchor = anchor }

        public func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor() }

        /// Runs the requests; nil when `mode` makes "nothing to do" silent (launch, AutoFill).
        public func perform(_ requests: [Request], mode: AppleAuthorizationMode) async throws
            -> AppleAuthorizationResult?
        {
            guard controller == nil else { throw AppleAuthorizationError(.alreadyRunning) }
            let nonce = try AppleSignInNonce()
            let state = Base64URL.encode(try SecureRandom().bytes(count: 32))
            expected.withLock { $0 = (state, nonce) }
            let built = requests.map { build($0, nonce: nonce, state: state) }
            let controller = ASAuthorizationController(authorizationRequests: built)
            controller.delegate = self
            controller.presentationContextProvider = self
            self.controller = controller
            defer {
                self.controller = nil
                expected.withLock { $0 = nil }
            }
            do {
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        outcome.withLock { $0 = continuation }
                        switch mode {
                        case .interactive: controller.performRequests()
                        case .existingAccountOnLaunch:
                            controller.performRequests(options: .preferImmediatelyAvailableCredentials)
                        case .autoFill:
                            #if WARDEN_APPKIT || WARDEN_CATALYST
                                // performAutoFillAssistedRequests() is unavailable on macOS and Mac Catalyst.
                                finish(
                                    .failure(
                                        AppleAuthorizationError(
                                            .notHandled, "passkey AutoFill is not available on this platform")))
                            #else
                                controller.performAutoFillAssistedRequests()
                            #endif
                        }
                    }
                } onCancel: {
                    // The controller is not Sendable: hop to the main actor and cancel it there, if it is still
                    // this request's (its state identifies it).
                    Task { @MainActor [weak self] in self?.cancel(requestWithState: state) }
                }
            } catch let error as AppleAuthorizationError {
                guard let surfaced = error.surfaced(in: mode) else { return nil }
                throw surfaced
            }
        }

        /// Cancels the running request if it is the one that sent `state` (not a later one).
        private func cancel(requestWithState state: String) {
            guard expected.current?.state == state else { return }
            controller?.cancel()
        }

        private func build(_ request: Request, nonce: AppleSignInNonce, state: String) -> ASAuthorizationRequest {
            switch request {
            case .appleID(let scopes):
                let appleID = ASAuthorizationAppleIDProvider().createRequest()
                appleID.requestedScopes = scopes
                appleID.nonce = nonce.hashed
                appleID.state = state
                return appleID
            case .passkeyAssertion(let rp, let challenge):
                // warden:ignore passkeys-without-webcredentials a library: the app declares the webcredentials: domain
                return ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rp)
                    .createCredentialAssertionRequest(challenge: challenge)
            case .passkeyRegistration(let rp, let challenge, let name, let userID):
                return ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rp)
                    .createCredentialRegistrationRequest(challenge: challenge, name: name, userID: userID)
            #if !WARDEN_VISIONOS
                case .securityKeyAssertion(let rp, let challenge):
                    return ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: rp)
                        .createCredentialAssertionRequest(challenge: challenge)
            #endif
            case .password:
                return ASAuthorizationPasswordProvider().createRequest()
            }
        }

        private nonisolated func finish(_ result: Result<AppleAuthorizationResult, any Error>) {
            guard
                let continuation = outcome.withLock({
                    value -> CheckedContinuation<AppleAuthorizationResult, any Error>? in
                    defer { value = nil }
                    return value
                })
            else { return }
            continuation.resume(with: result)
        }

        public nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            finish(Result { try map(authorization.credential) })
        }

        public nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithError error: any Error
        ) {
            let code = (error as? ASAuthorizationError)?.code.rawValue ?? 1000
            finish(.failure(AppleAuthorizationError(authorizationErrorCode: code)))
        }

        /// The credential as a Sendable value, checked against what this request sent.
        private nonisolated func map(_ credential: any ASAuthorizationCredential) throws -> AppleAuthorizationResult {
            switch credential {
            case let apple as ASAuthorizationAppleIDCredential:
                guard let expected = expected.current, let state = apple.state,
                    ConstantTime.equals(state, expected.state),
                    let token = apple.identityToken.flatMap({ String(data: $0, encoding: .utf8) }),
                    let code = apple.authorizationCode.flatMap({ String(data: $0, encoding: .utf8) })
                else {
                    throw AppleAuthorizationError(
                        .invalidResponse, "the Apple ID credential does not match the request")
                }
                return .appleID(
                    AppleIDSignIn(
                        userID: apple.user, identityToken: token, authorizationCode: code, email: apple.email,
                        givenName: apple.fullName?.givenName, familyName: apple.fullName?.familyName,
                        rawNonce: expected.nonce.raw.unredacted()))
            case let registration as ASAuthorizationPlatformPublicKeyCredentialRegistration:
                guard let attestation = registration.rawAttestationObject else {
                    throw AppleAuthorizationError(
                        .invalidResponse, "the passkey registration has no attestation object")
                }
                return .passkeyRegistration(
                    json: RegistrationResponse(
                        credentialID: Array(registration.credentialID),
                        clientDataJSON: Array(registration.rawClientDataJSON), attestationObject: Array(attestation),
                        transports: ["internal", "hybrid"], authenticatorAttachment: "platform"
                    ).json())
            case let assertion as ASAuthorizationPlatformPublicKeyCredentialAssertion:
                return .passkeyAssertion(json: try Self.assertionJSON(assertion))
            #if !WARDEN_VISIONOS
                case let assertion as ASAuthorizationSecurityKeyPublicKeyCredentialAssertion:
                    // Security keys may omit the user handle: `userID` is nil then (it imports as `Data!`).
                    return .passkeyAssertion(json: try Self.assertionJSON(assertion))
            #endif
            case let password as ASPasswordCredential:
                return .password(user: password.user, password: Redacted(password.password))
            default:
                throw AppleAuthorizationError(.invalidResponse, "an unexpected credential type")
            }
        }

        /// The assertion's `Data!` fields read as optionals (never `Array(x)` of an implicitly unwrapped nil, which
        /// traps); what is missing becomes ``AppleAuthorizationError/Code/invalidResponse``.
        private nonisolated static func assertionJSON(_ assertion: some ASAuthorizationPublicKeyCredentialAssertion)
            throws
            -> String
        {
            let credentialID: Data? = assertion.credentialID
            let clientData: Data? = assertion.rawClientDataJSON
            let authenticatorData: Data? = assertion.rawAuthenticatorData
            let signature: Data? = assertion.signature
            let userID: Data? = assertion.userID
            do {
                return try AssertionResponse(
                    credentialID: credentialID, clientDataJSON: clientData, authenticatorData: authenticatorData,
                    signature: signature, userID: userID
                ).json()
            } catch {
                throw AppleAuthorizationError(.invalidResponse, "the passkey assertion is incomplete: \(error.reason)")
            }
        }
    }
#endif
