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

    /// 1004 has two meanings: a passing failure (transient), and the lasting "webcredentials association" failure of
    /// passkey requests, told apart by the failure reason the system gives (device reports:
    /// github.com/f-23/react-native-passkey/issues/16 and /96). The reason is kept for the app.
    @Test(arguments: [
        "Application with identifier ABCDE12345.com.example.app is not associated with domain example.com",
        "Unable to verify webcredentials association of ABCDE12345.com.example.app with domain example.com. Error: 0",
    ])
    func error1004WithAnAssociationFailureIsLastingAndKeepsItsReason(_ failureReason: String) {
        let error = AppleAuthorizationError(
            domain: AppleAuthorizationError.authorizationErrorDomain, code: 1004, failureReason: failureReason)
        #expect(error.code == .associationFailed && error.failureKind == .misconfiguration)
        #expect(error.reason.contains("example.com"), "the failure reason is kept: \(error.reason)")
        let passing = AppleAuthorizationError(
            domain: AppleAuthorizationError.authorizationErrorDomain, code: 1004,
            failureReason: "The operation couldn't be completed.")
        #expect(passing.code == .failed && passing.failureKind == .transient)
        #expect(passing.reason.contains("couldn't be completed"))
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
