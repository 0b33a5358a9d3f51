#if WARDEN_APPLE
    import Foundation
    import LocalAuthentication
    import WardenSession

    /// Re-authentication before a sensitive action (`LAContext.evaluatePolicy`).
    ///
    /// It never releases a secret: secrets stay behind Keychain access control (`KeychainAccessControl
    /// .biometryCurrentSet`), so a jailbroken hook that makes this return `true` still gets no token.
    public struct BiometricGate: Sendable {
        /// Which `LAPolicy` the prompt evaluates.
        public let policy: BiometricPolicyChoice

        /// A gate evaluating `policy` (default ``BiometricPolicyChoice/biometryOrPasscode``).
        public init(policy: BiometricPolicyChoice = .biometryOrPasscode) { self.policy = policy }

        /// Why the gate did not pass: each `LAError` case has its own (``BiometricFailure``).
        public typealias Failure = BiometricFailure

        /// Asks the user; throws ``BiometricFailure/missingUsageDescription`` when Info.plist lacks
        /// `NSFaceIDUsageDescription`, ``BiometricFailure/invalidReason`` for a blank `reason` (before `LAContext` sees
        /// it), and otherwise what LocalAuthentication reported: ``BiometricFailure/lockout``,
        /// ``BiometricFailure/fallback``, ``BiometricFailure/notEnrolled``, ``BiometricFailure/passcodeNotSet``,
        /// ``BiometricFailure/cancelled``...
        public func authenticate(
            reason: String,
            // warden:ignore faceid-usage-description-missing a library: the app's Info.plist, checked at run time below
            context: LAContext = LAContext()
        ) async throws {
            guard BiometricPromptReason.isPresentable(reason) else { throw Failure.invalidReason }
            guard
                UsageDescriptionCheck.allowsBiometricPrompt(
                    infoDictionary: Bundle.main.infoDictionary ?? [:], on: ApplePlatform.current)
            else { throw Failure.missingUsageDescription }
            let laPolicy: LAPolicy =
                policy == .biometryOnly ? .deviceOwnerAuthenticationWithBiometrics : .deviceOwnerAuthentication
            var error: NSError?
            guard context.canEvaluatePolicy(laPolicy, error: &error) else {
                throw error.map { BiometricFailure(laErrorCode: $0.code) } ?? .unavailable
            }
            do {
                // warden:ignore biometric-event-gate a presence check for UI confirmation; secrets use Keychain access control
                guard try await context.evaluatePolicy(laPolicy, localizedReason: reason) else { throw Failure.failed }
            } catch let error as LAError {
                throw BiometricFailure(laErrorCode: error.code.rawValue)
            }
        }
    }
#endif
