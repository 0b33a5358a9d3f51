import Foundation
import WardenCore
import WardenStorage

/// What to do with a Sign in with Apple credential state (`ASAuthorizationAppleIDProvider.CredentialState`),
/// decided portably so the Apple monitor only translates.
public enum AppleIDCredentialReaction: Sendable, Equatable {
    /// Authorized: keep the session.
    case keepSession
    /// Revoked, or unknown to Apple: sign the session out.
    case signOut
    /// Transferred to another team: sign in again to migrate.
    case reauthenticate

    /// The states as Apple names them, and ``unknown`` for a state a newer SDK adds (`@unknown default`).
    public enum State: Sendable {
        /// The Apple ID still authorizes the app.
        case authorized
        /// The user stopped using Sign in with Apple with the app (or Apple revoked it).
        case revoked
        /// Apple does not know this user for the app.
        case notFound
        /// The user was transferred to another team (an app transfer).
        case transferred
        /// A state this version does not know (`@unknown default`).
        case unknown
    }

    /// The reaction to a state alone: only a definite answer signs out; a state this version does not know keeps the
    /// session (nil).
    public static func reaction(to state: State) -> AppleIDCredentialReaction? {
        switch state {
        case .authorized: .keepSession
        case .revoked, .notFound: .signOut
        case .transferred: .reauthenticate
        case .unknown: nil
        }
    }

    /// The reaction to what `getCredentialState(forUserID:completion:)` reports: a state **and** an optional error.
    ///
    /// Only a definite answer signs the user out: `.revoked`, or `.notFound` **without** an error. When the check
    /// fails, Apple reports `ASAuthorizationError` 1000 wrapping an AuthKit error (`AKAuthenticationError` -7073,
    /// -7091; -7022 when the device is signed out of its Apple ID) — an Apple outage, a device whose AuthKit is in a
    /// bad state — and the state beside it says nothing; purging a valid user at launch for it is the bug this rule
    /// prevents. So `.notFound` with an error, any error about reaching Apple, and a state this version does not
    /// know are nil: keep the session, log, and check again later (the revocation notification and the server's
    /// own checks still reach a user Apple removed).
    public static func reaction(to state: State, error: CheckError?) -> AppleIDCredentialReaction? {
        guard let error else { return reaction(to: state) }
        switch state {
        case .revoked: return error.isTransport ? nil : .signOut
        case .authorized: return .keepSession
        case .transferred: return .reauthenticate
        case .notFound, .unknown: return nil
        }
    }

    /// An error of a credential-state check, as Foundation reports it: the error and its `NSUnderlyingErrorKey` chain.
    public struct CheckError: Sendable, Equatable, CustomStringConvertible {
        /// One error of the chain.
        public struct Link: Sendable, Equatable {
            /// The error's domain (`NSError.domain`).
            public let domain: String
            /// The error's code in its domain.
            public let code: Int
            /// A link for `code` in `domain`.
            public init(domain: String, code: Int) {
                self.domain = domain
                self.code = code
            }
        }

        /// The error first, then what it wraps.
        public let chain: [Link]

        /// An error from its chain, the reported error first.
        public init(chain: [Link]) { self.chain = chain }

        /// The error and up to seven errors it wraps.
        public init(_ error: any Error) {
            var links: [Link] = []
            var current: NSError? = error as NSError
            while let next = current, links.count < 8 {
                links.append(Link(domain: next.domain, code: next.code))
                current = next.userInfo[NSUnderlyingErrorKey] as? NSError
            }
            chain = links
        }

        /// Domains whose errors are about reaching the server, not about the credential.
        public static let transportDomains: Set<String> = [NSURLErrorDomain, "kCFErrorDomainCFNetwork"]

        /// Whether the error, or one it wraps, is a network failure.
        public var isTransport: Bool { chain.contains { Self.transportDomains.contains($0.domain) } }

