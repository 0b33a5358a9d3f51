/// What LocalAuthentication and AuthenticationServices report, and when — the rules the Apple layer's decisions
/// (`BiometricFailure`, `AppleAuthorizationError`, `AppleIDCredentialReaction` in WardenApple) are tested against, each
/// with its source. An app can use the tables to drive its own error handling's tests.
public enum AppleFrameworkRules {
    /// One documented outcome: the raw code, when the framework reports it, and where that is written down.
    public struct Outcome: Sendable, Equatable, CustomStringConvertible {
        /// The raw code the framework reports (`0` for an entry that is not an error code).
        public let code: Int
        /// The framework's name for the outcome (an `LAError.Code` or `ASAuthorizationError.Code` case, an API).
        public let name: String
        /// When the framework reports it.
        public let when: String
        /// Where that is written down: SDK headers, Apple documentation pages, issue threads that observed it.
        public let source: String
        public var description: String { "\(name) (\(code))" }
    }

    /// `LAError.Code` (LocalAuthentication's `LAPublicDefines.h` and `LAError.h`; the `Biometry…` names alias -6/-7/-8).
    public static let localAuthentication: [Outcome] = [
        Outcome(
            code: -1, name: "authenticationFailed", when: "the user failed to provide valid credentials",
            source: "LAError.h"),
        Outcome(code: -2, name: "userCancel", when: "the user tapped Cancel", source: "LAError.h"),
        Outcome(
            code: -3, name: "userFallback", when: "the user tapped the fallback button (Enter Password)",
            source: "LAError.h"),
        Outcome(
            code: -4, name: "systemCancel",
            when: "the system cancelled (another application went to the foreground)", source: "LAError.h"),
        Outcome(code: -5, name: "passcodeNotSet", when: "the device has no passcode", source: "LAError.h"),
        Outcome(
            code: -6, name: "biometryNotAvailable",
            when: "no biometry on the device, or Face ID turned off for this app in Settings (the app cannot tell "
                + "which: developer.apple.com/forums/thread/699488)",
            source: "LAError.h; github.com/flutter/flutter/issues/160083"),
        Outcome(
            code: -7, name: "biometryNotEnrolled", when: "biometry exists but nothing is enrolled",
            source: "LAError.h"),
        Outcome(
            code: -8, name: "biometryLockout", when: "too many failed attempts: the passcode unlocks biometry",
            source: "LAError.h"),
        Outcome(code: -9, name: "appCancel", when: "the app called invalidate()", source: "LAError.h"),
        Outcome(code: -10, name: "invalidContext", when: "the context was invalidated", source: "LAError.h"),
        Outcome(
            code: -1004, name: "notInteractive",
            when: "UI was needed but interactionNotAllowed forbids it", source: "LAError.h"),
    ]

    /// `ASAuthorizationError.Code` (AuthenticationServices' `ASAuthorizationError.h`, mirrored at
    /// learn.microsoft.com/dotnet/api/authenticationservices.asauthorizationerror; availability from Apple's pages).
    public static let authorization: [Outcome] = [
        Outcome(
            code: 1000, name: "unknown",
            when: "also what a failed credential-state check reports, wrapping an AuthKit error (AKAuthenticationError "
                + "-7073, -7091; -7022 signed out of the Apple ID)",
            source: "ASAuthorizationError.h; github.com/tomgilder/flutter_apple_sign_in/issues/7; "
                + "github.com/lupidan/apple-signin-unity/issues/171"),
        Outcome(code: 1001, name: "canceled", when: "the user dismissed the sheet", source: "ASAuthorizationError.h"),
        Outcome(
            code: 1002, name: "invalidResponse", when: "the response was invalid", source: "ASAuthorizationError.h"),
        Outcome(
            code: 1003, name: "notHandled", when: "no provider handled the request",
            source: "ASAuthorizationError.h"),
        Outcome(
            code: 1004, name: "failed",
            when: "the authorization failed; for passkeys also, lasting, when the app is not associated with the "
                + "relying party's domain (failure reason: \"…is not associated with domain…\", \"Unable to verify "
                + "webcredentials association…\")",
            source: "ASAuthorizationError.h; github.com/f-23/react-native-passkey/issues/16 and /96"),
        Outcome(
            code: 1005, name: "notInteractive",
            when: "UI was needed (preferImmediatelyAvailableCredentials with nothing on the device)",
            source: "ASAuthorizationError.h"),
        Outcome(
            code: 1006, name: "matchedExcludedCredential",
            when: "iOS 18: a passkey the server excluded is already on the device",
            source: "developer.apple.com/documentation/authenticationservices/asauthorizationerror-swift.struct/code/"
                + "matchedexcludedcredential"),
        Outcome(
            code: 1007, name: "credentialImport", when: "iOS 18.2: a credential import failed",
            source: "ASAuthorizationError.h"),
        Outcome(
            code: 1008, name: "credentialExport", when: "iOS 18.2: a credential export failed",
            source: "ASAuthorizationError.h"),
        Outcome(
            code: 1009, name: "preferSignInWithApple",
            when: "the user chose Sign in with Apple over the request", source: "ASAuthorizationError.h"),
        Outcome(
            code: 1010, name: "deviceNotConfiguredForPasskeyCreation",
            when: "the device cannot create passkeys now (no passcode, iCloud Keychain off)",
            source: "ASAuthorizationError.h"),
    ]

