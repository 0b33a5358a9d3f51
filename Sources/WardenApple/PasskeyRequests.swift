#if WARDEN_APPLE
    import AuthenticationServices
    import Foundation

    /// Passkey requests from a server challenge (`ASAuthorizationPlatformPublicKeyCredentialProvider`). The app
    /// needs the `webcredentials:<rp-id>` associated domain; the results go to the server for verification.
    // warden:ignore passkeys-without-webcredentials a library: the app declares the webcredentials: domain
    public enum PasskeyRequests {
        /// A registration request for `userID` with the server's challenge.
        public static func registration(relyingParty: String, challenge: Data, userName: String, userID: Data)
            -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
        {
            ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingParty)
                .createCredentialRegistrationRequest(challenge: challenge, name: userName, userID: userID)
        }

        /// An assertion (sign-in) request with the server's challenge.
        public static func assertion(relyingParty: String, challenge: Data)
            -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
        {
            ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingParty)
                .createCredentialAssertionRequest(challenge: challenge)
        }
    }
#endif
