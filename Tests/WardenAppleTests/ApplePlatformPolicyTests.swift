import Foundation
import Testing
import WardenApple
import WardenCore
import WardenOAuth

@Suite("Apple platform policies")
struct ApplePlatformPolicyTests {
    /// An empty reason makes `LAContext` raise an Objective-C exception (a crash): `BiometricGate` refuses it first.
    @Test func aBlankBiometricReasonIsRefusedBeforeLAContextSeesIt() {
        #expect(BiometricPromptReason.isPresentable("Confirm the payment"))
        for blank in ["", " ", "\n\t", "\u{0}", "\u{2003}"] {
            #expect(!BiometricPromptReason.isPresentable(blank), "\(Array(blank.unicodeScalars))")
        }
    }

    /// Each `LAError.Code` (raw values from LocalAuthentication's `LAError.h`) has its own reaction.
    @Test(arguments: [
        (-1, BiometricFailure.failed), (-2, .cancelled), (-3, .fallback), (-4, .cancelled), (-5, .passcodeNotSet),
        (-6, .unavailable), (-7, .notEnrolled), (-8, .lockout), (-9, .cancelled), (-10, .unavailable),
        (-11, .unavailable), (-12, .unavailable), (-13, .unavailable), (-1004, .notInteractive), (-77, .failed),
    ])
    func biometricFailures(code: Int, failure: BiometricFailure) {
        #expect(BiometricFailure(laErrorCode: code) == failure)
    }

    /// A biometric failure is a Warden error like any other: its own stable code, a reason, and the reaction
    /// (`userCancelled` is never retried, `transient` may be, `misconfiguration` means offering another way).
    @Test(arguments: [
        (BiometricFailure.missingUsageDescription, "missing_usage_description", FailureKind.misconfiguration),
        (.invalidReason, "invalid_reason", .misconfiguration),
        (.unavailable, "biometry_unavailable", .misconfiguration),
        (.notEnrolled, "biometry_not_enrolled", .misconfiguration),
        (.passcodeNotSet, "passcode_not_set", .misconfiguration),
        (.lockout, "biometry_lockout", .rejected), (.fallback, "user_fallback", .userCancelled),
        (.cancelled, "user_cancelled", .userCancelled), (.notInteractive, "not_interactive", .transient),
        (.failed, "authentication_failed", .rejected),
    ])
    func biometricFailuresAreWardenErrors(failure: BiometricFailure, code: String, kind: FailureKind) {
        let error: any WardenError = failure
        #expect(error.codeName == code)
        #expect(error.failureKind == kind)
        #expect(!error.reason.isEmpty && error.description == "\(code): \(error.reason)")
    }

