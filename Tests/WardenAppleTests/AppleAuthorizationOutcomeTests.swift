import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenLocalProvider
import WardenPasskeys
import WardenStorage
import WardenTestSupport

@testable import WardenApple

/// The portable decisions behind the ASAuthorizationController coordinator.
@Suite("Apple authorization outcomes")
struct AppleAuthorizationOutcomeTests {
    @Test(arguments: [
        (1000, AppleAuthorizationError.Code.unknown, FailureKind.rejected),
        (1001, .cancelled, .userCancelled), (1002, .invalidResponse, .rejected), (1003, .notHandled, .misconfiguration),
        (1004, .failed, .transient), (1005, .notInteractive, .userCancelled),
        (1006, .matchedExcludedCredential, .rejected), (1007, .credentialTransferFailed, .rejected),
        (1008, .credentialTransferFailed, .rejected), (1009, .preferSignInWithApple, .userCancelled),
        (1010, .deviceNotConfiguredForPasskeyCreation, .userCancelled), (4242, .unknown, .rejected),
    ])
    func errorCodes(raw: Int, code: AppleAuthorizationError.Code, kind: FailureKind) {
        let error = AppleAuthorizationError(authorizationErrorCode: raw)
        #expect(error.code == code && error.failureKind == kind)
        #expect(error.domain == AppleAuthorizationError.authorizationErrorDomain && error.domainCode == raw)
    }

    /// Passkey failures also arrive in other domains (`WKErrorDomain`): unknown, never transient, domain and code
    /// kept for the diagnostics.
    @Test func anErrorOfAnotherDomainKeepsItsDomainAndIsNeverTransient() {
        let error = AppleAuthorizationError(domain: "WKErrorDomain", code: 8)
        #expect(error.code == .unknown && error.failureKind != .transient)
        #expect(error.domain == "WKErrorDomain" && error.domainCode == 8)
        #expect(error.reason.contains("WKErrorDomain 8"))
        #expect(AppleAuthorizationError(.alreadyRunning).domain == nil)
    }

    @Test func launchAndAutoFillStaySilentWhenThereIsNothingToDo() {
        let cancelled = AppleAuthorizationError(authorizationErrorCode: 1001)
        let notInteractive = AppleAuthorizationError(authorizationErrorCode: 1005)
        let failed = AppleAuthorizationError(authorizationErrorCode: 1004)
        #expect(cancelled.surfaced(in: .existingAccountOnLaunch) == nil)
        #expect(notInteractive.surfaced(in: .existingAccountOnLaunch) == nil)
        #expect(cancelled.surfaced(in: .autoFill) == nil)
        #expect(cancelled.surfaced(in: .interactive)?.code == .cancelled, "a tap that was cancelled is reported")
        #expect(notInteractive.surfaced(in: .interactive)?.code == .notInteractive)
        #expect(failed.surfaced(in: .existingAccountOnLaunch)?.code == .failed, "real failures are never hidden")
    }

    @Test func theAppleUserIDIsKeptAndTheOneTimeDetailsNeverPrintSecrets() async throws {
        let store = InMemoryStore()
        let ids = AppleUserIDStore(store: store, service: "com.example.app.apple")
        #expect(try await ids.load() == nil)
        try await ids.save("001234.abcdef")
        #expect(try await ids.load() == "001234.abcdef")
        await #expect(throws: StorageError(.invalidName)) { try await ids.save("") }
        try await ids.delete()
        #expect(try await ids.load() == nil)
        let signIn = AppleIDSignIn(
            userID: "001234.abcdef", identityToken: "eyJ-identity-token-secret", authorizationCode: "c0de-secret-value",
            email: "x@privaterelay.appleid.com", givenName: "A", familyName: "B", rawNonce: "raw-nonce-secret-value")
        var dumped = ""
        dump(signIn, to: &dumped)
        for secret in ["eyJ-identity-token-secret", "c0de-secret-value", "raw-nonce-secret-value"] {
            #expect(!"\(signIn)".contains(secret) && !dumped.contains(secret))
        }
    }
}

/// What the coordinator hands the app for a passkey is what the server's verifier accepts: the platform credential's
/// `Data!` fields go through the same portable initialisers `AppleAuthorizationCoordinator.map` calls
/// (`RegistrationResponse(...authenticatorAttachment: .authenticatorAttachment(appleRawValue:))`,
/// `AssertionResponse(credentialID: Data?, ..., userID: Data?)`), then `.json()`, then the verifier. The Apple glue
/// that reads the fields off `ASAuthorization...` objects is type-checked against the iOS SDK, not run here.
@Suite("Passkey results from the Apple coordinator")
struct CoordinatorPasskeyRoundTripTests {
    @Test func nativeFieldsRoundTripThroughTheVerifier() async throws {
        let rp = try RelyingParty(id: "example.com", origins: ["https://example.com"])
        var authenticator = try LocalPasskeyAuthenticator()
        let userHandle = Array("user-1".utf8)
        let challenge = try SecureRandom().bytes(count: 32)
        let made = try authenticator.register(
            rpID: rp.id, origin: "https://example.com", challenge: challenge, userHandle: userHandle)
        // As AppleAuthorizationCoordinator.map does with ASAuthorizationPlatformPublicKeyCredentialRegistration
        // (attachment raw value 0: .platform; no transports, AuthenticationServices reports none).
        let registration = RegistrationResponse(
            credentialID: Array(Data(made.credentialID)), clientDataJSON: Array(Data(made.clientDataJSON)),
            attestationObject: Array(Data(made.attestationObject)),
            authenticatorAttachment: RegistrationResponse.authenticatorAttachment(appleRawValue: 0))
        let registrationJSON = registration.json()
        #expect(registrationJSON.contains(#""authenticatorAttachment":"platform""#))
        #expect(RegistrationResponse.authenticatorAttachment(appleRawValue: nil) == nil, "nothing invented")
        let record = try rp.verifyRegistration(
            try RegistrationResponse(json: Array(registrationJSON.utf8)), challenge: challenge,
            userHandle: userHandle, requireUserVerification: true
        ).credential
        let signInChallenge = try SecureRandom().bytes(count: 32)
        let asserted = try authenticator.assert(rpID: rp.id, origin: "https://example.com", challenge: signInChallenge)
        // As the coordinator's assertionJSON does with the credential's Data! fields read as optionals.
        let assertionJSON = try AssertionResponse(
            credentialID: Data(asserted.credentialID), clientDataJSON: Data(asserted.clientDataJSON),
            authenticatorData: Data(asserted.authenticatorData), signature: Data(asserted.signature),
            userID: asserted.userHandle.map { Data($0) }
        ).json()
        // A security key that omits the user handle still maps; a missing signature is refused, not a trap.
        #expect(
            try AssertionResponse(
                credentialID: Data(asserted.credentialID), clientDataJSON: Data(asserted.clientDataJSON),
                authenticatorData: Data(asserted.authenticatorData), signature: Data(asserted.signature), userID: nil
            ).userHandle == nil)
        #expect(throws: PasskeyError(.malformed)) {
            _ = try AssertionResponse(
                credentialID: Data(asserted.credentialID), clientDataJSON: Data(asserted.clientDataJSON),
                authenticatorData: Data(asserted.authenticatorData), signature: nil, userID: nil)
        }
        let result = try rp.verifyAssertion(
            try AssertionResponse(json: Array(assertionJSON.utf8)), challenge: signInChallenge, credential: record,
            requireUserVerification: true)
        #expect(result.newSignCount == 1 && result.userVerified)
    }
}