        public var description: String { chain.map { "\($0.domain) \($0.code)" }.joined(separator: " <- ") }
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

/// Why a biometric re-authentication (`BiometricGate`, WardenApple) did not pass, from LocalAuthentication's
/// `LAError.Code`, so the app can react to each case instead of one "failed".
public enum BiometricFailure: WardenError, Equatable {
    /// Info.plist lacks `NSFaceIDUsageDescription` (Face ID would terminate the app).
    case missingUsageDescription
    /// A blank reason (`LAContext` would raise an Objective-C exception, a crash).
    case invalidReason
    /// No biometry on this device (`biometryNotAvailable` -6), or the context was invalidated (`invalidContext` -10).
    case unavailable
    /// Biometry exists but nothing is enrolled (`biometryNotEnrolled` -7): offer the passcode or another way.
    case notEnrolled
    /// No device passcode (`passcodeNotSet` -5): neither biometry nor the passcode can protect anything.
    case passcodeNotSet
    /// Too many failed attempts (`biometryLockout` -8): the device passcode unlocks biometry again; with
    /// `.biometryOrPasscode` the system asks for it.
    case lockout
    /// The user chose the fallback button ("Enter Password", `userFallback` -3): show the app's own fallback.
    case fallback
    /// The user, the app or the system cancelled (`userCancel` -2, `appCancel` -9, `systemCancel` -4). Never retried.
    case cancelled
    /// The prompt needed UI it was not allowed to show (`notInteractive` -1004).
    case notInteractive
    /// The user failed to authenticate (`authenticationFailed` -1), or a code this version does not know.
    case failed

    /// The failure for an `LAError.Code` raw value.
    public init(laErrorCode code: Int) {
        switch code {
        case -2, -4, -9: self = .cancelled
        case -3: self = .fallback
        case -5: self = .passcodeNotSet
        case -6, -10, -12, -13, -11: self = .unavailable
        case -7: self = .notEnrolled
        case -8: self = .lockout
        case -1004: self = .notInteractive
        default: self = .failed
        }
    }

    public var codeName: String {
        switch self {
        case .missingUsageDescription: "missing_usage_description"
        case .invalidReason: "invalid_reason"
        case .unavailable: "biometry_unavailable"
        case .notEnrolled: "biometry_not_enrolled"
        case .passcodeNotSet: "passcode_not_set"
        case .lockout: "biometry_lockout"
        case .fallback: "user_fallback"
        case .cancelled: "user_cancelled"
        case .notInteractive: "not_interactive"
        case .failed: "authentication_failed"
        }
    }

    public var reason: String {
        switch self {
        case .missingUsageDescription: "Info.plist has no NSFaceIDUsageDescription"
        case .invalidReason: "the prompt's reason is blank"
        case .unavailable: "this device has no usable biometry"
        case .notEnrolled: "no biometry is enrolled on this device"
        case .passcodeNotSet: "this device has no passcode"
        case .lockout: "biometry is locked after too many failed attempts; the device passcode unlocks it"
        case .fallback: "the user chose the fallback"
        case .cancelled: "the prompt was cancelled"
        case .notInteractive: "the prompt needed UI it was not allowed to show"
        case .failed: "the user was not recognised"
        }
    }

    /// The app's configuration or the device's set-up decides `misconfiguration` (the app should offer another
    /// way); the user's choice is `userCancelled` (never retried); a prompt not allowed now is `transient`; a
    /// failed match or a lockout is `rejected`.
    public var failureKind: FailureKind {
        switch self {
        case .missingUsageDescription, .invalidReason, .unavailable, .notEnrolled, .passcodeNotSet: .misconfiguration
        case .cancelled, .fallback: .userCancelled
        case .notInteractive: .transient
        case .lockout, .failed: .rejected
        }
    }
}

/// When a privacy mask covers sensitive UI (`PrivacyMaskController`, `.privacyMasked()`, WardenApple), decided
/// portably from the scene's life-cycle events.
///
/// The trade-off: the App Switcher shows a scene's card while the scene is merely *inactive*, so only masking on
/// deactivation keeps the card clean — but a scene is also inactive under the Face ID prompt, the web-authentication
/// consent alert, Control Center and Notification Center, which then cover the UI too. ``Trigger/background`` masks
/// only once the scene is in the background (the stored snapshot is masked, the card shown while switching is not).
public struct PrivacyMaskPolicy: Sendable, Equatable {
    /// When to mask.
    public enum Trigger: Sendable, Equatable {
        /// On every deactivation (the default: the App Switcher card is masked too).
        case inactive
        /// Only in the background (prompts and alerts leave the UI visible; the switcher card may show it).
        case background
    }

