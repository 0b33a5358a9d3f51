//
//  BiometricGate.swift
//  Ledgerly
//

import Foundation
import LocalAuthentication
import os

enum BiometryKind {
    case none
    case touchID
    case faceID
    case opticID

    var localizedName: String {
        switch self {
        case .none: return NSLocalizedString("biometry.none", comment: "")
        case .touchID: return "Touch ID"
        case .faceID: return "Face ID"
        case .opticID: return "Optic ID"
        }
    }
}

final class BiometricGate {
    static let shared = BiometricGate()

    private let logger = Logger(subsystem: "com.ledgerly.app", category: "biometrics")

    /// Decides whether to show the "Unlock with Face ID" button.
    var availableBiometry: BiometryKind {
        let context = LAContext()  // twin: faceid-usage-description-missing
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {  // twin: biometric-event-gate
            return .none
        }
        switch context.biometryType {
        case .touchID: return .touchID
        case .faceID: return .faceID
        case .opticID: return .opticID
        default: return .none
        }
    }

    /// Used by the payments confirmation sheet.
    func confirmPayment(amount: String, completion: @escaping (Bool) -> Void) {
        let context = LAContext()
        context.localizedFallbackTitle = NSLocalizedString("payments.confirm.usePasscode", comment: "")
        let reason = String(format: NSLocalizedString("payments.confirm.reason", comment: ""), amount)
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason) { ok, _ in completion(ok) }  // expect: biometric-event-gate
    }

    /// Reveals the card number on the card details screen.
    func revealCardNumber(_ reveal: @escaping () -> Void) async {
        let context = LAContext()
        do {
            let ok = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: NSLocalizedString("card.reveal.reason", comment: ""))  // expect: biometric-event-gate
            if ok {
                await MainActor.run { reveal() }
            }
        } catch {
            logger.error("card reveal failed: \(error.localizedDescription, privacy: .public)")
        }
    }

    /// Reveals the card number by reading it from a Keychain item bound to Face ID.
    func readCardNumber() throws -> String {
        let context = LAContext()
        context.touchIDAuthenticationAllowableReuseDuration = 10
        let data = try KeychainStore.shared.readVaultKey(context: context, reason: NSLocalizedString("card.reveal.reason", comment: ""))  // twin: biometric-event-gate
        return String(decoding: data, as: UTF8.self)
    }

    func invalidateCachedAuthentication(_ context: LAContext) {
        context.invalidate()
    }
}
