#if WARDEN_APPLE
    import AuthenticationServices
    import Foundation
    import WardenCore
    import WardenCrypto
    import WardenJOSE
    import WardenOAuth
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
    /// once (the portable `AuthorizationRequestSlot`):
    /// - a pending AutoFill request yields to the next request: it is cancelled (its caller gets nil) and the sheet
    ///   starts once the AutoFill controller has reported its end; any other running request refuses a second one
    ///   (``AppleAuthorizationError/Code/alreadyRunning``);
    /// - each controller's callbacks are matched to its own request (and its own nonce and `state`): those of a
    ///   cancelled or replaced controller are ignored.
    ///
    /// ```swift
    /// let coordinator = AppleAuthorizationCoordinator { view.window ?? ASPresentationAnchor() }
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
        private let slot: AuthorizationRequestSlot<AppleAuthorizationResult>

        /// A controller whose request has not reported yet, with what it sent.
        private struct Sent {
            let run: AuthorizationRequestSlot<AppleAuthorizationResult>.Run
            let controller: ASAuthorizationController
            let state: String
            let nonce: AppleSignInNonce
        }
        /// Keyed by the controller, read by the nonisolated delegate callbacks. An entry lives until its controller
        /// reports (also after its request was cancelled or replaced, so that report is recognised).
        private let sent = Locked<[ObjectIdentifier: Sent]>([:])

        /// - Parameter anchor: the window to present from.
        public init(anchor: @escaping () -> ASPresentationAnchor) {
            self.anchor = anchor
            // A replaced AutoFill controller that never reported: its entry (and the controller it holds) goes when
            // the drain gives up on it.
            let sent = sent
            slot = AuthorizationRequestSlot(onAbandoned: { runs in
                sent.withLock { entries in entries = entries.filter { !runs.contains($0.value.run) } }
            })
        }

        /// `nonisolated` and entered with `MainActor.assumeIsolated`: the requirement is main-actor isolated only in
        /// SDKs whose headers say so, so a main-actor witness does not compile against older ones; the system calls it
        /// on the main thread in both.
        public nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor() }
        }

        /// Runs the requests; nil when `mode` makes "nothing to do" silent (launch, AutoFill).
        public func perform(_ requests: [Request], mode: AppleAuthorizationMode) async throws
            -> AppleAuthorizationResult?
        {
            let nonce = try AppleSignInNonce()
            let state = Base64URL.encode(try SecureRandom().bytes(count: 32))
            let built = requests.map { build($0, nonce: nonce, state: state) }
            let controller = ASAuthorizationController(authorizationRequests: built)
            controller.delegate = self
            controller.presentationContextProvider = self
            let sent = sent
            do {
                return try await slot.perform(
                    mode: mode,
                    start: { run in
                        #if WARDEN_APPKIT || WARDEN_CATALYST
                            // performAutoFillAssistedRequests() is unavailable on macOS and Mac Catalyst.
                            if mode == .autoFill {
                                throw AppleAuthorizationError(
                                    .notHandled, "passkey AutoFill is not available on this platform")
                            }
                        #endif
                        sent.withLock {
                            $0[ObjectIdentifier(controller)] = Sent(
                                run: run, controller: controller, state: state, nonce: nonce)
                        }
                        switch mode {
                        case .interactive: controller.performRequests()
                        case .existingAccountOnLaunch:
                            controller.performRequests(options: .preferImmediatelyAvailableCredentials)
                        case .autoFill:
                            #if WARDEN_APPKIT || WARDEN_CATALYST
                                break  // refused above
                            #else
                                controller.performAutoFillAssistedRequests()
                            #endif
                        }
                    },
                    cancel: { run in
                        // The controller is not Sendable: cancel it on the main actor, found by its run (never the
                        // controller of a later request).
                        Task { @MainActor in
                            sent.withLock { entries in entries.values.first { $0.run == run }?.controller }?.cancel()
                        }
                    })
            } catch let error as AppleAuthorizationError {
                guard let surfaced = error.surfaced(in: mode) else { return nil }
                throw surfaced
            }
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

        /// What `controller` sent, removed: its first report is its only one. Nil for a controller of no request.
        private nonisolated func takeSent(_ controller: ASAuthorizationController) -> (
            run: AuthorizationRequestSlot<AppleAuthorizationResult>.Run, state: String, nonce: AppleSignInNonce
        )? {
            sent.withLock { $0.removeValue(forKey: ObjectIdentifier(controller)) }.map { ($0.run, $0.state, $0.nonce) }
        }

        /// `ASAuthorizationControllerDelegate`: maps the credential to an ``AppleAuthorizationResult``, checking it
        /// against what its request sent (a mismatch is ``AppleAuthorizationError/Code/invalidResponse``), and
        /// resumes the caller. A controller of no pending request is ignored.
        public nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            guard let request = takeSent(controller) else { return }
            slot.finish(
                request.run,
                with: Result { try Self.map(authorization.credential, state: request.state, nonce: request.nonce) })
        }

        /// `ASAuthorizationControllerDelegate`: resumes the caller with the ``AppleAuthorizationError`` for the
        /// reported error. A controller of no pending request is ignored.
        public nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithError error: any Error
        ) {
            guard let request = takeSent(controller) else { return }
            let reported = error as NSError
            slot.finish(
                request.run,
                with: .failure(
                    AppleAuthorizationError(
                        domain: reported.domain, code: reported.code,
                        failureReason: reported.userInfo[NSLocalizedFailureReasonErrorKey] as? String)))
        }

        /// The credential as a Sendable value, checked against what its request sent.
        nonisolated static func map(
            _ credential: any ASAuthorizationCredential, state expectedState: String, nonce: AppleSignInNonce
        ) throws -> AppleAuthorizationResult {
            switch credential {
            case let apple as ASAuthorizationAppleIDCredential:
                guard let state = apple.state,
                    ConstantTime.equals(state, expectedState),
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
                        rawNonce: nonce.raw.unredacted()))
            case let registration as ASAuthorizationPlatformPublicKeyCredentialRegistration:
                guard let attestation = registration.rawAttestationObject else {
                    throw AppleAuthorizationError(
                        .invalidResponse, "the passkey registration has no attestation object")
                }
                // What the system reported, nothing invented: the attachment from iOS 16.6 / macOS 13.5, no transports
                // (AuthenticationServices reports none for a platform registration).
                return .passkeyRegistration(
                    json: RegistrationResponse(
                        credentialID: Array(registration.credentialID),
                        clientDataJSON: Array(registration.rawClientDataJSON), attestationObject: Array(attestation),
                        authenticatorAttachment: RegistrationResponse.authenticatorAttachment(
                            appleRawValue: attachment(of: registration))
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

        /// The raw value of `attachment` (iOS 16.6, macOS 13.5), nil before.
        ///
        /// Read by key (the Objective-C property `attachment`, an `NSInteger`) rather than through its Swift
        /// declaration, which SDKs before iOS 16.6 lack (the iOS 16.5 SDK of the real-SDK probe): no compile-time SDK
        /// version gate is needed, and the runtime check is the property's own availability.
        private nonisolated static func attachment(
            of registration: ASAuthorizationPlatformPublicKeyCredentialRegistration
        )
            -> Int?
        {
            if #available(iOS 16.6, macOS 13.5, macCatalyst 16.6, visionOS 1.0, *) {
                return (registration.value(forKey: "attachment") as? NSNumber)?.intValue
            }
            return nil
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
