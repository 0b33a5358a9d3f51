/// Every rule Warden's auditor knows, with its MASVS control and MASWE weakness.
public enum Catalogue {
    // MARK: Storage
    public static let keychainAccessibleAlways = Rule(
        id: "keychain-accessible-always", severity: .error, name: "Keychain item readable while locked",
        message: "Keychain item uses an 'Always' accessibility class: readable while the device is locked",
        fix:
            "Use kSecAttrAccessibleWhenUnlockedThisDeviceOnly (AfterFirstUnlockThisDeviceOnly only for background refresh).",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])
    public static let keychainNotThisDeviceOnly = Rule(
        id: "keychain-not-this-device-only", severity: .warning, name: "Keychain item migrates to other devices",
        message: "Keychain accessibility class without ThisDeviceOnly: the item travels in backups to other devices",
        fix: "Use the ThisDeviceOnly variant (kSecAttrAccessibleWhenUnlockedThisDeviceOnly) for tokens and keys.",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])
    public static let secretInUserDefaults = Rule(
        id: "secret-in-user-defaults", severity: .error, name: "Secret in UserDefaults",
        message: "A secret is written to UserDefaults, an unencrypted plist in the app container and its backups",
        fix: "Store secrets in the Keychain (Warden's KeychainStore / CredentialStore).",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])
    public static let secretInSwiftUIStorage = Rule(
        id: "secret-in-swiftui-storage", severity: .error, name: "Secret in @AppStorage/@SceneStorage",
        message: "A secret is kept in @AppStorage/@SceneStorage, which persist unencrypted (UserDefaults, scene state)",
        fix: "Keep secrets in the Keychain; hold only non-secret state in @AppStorage/@SceneStorage.",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])
    public static let secretInICloudKeyValueStore = Rule(
        id: "secret-in-icloud-kvs", severity: .error, name: "Secret in iCloud key-value storage",
        message: "A secret is written to NSUbiquitousKeyValueStore, synced to iCloud and every device of the account",
        fix: "Keep secrets in the device's Keychain with a ThisDeviceOnly class.",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0002"])
    public static let secretInFile = Rule(
        id: "secret-in-file", severity: .error, name: "Secret in a file or database",
        message: "A secret is written to a file, property list, Core Data entity or database in cleartext",
        fix: "Store secrets in the Keychain; if data must live in a file, encrypt it with a Keychain-held key.",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])
    public static let fileWithoutProtection = Rule(
        id: "file-without-protection", severity: .warning, name: "File written without data protection",
        message: "File protection is switched off: the file is readable whenever the device has power",
        fix:
            "Write with .completeFileProtection (or .completeFileProtectionUnlessOpen for files written in the background).",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])
    public static let hardcodedSecret = Rule(
        id: "hardcoded-secret", severity: .error, name: "Hard-coded secret",
        message: "A secret or API key is written into the source and ships in the app binary",
        fix: "Fetch secrets at runtime from your server after authentication; never ship them in the app.",
        masvs: ["MASVS-STORAGE-1", "MASVS-CRYPTO-2"], maswe: ["MASWE-0003"])

    // MARK: Sign-in
    public static let oauthInWebView = Rule(
        id: "oauth-in-webview", severity: .error, name: "Sign-in page in an embedded web view",
        message: "An authorization URL is loaded in an embedded web view: the app can read the user's credentials",
        fix:
            "Use ASWebAuthenticationSession (Warden's WebAuthenticationAgent) so the sign-in runs in the system browser.",
        masvs: ["MASVS-AUTH-1", "MASVS-PLATFORM-2"], maswe: ["MASWE-0018", "MASWE-0019"])
    public static let uiWebView = Rule(
        id: "uiwebview", severity: .error, name: "UIWebView",
        message: "UIWebView is deprecated, unsupported by the App Store, and has no isolation from the app",
        fix: "Use WKWebView for content and ASWebAuthenticationSession for sign-in.", masvs: ["MASVS-PLATFORM-2"])
    public static let oauthWithoutPKCE = Rule(
        id: "oauth-without-pkce", severity: .warning, name: "Authorization request without PKCE",
        message: "Authorization code request without code_challenge: an intercepted code can be redeemed",
        fix: "Send code_challenge (S256) and code_challenge_method=S256 (Warden's AuthorizationRequest does).",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])
    public static let oauthPKCEPlain = Rule(
        id: "oauth-pkce-plain", severity: .error, name: "PKCE with the plain method",
        message: "code_challenge_method=plain sends the verifier itself: PKCE protects nothing",
        fix: "Use code_challenge_method=S256.", masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])
    public static let oauthWithoutState = Rule(
        id: "oauth-without-state", severity: .warning, name: "Authorization request without state",
        message: "Authorization request without state: forged responses (CSRF, mix-up) cannot be detected",
        fix: "Send a 256-bit random state and compare it in constant time (Warden's PendingAuthorization).",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])
    public static let oauthImplicitFlow = Rule(
        id: "oauth-implicit-flow", severity: .error, name: "Implicit flow (response_type=token)",
        message: "response_type=token returns tokens in the redirect URL (implicit flow, removed by OAuth 2.1)",
        fix: "Use the authorization code flow with PKCE.", masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])
    public static let oauthPasswordGrant = Rule(
        id: "oauth-password-grant", severity: .error, name: "Resource owner password grant",
        message: "grant_type=password: the app handles the user's password (removed by OAuth 2.1)",
        fix: "Use the authorization code flow with PKCE in the system browser.",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])

    // MARK: Tokens
    public static let tokenInURL = Rule(
        id: "token-in-url", severity: .error, name: "Token in a URL query",
        message: "A token or secret is sent in a URL query, where proxies, logs and referrers keep it",
        fix: "Send tokens in the Authorization header (Bearer) or a POST body.",
        masvs: ["MASVS-AUTH-1", "MASVS-STORAGE-2"], maswe: ["MASWE-0005"])
    public static let jwtUnverifiedDecision = Rule(
        id: "jwt-unverified-decision", severity: .warning, name: "Unverified JWT used for a decision",
        message: "A JWT is decoded without signature verification and its claims decide what happens",
        fix: "Verify the signature and claims (Warden's JWTVerifier / IDTokenValidator) or let the server decide.",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])
    public static let iatPositiveLeeway = Rule(
        id: "iat-positive-leeway", severity: .warning, name: "Leeway for iat in the future",
        message: "A positive leeway for iat accepts tokens issued in the future",
        fix: "Reject iat in the future; give leeway to exp/nbf only (30-60 s).",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])

    // MARK: Network
    public static let atsArbitraryLoads = Rule(
        id: "ats-arbitrary-loads", severity: .error, name: "App Transport Security disabled",
        message: "NSAllowsArbitraryLoads disables App Transport Security for every connection",
        fix: "Remove NSAllowsArbitraryLoads; add narrow NSExceptionDomains only where unavoidable.",
        masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0026"])
    public static let atsArbitraryLoadsScoped = Rule(
        id: "ats-arbitrary-loads-scoped", severity: .warning, name: "App Transport Security disabled for media/web",
        message: "ATS is disabled for media or web content (NSAllowsArbitraryLoadsForMedia/InWebContent)",
        fix: "Serve media and web content over HTTPS and remove the key.", masvs: ["MASVS-NETWORK-1"],
        maswe: ["MASWE-0026"])
    public static let atsInsecureException = Rule(
        id: "ats-insecure-exception", severity: .warning, name: "Cleartext exception domain",
        message: "An ATS exception domain allows cleartext HTTP",
        fix: "Enable HTTPS on the server and remove NSExceptionAllowsInsecureHTTPLoads.", masvs: ["MASVS-NETWORK-1"],
        maswe: ["MASWE-0026"])
    public static let atsWeakTLS = Rule(
        id: "ats-weak-tls", severity: .error, name: "TLS below 1.2 allowed",
        message: "An ATS exception allows TLS below 1.2",
        fix: "Remove NSExceptionMinimumTLSVersion or set TLSv1.2/1.3.",
        masvs: ["MASVS-NETWORK-1"])
    public static let trustAllCertificates = Rule(
        id: "trust-all-certificates", severity: .error, name: "Server trust accepted without evaluation",
        message: "The challenge handler accepts the server's certificate without evaluating it: anyone can intercept",
        fix: "Call SecTrustEvaluateWithError first (then pin with Warden's PinSet), or use .performDefaultHandling.",
        masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0027"])
    public static let cleartextHTTP = Rule(
        id: "cleartext-http", severity: .warning, name: "Cleartext HTTP URL",
        message: "A cleartext http:// URL to a non-loopback host", fix: "Use https://.", masvs: ["MASVS-NETWORK-1"],
        maswe: ["MASWE-0026"])

    // MARK: Platform
    public static let biometricEventGate = Rule(
        id: "biometric-event-gate", severity: .warning, name: "Biometric success used as the gate to a secret",
        message: "LAContext.evaluatePolicy's success unlocks a secret: a hooked callback bypasses it",
        fix: "Protect the secret with Keychain access control (.biometryCurrentSet); let the Keychain prompt.",
        masvs: ["MASVS-AUTH-2"], maswe: ["MASWE-0020"])
    public static let faceIDUsageDescriptionMissing = Rule(
        id: "faceid-usage-description-missing", severity: .error, name: "NSFaceIDUsageDescription missing",
        message: "LocalAuthentication is used but no Info.plist has NSFaceIDUsageDescription (Face ID fails)",
        fix: "Add NSFaceIDUsageDescription to the app's Info.plist.", masvs: ["MASVS-AUTH-2"])
    public static let keychainWeakAccessControl = Rule(
        id: "keychain-weak-access-control", severity: .warning, name: "Weak Keychain access control",
        message: "Access control .biometryAny/.userPresence survives new enrollments or falls back to the passcode",
        fix: "Use .biometryCurrentSet for high-value items.", masvs: ["MASVS-AUTH-2"],
        maswe: ["MASWE-0021", "MASWE-0022"])
    public static let signInWithAppleWithoutStateCheck = Rule(
        id: "siwa-without-credential-state", severity: .warning, name: "Sign in with Apple without revocation handling",
        message:
            "Sign in with Apple without getCredentialState(forUserID:) and a credentialRevokedNotification observer",
        fix: "Check the credential state at launch and observe revocation (Warden's AppleIDCredentialMonitor).",
        masvs: ["MASVS-AUTH-1"])
    public static let passkeysWithoutWebCredentials = Rule(
        id: "passkeys-without-webcredentials", severity: .error, name: "Passkeys without a webcredentials domain",
        message: "Passkeys are requested but no entitlements file has a webcredentials: associated domain",
        fix:
            "Add webcredentials:<rp-id> to com.apple.developer.associated-domains and serve apple-app-site-association.",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0019"])
    public static let passwordFieldWithoutContentType = Rule(
        id: "password-field-without-content-type", severity: .note, name: "Password field without textContentType",
        message: "A password field without textContentType: AutoFill and password managers cannot fill it",
        fix: "Set .textContentType(.password) (or .newPassword on sign-up).", masvs: ["MASVS-AUTH-1"],
        maswe: ["MASWE-0019"])

    // MARK: Crypto and diagnostics
    public static let nonConstantTimeCompare = Rule(
        id: "non-constant-time-compare", severity: .warning, name: "== on a state, MAC or signature",
        message: "== compares a state/MAC/signature value in variable time",
        fix: "Compare with a constant-time function (Warden's ConstantTime.equals).", masvs: ["MASVS-CRYPTO-1"])
    public static let insecureRandomForSecret = Rule(
        id: "insecure-random-for-secret", severity: .error, name: "Weak randomness for a secret",
        message: "A state, nonce, verifier, salt, IV or key comes from non-cryptographic or seeded randomness",
        fix: "Use SecRandomCopyBytes (Warden's SecureRandom).", masvs: ["MASVS-CRYPTO-1"])
    public static let secretInLog = Rule(
        id: "secret-in-log", severity: .error, name: "Secret in logs",
        message: "A secret is written to the logs", fix: "Log a redacted form (Warden's Redacted) or nothing.",
        masvs: ["MASVS-STORAGE-2"], maswe: ["MASWE-0005"])

    // MARK: Workflow
    public static let invalidSuppression = Rule(
        id: "invalid-suppression", severity: .warning, name: "Suppression without a rule or reason",
        message: "warden:ignore needs a known rule id and a reason",
        fix: "Write '// warden:ignore RULE-ID why this is safe'.", masvs: [])

    /// All rules, in report order.
    public static let all: [Rule] = [
        keychainAccessibleAlways, keychainNotThisDeviceOnly, secretInUserDefaults, secretInSwiftUIStorage,
        secretInICloudKeyValueStore, secretInFile, fileWithoutProtection, hardcodedSecret, oauthInWebView, uiWebView,
        oauthWithoutPKCE, oauthPKCEPlain, oauthWithoutState, oauthImplicitFlow, oauthPasswordGrant, tokenInURL,
        jwtUnverifiedDecision, iatPositiveLeeway, atsArbitraryLoads, atsArbitraryLoadsScoped, atsInsecureException,
        atsWeakTLS, trustAllCertificates, cleartextHTTP, biometricEventGate, faceIDUsageDescriptionMissing,
        keychainWeakAccessControl, signInWithAppleWithoutStateCheck, passkeysWithoutWebCredentials,
        passwordFieldWithoutContentType, nonConstantTimeCompare, insecureRandomForSecret, secretInLog,
        invalidSuppression,
    ]

    /// The rule with `id`.
    public static func rule(_ id: String) -> Rule? { byID[id] }
    private static let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
}
