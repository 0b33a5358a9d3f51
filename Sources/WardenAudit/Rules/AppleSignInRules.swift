/// Sign in with Apple without revocation handling (no `getCredentialState(forUserID:)` or no
/// `credentialRevokedNotification` observer anywhere in the project), and passkeys requested without a
/// `webcredentials:` associated domain in any entitlements file.
struct AppleSignInRules: Rule {
    static let withoutStateCheck = RuleInfo(
        id: "siwa-without-credential-state", severity: .warning, name: "Sign in with Apple without revocation handling",
        message:
            "Sign in with Apple without getCredentialState(forUserID:) and a credentialRevokedNotification observer",
        fix: "Check the credential state at launch and observe revocation (Warden's AppleIDCredentialMonitor).",
        masvs: ["MASVS-AUTH-1"])
    static let passkeysWithoutWebCredentials = RuleInfo(
        id: "passkeys-without-webcredentials", severity: .error, name: "Passkeys without a webcredentials domain",
        message: "Passkeys are requested but no entitlements file has a webcredentials: associated domain",
        fix:
            "Add webcredentials:<rp-id> to com.apple.developer.associated-domains and serve apple-app-site-association.",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0019"])

    var reports: [RuleInfo] { [Self.withoutStateCheck, Self.passkeysWithoutWebCredentials] }
    var triggers: Triggers {
        Triggers(identifiers: [
            "ASAuthorizationAppleIDProvider", "getCredentialState", "getCredentialStateForUserID",
            "AppleIDCredentialMonitor", "credentialRevokedNotification",
            "ASAuthorizationAppleIDProviderCredentialRevokedNotification",
            "ASAuthorizationPlatformPublicKeyCredentialProvider", "PasskeyRequests",
        ])
    }

    func check(_ scan: FileScan, at index: Int) {
        switch scan.tokens[index].text {
        case "ASAuthorizationAppleIDProvider": scan.mark("signInWithApple", at: index)
        case "getCredentialState", "getCredentialStateForUserID": scan.facts.flags.insert("checksCredentialState")
        case "AppleIDCredentialMonitor":
            scan.facts.flags.insert("checksCredentialState")
            scan.facts.flags.insert("observesRevocation")
        case "credentialRevokedNotification", "ASAuthorizationAppleIDProviderCredentialRevokedNotification":
            scan.facts.flags.insert("observesRevocation")
        default: scan.mark("passkeys", at: index)
        }
    }

    func check(resource: ResourceFile, _ report: ResourceReport) {
        guard let domains = resource.propertyList?.root["com.apple.developer.associated-domains"] as? [Any] else {
            return
        }
        if domains.contains(where: { ($0 as? String)?.hasPrefix("webcredentials:") == true }) {
            report.facts.flags.insert("webCredentials")
        }
    }

    func finish(project: ProjectFacts, _ report: ProjectReport) {
        let checksState = project.any("checksCredentialState")
        let observes = project.any("observesRevocation")
        if !(checksState && observes) {
            let missing = [
                checksState ? nil : "getCredentialState(forUserID:)",
                observes ? nil : "a credentialRevokedNotification observer",
            ].compactMap { $0 }
            for (file, position) in project.firstMarks("signInWithApple") {
                report.report(
                    Self.withoutStateCheck, file: file, line: position.line, column: position.column,
                    "Sign in with Apple without " + missing.joined(separator: " or "))
            }
        }
        if !project.any("webCredentials") {
            for (file, position) in project.firstMarks("passkeys") {
                report.report(
                    Self.passkeysWithoutWebCredentials, file: file, line: position.line, column: position.column)
            }
        }
    }
}
