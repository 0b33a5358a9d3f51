#if WARDEN_APPLE
    import Foundation
    import LocalAuthentication
    import WardenSession
    import WardenStorage

    /// The Keychain store of a session, chosen for this device.
    public enum SessionStores {
        /// A ``SplitTokenStore`` whose refresh token is bound to the current Face ID / Touch ID set where the device
        /// can (``RefreshTokenProtection/biometryBound``), otherwise kept in the same class as the access token
        /// (this device only, no prompt) — so a device without a passcode or without biometry still signs in.
        ///
        /// Always a split store, whatever the decision: the refresh token's item is always `<service>.refresh-token`,
        /// so a decision that changes between launches still finds and deletes the item an earlier launch wrote. With
        /// Face ID turned off for the app in Settings, an item bound to it can no longer be read (no sheet, no passcode
        /// fallback): the next refresh ends the session once with "sign in again", its items are deleted (no
        /// authentication needed), and sign-out revokes the access token it holds — the refresh token it cannot read is
        /// not revoked (`SignOutReport.revocation` names `access_token`). See
        /// ``RefreshTokenProtection/refreshTokenStore(bound:plain:biometryUnusable:)``.
        ///
        /// The access and ID tokens are always readable without a prompt (`accessibility`, default after first
        /// unlock: extensions and background work can use a valid access token); only a refresh prompts. A
        /// background refresh cannot prompt: it leaves the session `degraded` and the next refresh in the foreground
        /// asks. Call it at each launch: the items keep the protection they were written with until the next sign-in
        /// or rotation rewrites them, and a change of the enrolled faces or fingers makes a bound refresh token
        /// unreadable — the user signs in again, once.
        ///
        /// ```swift
        /// let (store, protection) = SessionStores.forThisDevice(prompt: "Unlock your account")
        /// if case .deviceOnly(let reason) = protection { showNotice("Face ID does not protect your session: \(reason)") }
        /// ```
        ///
        /// - Parameters:
        ///   - prompt: the reason the system shows when a refresh asks for biometry.
        ///   - accessibility: the class of the token item.
        ///   - accessGroup: a shared keychain group, for app extensions.
        ///   - grantLock: shared by every process holding the grant (``FileGrantLock`` in an app group).
        ///   - reuse: how long one Face ID / Touch ID authentication unlocks the bound refresh token's reads
        ///     (``KeychainAuthenticationReuse``; default: every refresh prompts).
        ///   - context: the `LAContext` asked whether biometry is available (never evaluated: nothing is shown).
        public static func forThisDevice(
            prompt: String, accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
            accessGroup: String? = nil, grantLock: any GrantLock = ProcessGrantLock.shared,
            reuse: KeychainAuthenticationReuse = .none,
            // warden:ignore faceid-usage-description-missing a library: canEvaluatePolicy only, nothing is shown
            context: LAContext = LAContext()
        ) -> (store: SplitTokenStore, protection: RefreshTokenProtection) {
            var error: NSError?
            let available = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
            var protection = RefreshTokenProtection.decide(
                canEvaluateBiometrics: available, failure: error.map { BiometricFailure(laErrorCode: $0.code) })
            if protection == .biometryBound,
                !UsageDescriptionCheck.allowsBiometricPrompt(
                    infoDictionary: Bundle.main.infoDictionary ?? [:], on: ApplePlatform.current)
            {
                protection = .decide(canEvaluateBiometrics: false, failure: .missingUsageDescription)
            }
            let tokens = KeychainStore(accessibility: accessibility, accessGroup: accessGroup, grantLock: grantLock)
            let unusable = RefreshTokenProtection.biometryUnusable(
                laErrorCode: available ? nil : error?.code,
                inAppExtension: Bundle.main.bundleURL.pathExtension == "appex")
            let refreshTokens = protection.refreshTokenStore(
                bound: KeychainStore(
                    accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet,
                    accessGroup: accessGroup, reuse: reuse, prompt: prompt, grantLock: grantLock),
                plain: KeychainStore(
                    accessibility: accessibility, accessGroup: accessGroup, prompt: prompt, grantLock: grantLock),
                biometryUnusable: unusable)
            return (SplitTokenStore(tokens: tokens, refreshTokens: refreshTokens), protection)
        }
    }
#endif
