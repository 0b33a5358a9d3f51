import AuthenticationServices

/// Labelled fixture: passkeys requested, but App.entitlements has no webcredentials: domain.
func passkeyRequest(challenge: Data) -> ASAuthorizationRequest {
    let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: "example.com")  // expect: passkeys-without-webcredentials
    return provider.createCredentialAssertionRequest(challenge: challenge)
}
