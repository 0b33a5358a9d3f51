import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenLocalProvider
import WardenPasskeys
import WardenStorage
import WardenTestSupport

@testable import WardenApple

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
