import Foundation
import Testing
import WardenCore
import WardenTesting

@testable import WardenApple

/// The Apple layer's decisions, run against the documented outcomes of `WardenTesting.AppleFrameworkRules`: every
/// code the frameworks report has a reaction, and no outcome the rules say is lasting is retried as transient.
@Suite("Apple layer decisions against the framework rules")
struct AppleFrameworkRuleTests {
    @Test(arguments: AppleFrameworkRules.localAuthentication)
    func everyLocalAuthenticationOutcomeHasItsOwnReaction(_ outcome: AppleFrameworkRules.Outcome) {
        let failure = BiometricFailure(laErrorCode: outcome.code)
        let expected: BiometricFailure =
            switch outcome.name {
            case "authenticationFailed": .failed
            case "userCancel", "systemCancel", "appCancel": .cancelled
            case "userFallback": .fallback
            case "passcodeNotSet": .passcodeNotSet
            case "biometryNotAvailable", "invalidContext": .unavailable
            case "biometryNotEnrolled": .notEnrolled
            case "biometryLockout": .lockout
            case "notInteractive": .notInteractive
            default: BiometricFailure.missingUsageDescription  // no rule may fall through: recorded below
            }
        #expect(expected != .missingUsageDescription, "\(outcome) has no reaction in this table: add it")
        #expect(failure == expected, "\(outcome)")
        // Face ID off for the app (-6) and no enrolment (-7) decide a device-only refresh token, never a binding.
        if outcome.code == -6 || outcome.code == -7 {
            #expect(RefreshTokenProtection.decide(canEvaluateBiometrics: false, failure: failure) != .biometryBound)
        }
    }

    @Test(arguments: AppleFrameworkRules.authorization)
    func everyAuthorizationOutcomeIsClassified(_ outcome: AppleFrameworkRules.Outcome) {
        let error = AppleAuthorizationError(authorizationErrorCode: outcome.code)
        #expect(error.domainCode == outcome.code)
        // Only a passing failure is ever transient; a cancellation is never retried.
        if outcome.code == 1004 {
            #expect(error.failureKind == .transient)
            let lasting = AppleAuthorizationError(
                domain: AppleAuthorizationError.authorizationErrorDomain, code: 1004,
                failureReason: "Application with identifier T.com.example.app is not associated with domain example.com"
            )
            #expect(lasting.failureKind == .misconfiguration, "1004's lasting meaning")
        } else {
            #expect(error.failureKind != .transient, "\(outcome)")
        }
        if outcome.code == 1001 { #expect(error.failureKind == .userCancelled) }
    }

    /// Only a definite answer of the credential check signs out.
    @Test(arguments: AppleFrameworkRules.CredentialStateReport.allCases)
    func everyCredentialStateReportHasItsReaction(_ report: AppleFrameworkRules.CredentialStateReport) {
        let authKit = AppleIDCredentialReaction.CheckError(
            NSError(
                domain: AppleAuthorizationError.authorizationErrorDomain, code: 1000,
                userInfo: [NSUnderlyingErrorKey: NSError(domain: "AKAuthenticationError", code: -7073)]))
        let offline = AppleIDCredentialReaction.CheckError(
            NSError(domain: NSURLErrorDomain, code: NSURLErrorNotConnectedToInternet))
        let (state, error, expected):
            (
                AppleIDCredentialReaction.State, AppleIDCredentialReaction.CheckError?,
                AppleIDCredentialReaction?
            ) =
                switch report {
                case .authorized: (.authorized, nil, .keepSession)
                case .revoked: (.revoked, nil, .signOut)
                case .notFound: (.notFound, nil, .signOut)
                case .transferred: (.transferred, nil, .reauthenticate)
                case .unknown: (.unknown, nil, nil)
                case .failedCheck: (.notFound, authKit, nil)
                case .offline: (.notFound, offline, nil)
                }
        #expect(AppleIDCredentialReaction.reaction(to: state, error: error) == expected, "\(report)")
    }

    /// The presentation-context witnesses enter the main actor with `assumeIsolated`: the rule they rest on is written
    /// down with its source.
    @Test func thePresentationAnchorIsAskedOnTheMainThread() {
        let rule = AppleFrameworkRules.callbacks.first { $0.name == "presentationAnchor(for:)" }
        #expect(rule?.when.contains("main thread") == true)
        #expect(rule?.source.isEmpty == false)
    }
}