    /// On which thread the frameworks call back, where Warden's Apple layer relies on it (`code` unused, 0).
    public static let callbacks: [Outcome] = [
        Outcome(
            code: 0, name: "presentationAnchor(for:)",
            when: "asked on the main thread, by ASWebAuthenticationSession and ASAuthorizationController alike: the "
                + "witnesses are nonisolated and enter the main actor with MainActor.assumeIsolated",
            source: "ASWebAuthenticationSession.h / ASAuthorizationController.h: the providing protocols are "
                + "NS_SWIFT_UI_ACTOR (main actor) in the iOS 17 SDK and later"),
        Outcome(
            code: 0, name: "getCredentialState completion",
            when: "called on a background queue: Warden forms the block outside any actor and resumes a continuation",
            source: "developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/"
                + "getcredentialstate(foruserid:completion:)"),
        Outcome(
            code: 0, name: "ASAuthorizationPlatformPublicKeyCredentialRegistration.attachment",
            when: "an NSInteger property from iOS 16.6 / macOS 13.5, read by key under that availability",
            source: "developer.apple.com/documentation/authenticationservices/"
                + "asauthorizationplatformpublickeycredentialregistration/attachment"),
    ]

    /// What the Secure Enclave key calls answer (`SecItemCopyMatching` for the key, `SecKeyCreateDecryptedData` with
    /// `.eciesEncryptionCofactorVariableIVX963SHA256AESGCM`), where `SecureEnclaveKeyWrapper` relies on it.
    public static let secureEnclaveKeys: [Outcome] = [
        Outcome(
            code: -25300, name: "errSecItemNotFound",
            when:
                "the wrapping key is not on this device: a Secure Enclave key never leaves the device it was made on, "
                + "so after a restore to another device the wrapped key item arrives (if its class migrates) and the "
                + "key does not — the sealed data cannot be opened again",
            source: "Apple, \"Protecting keys with the Secure Enclave\": \"you can't import preexisting keys\" and the "
                + "private key \"can't be exported\"; kSecAttrTokenIDSecureEnclave"),
        Outcome(
            code: -25308, name: "errSecInteractionNotAllowed",
            when:
                "the device is locked: the key was made kSecAttrAccessibleWhenUnlockedThisDeviceOnly, so it cannot be "
                + "used until unlock (transient)",
            source: "Security SecItem.h: \"errSecInteractionNotAllowed will be returned if the item's data is not "
                + "available until a device unlock occurs\"; kSecAttrAccessibleWhenUnlockedThisDeviceOnly"),
        Outcome(
            code: -50, name: "errSecParam",
            when:
                "the wrapped bytes were changed: the ECIES AES-GCM tag does not verify and decryption fails (the exact "
                + "status is not confirmed by a source: on the README's device checklist)",
            source: "Security SecKey.h, kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM: AES-GCM "
                + "authenticates the ciphertext"),
    ]

    /// What `ASAuthorizationAppleIDProvider.getCredentialState(forUserID:completion:)` hands over: a state and an
    /// optional error (Apple, `ASAuthorizationAppleIDProvider.CredentialState`: authorized, revoked, notFound —
    /// "hasn't established a relationship" —, transferred — "transferred to a different team").
    public enum CredentialStateReport: Sendable, Equatable, CaseIterable {
        /// The four states Apple documents for `CredentialState`.
        case authorized, revoked, notFound, transferred
        /// A state added by a later SDK (`@unknown default`).
        case unknown
        /// A check that failed: ASAuthorizationError 1000 wrapping an AuthKit error, beside a state that says nothing.
        case failedCheck
        /// A check made offline (the status Apple gives is not confirmed by a source: on the device checklist).
        case offline
    }
}
