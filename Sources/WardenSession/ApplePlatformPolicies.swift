import Foundation

/// What to do with a Sign in with Apple credential state (`ASAuthorizationAppleIDProvider.CredentialState`),
/// decided portably so the Apple monitor only translates.
public enum AppleIDCredentialReaction: Sendable, Equatable {
    case keepSession
    /// Revoked, or unknown to Apple: sign the session out.
    case signOut
    /// Transferred to another team: sign in again to migrate.
    case reauthenticate

    /// The states as Apple names them.
    public enum State: Sendable { case authorized, revoked, notFound, transferred }

    public static func reaction(to state: State) -> AppleIDCredentialReaction {
        switch state {
        case .authorized: .keepSession
        case .revoked, .notFound: .signOut
        case .transferred: .reauthenticate
        }
    }
}

/// Which `LAPolicy` a sensitive action uses, decided portably. Biometrics-only blocks users whose biometry is
/// locked out; with the passcode fallback anyone who knows the passcode passes. Warden defaults to the fallback
/// for re-authentication prompts and protects secrets with Keychain access control (`.biometryCurrentSet`)
/// instead — a prompt that returns `true` is never what releases a secret.
public enum BiometricPolicyChoice: Sendable, Equatable {
    /// `.deviceOwnerAuthentication`: biometry, falling back to the device passcode.
    case biometryOrPasscode
    /// `.deviceOwnerAuthenticationWithBiometrics`: biometry only.
    case biometryOnly
}

/// Info.plist requirements checked at run time so a missing key is a clear error, not a crash in the framework.
public enum UsageDescriptionCheck {
    /// Where the biometric prompt runs: Face ID (iPhone, iPad) and Optic ID (Vision Pro) need
    /// `NSFaceIDUsageDescription` in Info.plist, Touch ID on a Mac (macOS and Mac Catalyst apps) needs none.
    public enum Platform: Sendable, CaseIterable {
        case iOS, visionOS, macOS, macCatalyst

        /// Whether a biometric prompt on this platform needs `NSFaceIDUsageDescription`.
        public var needsFaceIDUsageDescription: Bool {
            switch self {
            case .iOS, .visionOS: true
            case .macOS, .macCatalyst: false
            }
        }
    }

    /// The non-blank `NSFaceIDUsageDescription`, or nil.
    public static func faceIDUsageDescription(in infoDictionary: [String: Any]) -> String? {
        guard let text = infoDictionary["NSFaceIDUsageDescription"] as? String,
            !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else { return nil }
        return text
    }

    /// Whether a biometric prompt may be shown with this Info.plist on `platform` (without the key, Face ID
    /// terminates the app).
    public static func allowsBiometricPrompt(infoDictionary: [String: Any], on platform: Platform) -> Bool {
        !platform.needsFaceIDUsageDescription || faceIDUsageDescription(in: infoDictionary) != nil
    }
}

/// The `localizedReason` of a biometric prompt. `LAContext.evaluatePolicy(_:localizedReason:reply:)` raises an
/// Objective-C exception — which Swift cannot catch; the app crashes — for an empty reason, so `BiometricGate`
/// refuses one that has nothing to show first.
///
/// ```swift
/// BiometricPromptReason.isPresentable("Confirm the payment")   // true
/// BiometricPromptReason.isPresentable("  ")                    // false
/// ```
public enum BiometricPromptReason {
    /// Whether `reason` has something to show: not empty, not only white space or control characters.
    public static func isPresentable(_ reason: String) -> Bool {
        reason.unicodeScalars.contains { !$0.properties.isWhitespace && $0.properties.generalCategory != .control }
    }
}