    @Test func anAuthorizationErrorRecordsWhereItWasMapped() {
        let (error, line) = (AppleAuthorizationError(authorizationErrorCode: 1001), #line)
        #expect(error.location == "WardenAppleTests/ApplePlatformPolicyTests.swift:\(line)")
    }

    /// The App Switcher: deactivate → background → foreground → active. A Face ID prompt: deactivate → active.
    @Test func privacyMaskTriggers() {
        let strict = PrivacyMaskPolicy()
        let lenient = PrivacyMaskPolicy(trigger: .background)
        func run(_ policy: PrivacyMaskPolicy, _ events: [PrivacyMaskPolicy.Event]) -> [Bool] {
            var masked = false
            return events.map { event in
                masked = policy.masked(after: event, wasMasked: masked)
                return masked
            }
        }
        let switcher: [PrivacyMaskPolicy.Event] = [
            .willDeactivate, .didEnterBackground, .willEnterForeground, .didActivate,
        ]
        #expect(run(strict, switcher) == [true, true, true, false])
        #expect(run(lenient, switcher) == [false, true, false, false])
        let faceIDPrompt: [PrivacyMaskPolicy.Event] = [.willDeactivate, .didActivate]
        #expect(run(strict, faceIDPrompt) == [true, false], "the default also masks under a prompt: the trade-off")
        #expect(run(lenient, faceIDPrompt) == [false, false])
        #expect(strict.masked(active: false, background: false) && !lenient.masked(active: false, background: false))
        #expect(lenient.masked(active: false, background: true) && !strict.masked(active: true, background: false))
    }

    @Test func credentialStateReactions() {
        #expect(AppleIDCredentialReaction.reaction(to: .authorized) == .keepSession)
        #expect(AppleIDCredentialReaction.reaction(to: .revoked) == .signOut)
        #expect(AppleIDCredentialReaction.reaction(to: .notFound) == .signOut)
        #expect(AppleIDCredentialReaction.reaction(to: .transferred) == .reauthenticate)
    }

    /// Only a definite answer signs out: `.revoked`, or `.notFound` with no error. A failed check — Apple's
    /// `ASAuthorizationError` 1000 wrapping an AuthKit error (github.com/tomgilder/flutter_apple_sign_in/issues/7:
    /// AKAuthenticationError -7073; lupidan/apple-signin-unity/issues/171: -7091), offline — keeps the session.
    @Test func onlyADefiniteAnswerSignsOut() {
        let authKit = NSError(
            domain: "com.apple.AuthenticationServices.AuthorizationError", code: 1000,
            userInfo: [NSUnderlyingErrorKey: NSError(domain: "AKAuthenticationError", code: -7073)])
        #expect(AppleIDCredentialReaction.reaction(to: .notFound, error: nil) == .signOut)
        #expect(AppleIDCredentialReaction.reaction(to: .revoked, error: nil) == .signOut)
        #expect(
            AppleIDCredentialReaction.reaction(to: .notFound, error: .init(authKit)) == nil,
            "an Apple outage at launch must not purge a valid user")
        #expect(AppleIDCredentialReaction.reaction(to: .revoked, error: .init(authKit)) == .signOut)
        #expect(AppleIDCredentialReaction.reaction(to: .authorized, error: nil) == .keepSession)
        #expect(AppleIDCredentialReaction.reaction(to: .authorized, error: .init(authKit)) == .keepSession)
        #expect(AppleIDCredentialReaction.reaction(to: .transferred, error: nil) == .reauthenticate)
        #expect(AppleIDCredentialReaction.reaction(to: .unknown, error: nil) == nil, "@unknown states keep the session")
        #expect(AppleIDCredentialReaction.reaction(to: .unknown) == nil)

        let offline = NSError(domain: NSURLErrorDomain, code: NSURLErrorNotConnectedToInternet)
        #expect(AppleIDCredentialReaction.reaction(to: .notFound, error: .init(offline)) == nil)
        let wrapped = NSError(
            domain: "AKAuthenticationError", code: -7003,
            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut)])
        let chain = AppleIDCredentialReaction.CheckError(wrapped)
        #expect(chain.chain.map(\.domain) == ["AKAuthenticationError", NSURLErrorDomain])
        #expect(chain.isTransport)
        #expect(AppleIDCredentialReaction.reaction(to: .notFound, error: chain) == nil)
        #expect(AppleIDCredentialReaction.reaction(to: .revoked, error: chain) == nil, "a failed check learns nothing")
    }

    @Test func faceIDUsageDescription() {
        #expect(
            UsageDescriptionCheck.faceIDUsageDescription(in: ["NSFaceIDUsageDescription": "Unlock your account"])
                == "Unlock your account")
        #expect(UsageDescriptionCheck.faceIDUsageDescription(in: ["NSFaceIDUsageDescription": "  "]) == nil)
        #expect(UsageDescriptionCheck.faceIDUsageDescription(in: [:]) == nil)
    }

    /// Which devices can hold the biometric binding (SessionStores.forThisDevice): a passcode and enrolled
    /// biometry; a lockout still can; without a passcode, biometry or the usage description the refresh token stays
    /// with the session and sign-in still works.
    @Test(
        arguments: [
            (true, nil, RefreshTokenProtection.biometryBound), (false, BiometricFailure.lockout, .biometryBound),
            (false, .passcodeNotSet, .deviceOnly(reason: "the device has no passcode")),
            (false, .notEnrolled, .deviceOnly(reason: "no Face ID or Touch ID is enrolled")),
            (false, .unavailable, .deviceOnly(reason: "biometry is not available on this device")),
            (false, .missingUsageDescription, .deviceOnly(reason: "Info.plist has no NSFaceIDUsageDescription")),
            (false, nil, .deviceOnly(reason: "biometry is not available on this device")),
        ] as [(Bool, BiometricFailure?, RefreshTokenProtection)])
    func refreshTokenProtection(available: Bool, failure: BiometricFailure?, expected: RefreshTokenProtection) {
        #expect(RefreshTokenProtection.decide(canEvaluateBiometrics: available, failure: failure) == expected)
    }

    @Test func callbackMatching() throws {
        #expect(
            WebAuthenticationCallback(try RedirectURI("com.example.app:/oauth/cb")) == .customScheme("com.example.app"))
        #expect(
            WebAuthenticationCallback(try RedirectURI("https://App.Example.com/oauth/cb"))
                == .https(host: "app.example.com", path: "/oauth/cb"))
        #expect(WebAuthenticationCallback(try RedirectURI("http://127.0.0.1/cb")) == nil)
    }
}