    /// A scene life-cycle event (`UIScene` notifications, SwiftUI's `scenePhase`).
    public enum Event: Sendable, Equatable {
        /// The moments of the `UIScene` notifications of the same names (`UIScene.willDeactivateNotification`...).
        case willDeactivate, didEnterBackground, willEnterForeground, didActivate
    }

    /// When to mask (default ``PrivacyMaskPolicy/Trigger/inactive``).
    public var trigger: Trigger

    /// A policy masking on `trigger` (by default on every deactivation).
    public init(trigger: Trigger = .inactive) { self.trigger = trigger }

    /// Whether the mask shows after `event`, given whether it showed before.
    public func masked(after event: Event, wasMasked: Bool) -> Bool {
        switch (trigger, event) {
        case (.inactive, .willDeactivate), (_, .didEnterBackground): true
        case (_, .didActivate): false
        case (.background, .willEnterForeground): false
        case (.inactive, .willEnterForeground): wasMasked  // foreground but not yet active
        case (.background, .willDeactivate): wasMasked
        }
    }

    /// Whether a SwiftUI view is masked in a scene phase (`active`, `inactive`, `background`).
    public func masked(active: Bool, background: Bool) -> Bool {
        switch trigger {
        case .inactive: !active
        case .background: background
        }
    }
}

/// Info.plist requirements checked at run time so a missing key is a clear error, not a crash in the framework.
public enum UsageDescriptionCheck {
    /// Where the biometric prompt runs: Face ID (iPhone, iPad) and Optic ID (Vision Pro) need
    /// `NSFaceIDUsageDescription` in Info.plist, Touch ID on a Mac (macOS and Mac Catalyst apps) needs none.
    public enum Platform: Sendable, CaseIterable {
        /// iPhone and iPad, Apple Vision Pro, a native Mac app, and a Mac Catalyst app.
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
    public static func isPresentable(_ reason: String) -> Bool { KeychainPromptText.presentable(reason) != nil }
}

/// Whether this device can hold a refresh token bound to biometry, decided from LocalAuthentication's answer for
/// biometric authentication (`canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics)`), portably.
///
/// A `.biometryCurrentSet` item in the `whenPasscodeSetThisDeviceOnly` class cannot even be written on a device
/// without a passcode, and protects nothing on one without enrolled biometry: binding there would make every sign-in
/// fail (`access_control_unavailable`). Such a device keeps the refresh token in the session's own item (this device
/// only, no prompt) and the app says so. A locked-out biometry is still enrolled: the binding stays (the passcode
/// unlocks it).
///
/// `SessionStores.forThisDevice(prompt:)` (WardenApple) builds the store from this decision.
public enum RefreshTokenProtection: Sendable, Equatable {
    /// A passcode and enrolled biometry: the refresh token is bound to the current biometric set.
    case biometryBound
    /// The refresh token stays with the access token, protected by the device only; `reason` says why.
    case deviceOnly(reason: String)

    /// The decision from `canEvaluatePolicy`'s result and, when it failed, its `LAError` (``BiometricFailure``).
    public static func decide(canEvaluateBiometrics: Bool, failure: BiometricFailure?) -> RefreshTokenProtection {
        if canEvaluateBiometrics { return .biometryBound }
        switch failure {
        case .passcodeNotSet: return .deviceOnly(reason: "the device has no passcode")
        case .notEnrolled: return .deviceOnly(reason: "no Face ID or Touch ID is enrolled")
        case .lockout: return .biometryBound
        case .missingUsageDescription: return .deviceOnly(reason: "Info.plist has no NSFaceIDUsageDescription")
        default: return .deviceOnly(reason: "biometry is not available on this device")
        }
    }
}
