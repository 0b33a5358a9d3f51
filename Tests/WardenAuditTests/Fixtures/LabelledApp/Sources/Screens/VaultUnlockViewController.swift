//
//  VaultUnlockViewController.swift
//  Ledgerly
//
//  The "Vault" tab keeps scanned IDs and card numbers behind a PIN / Face ID.
//

import CryptoKit
import LocalAuthentication
import UIKit

final class VaultUnlockViewController: UIViewController {
    private let iconView = UIImageView(image: UIImage(systemName: "lock.shield"))
    private let messageLabel = UILabel()
    private let pinField = UITextField()
    private let unlockButton = UIButton(configuration: .filled())
    private let biometricButton = UIButton(configuration: .tinted())
    private var failedAttempts = 0
    private var cachedLayoutSignature: String?

    var onUnlocked: (() -> Void)?

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        messageLabel.text = NSLocalizedString("vault.locked.message", comment: "")
        messageLabel.textAlignment = .center
        messageLabel.numberOfLines = 0

        pinField.keyboardType = .numberPad
        pinField.isSecureTextEntry = true  // expect: password-field-without-content-type
        pinField.isHidden = true
        pinField.addTarget(self, action: #selector(pinChanged), for: .editingChanged)

        unlockButton.configuration?.title = NSLocalizedString("vault.unlock", comment: "")
        unlockButton.addTarget(self, action: #selector(unlockWithPIN), for: .touchUpInside)

        let biometry = BiometricGate.shared.availableBiometry
        biometricButton.configuration?.title = biometry.localizedName
        biometricButton.configuration?.image = UIImage(systemName: biometry == .faceID ? "faceid" : "touchid")
        biometricButton.isHidden = biometry == .none
        biometricButton.addTarget(self, action: #selector(unlockWithBiometrics), for: .touchUpInside)

        let stack = UIStackView(arrangedSubviews: [iconView, messageLabel, pinField, unlockButton, biometricButton])
        stack.axis = .vertical
        stack.alignment = .center
        stack.spacing = 16
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.centerYAnchor.constraint(equalTo: view.centerYAnchor),
            stack.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            stack.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
            iconView.heightAnchor.constraint(equalToConstant: 56),
            iconView.widthAnchor.constraint(equalToConstant: 56),
        ])
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let layoutSignature = "\(view.bounds.width)x\(view.bounds.height)-\(traitCollection.horizontalSizeClass.rawValue)"
        if layoutSignature == cachedLayoutSignature {  // twin: non-constant-time-compare
            return
        }
        cachedLayoutSignature = layoutSignature
        iconView.contentMode = traitCollection.verticalSizeClass == .compact ? .scaleAspectFit : .center
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        pinField.becomeFirstResponder()
    }

    @objc private func pinChanged() {
        if pinField.text?.count == 6 { unlockWithPIN() }
    }

    @objc private func unlockWithPIN() {
        guard let entered = pinField.text, !entered.isEmpty else { return }
        let pinHash = Data(SHA256.hash(data: Data(entered.utf8))).base64EncodedString()
        let storedPinHash = KeychainStore.shared.readString(account: "vault_pin_hash")
        if pinHash == storedPinHash {  // expect: non-constant-time-compare
            unlock()
        } else {
            registerFailure()
        }
    }

    /// New PIN check used when the server-side PIN verification flag is on.
    private func unlockWithPINv2(_ entered: String) {
        let pinHash = Data(SHA256.hash(data: Data(entered.utf8)))
        guard let stored = KeychainStore.shared.readString(account: "vault_pin_hash"),
              let storedPinHash = Data(base64Encoded: stored) else { return registerFailure() }
        if ConstantTime.equals(pinHash, storedPinHash) {  // twin: non-constant-time-compare
            unlock()
        } else {
            registerFailure()
        }
    }

    @objc private func unlockWithBiometrics() {
        let context = LAContext()  // twin: faceid-usage-description-missing
        context.localizedCancelTitle = NSLocalizedString("vault.usePIN", comment: "")
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: NSLocalizedString("vault.unlock.reason", comment: "")) { success, error in  // expect: biometric-event-gate
            DispatchQueue.main.async {
                if success {
                    self.unlock()
                } else if let error = error as? LAError, error.code == .userFallback {
                    self.pinField.becomeFirstResponder()
                }
            }
        }
    }

    private func unlockWithBiometricsV2() {
        let context = LAContext()
        do {
            let vaultKey = try KeychainStore.shared.readVaultKey(context: context, reason: NSLocalizedString("vault.unlock.reason", comment: ""))  // twin: biometric-event-gate
            VaultSession.shared.open(with: vaultKey)
            unlock()
        } catch {
            pinField.becomeFirstResponder()
        }
    }

    private func unlock() {
        failedAttempts = 0
        UIView.animate(withDuration: 0.25) {
            self.view.alpha = 0
        } completion: { _ in
            self.onUnlocked?()
        }
    }

    private func registerFailure() {
        failedAttempts += 1
        pinField.text = ""
        UINotificationFeedbackGenerator().notificationOccurred(.error)
        if failedAttempts >= 5 {
            messageLabel.text = NSLocalizedString("vault.locked.tooManyAttempts", comment: "")
            unlockButton.isEnabled = false
        }
    }
}
