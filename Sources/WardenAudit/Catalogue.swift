/// Every rule Warden's auditor knows, with its MASVS control and MASWE weakness. The entries live with the family
/// that reports them (`Rules/`); this is their public, ordered list.
public enum Catalogue {
    /// A `warden:ignore` comment without a known rule id or a reason.
    public static let invalidSuppression = RuleInfo(
        id: "invalid-suppression", severity: .warning, name: "Suppression without a rule or reason",
        message: "warden:ignore needs a known rule id and a reason",
        fix: "Write '// warden:ignore RULE-ID why this is safe'.", masvs: [])

    /// All rules, in report order (family by family, as ``RuleSet/all`` lists them).
    public static let all: [RuleInfo] = RuleSet.all.flatMap(\.reports) + [invalidSuppression]

    /// The rule with `id`.
    public static func rule(_ id: String) -> RuleInfo? { byID[id] }

    /// The MITRE CWE weaknesses each rule finds (``RuleInfo/cwe``), so code-scanning dashboards group Warden's findings
    /// as they group other tools'. A rule about a misconfiguration that is no weakness of its own (a missing usage
    /// text, a malformed suppression) has none.
    static let cweByRule: [String: [Int]] = [
        "cleartext-http": [319], "ats-arbitrary-loads": [319], "ats-arbitrary-loads-scoped": [319],
        "ats-insecure-exception": [319], "ats-weak-tls": [326], "trust-all-certificates": [295],
        "secret-in-file": [312, 922], "secret-in-log": [532], "secret-in-user-defaults": [312, 922],
        "secret-in-swiftui-storage": [312, 922], "secret-in-icloud-kvs": [312], "file-without-protection": [311],
        "hardcoded-secret": [798], "non-constant-time-compare": [208], "insecure-random-for-secret": [338],
        "keychain-accessible-always": [922], "keychain-not-this-device-only": [922],
        "keychain-accessibility-missing": [922], "keychain-weak-access-control": [284],
        "biometric-event-gate": [287, 603], "token-in-url": [598], "jwt-unverified-decision": [347],
        "iat-positive-leeway": [613], "oauth-without-pkce": [345], "oauth-pkce-plain": [345],
        "oauth-without-state": [352], "oauth-implicit-flow": [522], "oauth-password-grant": [522],
        "oauth-in-webview": [522], "uiwebview": [477], "siwa-without-credential-state": [613],
    ]
    private static let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
}
