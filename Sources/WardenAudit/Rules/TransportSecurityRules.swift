/// App Transport Security exceptions in Info.plist: arbitrary loads (everywhere, for media, in web content),
/// cleartext exception domains and TLS below 1.2.
struct TransportSecurityRules: Rule {
    static let arbitraryLoads = RuleInfo(
        id: "ats-arbitrary-loads", severity: .error, name: "App Transport Security disabled",
        message: "NSAllowsArbitraryLoads disables App Transport Security for every connection",
        fix: "Remove NSAllowsArbitraryLoads; add narrow NSExceptionDomains only where unavoidable.",
        masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0026"])
    static let arbitraryLoadsScoped = RuleInfo(
        id: "ats-arbitrary-loads-scoped", severity: .warning, name: "App Transport Security disabled for media/web",
        message: "ATS is disabled for media or web content (NSAllowsArbitraryLoadsForMedia/InWebContent)",
        fix: "Serve media and web content over HTTPS and remove the key.", masvs: ["MASVS-NETWORK-1"],
        maswe: ["MASWE-0026"])
    static let insecureException = RuleInfo(
        id: "ats-insecure-exception", severity: .warning, name: "Cleartext exception domain",
        message: "An ATS exception domain allows cleartext HTTP",
        fix: "Enable HTTPS on the server and remove NSExceptionAllowsInsecureHTTPLoads.", masvs: ["MASVS-NETWORK-1"],
        maswe: ["MASWE-0026"])
    static let weakTLS = RuleInfo(
        id: "ats-weak-tls", severity: .error, name: "TLS below 1.2 allowed",
        message: "An ATS exception allows TLS below 1.2",
        fix: "Remove NSExceptionMinimumTLSVersion or set TLSv1.2/1.3.",
        masvs: ["MASVS-NETWORK-1"])

    var reports: [RuleInfo] { [Self.arbitraryLoads, Self.arbitraryLoadsScoped, Self.insecureException, Self.weakTLS] }

    /// Raised by an entitlements file that makes the app the user's default browser
    /// (`com.apple.developer.web-browser`): such an app must load whatever page the user opens, over http too, so its
    /// arbitrary loads are what it is for, not an exception to remove (Apple, "Preparing your app to be the default
    /// web browser").
    static let webBrowserFlag = "webBrowserEntitlement"

    func check(resource: ResourceFile, _ report: ResourceReport) {
        guard let plist = resource.propertyList else { return }
        if PropertyListFile.isTrue(plist.root["com.apple.developer.web-browser"]) {
            report.facts.flags.insert(Self.webBrowserFlag)
        }
        guard let ats = plist.root["NSAppTransportSecurity"] as? [String: Any] else { return }
        if PropertyListFile.isTrue(ats["NSAllowsArbitraryLoads"]) {
            report.report(
                Self.arbitraryLoads, line: plist.line(ofKey: "NSAllowsArbitraryLoads"), unless: Self.webBrowserFlag)
        }
        for key in ["NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent"]
        where PropertyListFile.isTrue(ats[key]) {
            report.report(
                Self.arbitraryLoadsScoped, line: plist.line(ofKey: key), "\(key) disables ATS for that content",
                unless: Self.webBrowserFlag)
        }
        guard let domains = ats["NSExceptionDomains"] as? [String: Any] else { return }
        for (domain, value) in domains.sorted(by: { $0.key < $1.key }) {
            // ksr.test, printer.local: a development or local-network host, not a production exception.
            guard let settings = value as? [String: Any], !CleartextRule.isReserved("." + domain) else { continue }
            let line = plist.line(ofKey: domain)
            if PropertyListFile.isTrue(settings["NSExceptionAllowsInsecureHTTPLoads"])
                || PropertyListFile.isTrue(settings["NSTemporaryExceptionAllowsInsecureHTTPLoads"])
            {
                report.report(Self.insecureException, line: line, "ATS exception allows cleartext HTTP to \(domain)")
            }
            for key in ["NSExceptionMinimumTLSVersion", "NSTemporaryExceptionMinimumTLSVersion"] {
                if let version = settings[key] as? String, ["TLSv1.0", "TLSv1.1"].contains(version) {
                    report.report(Self.weakTLS, line: line, "ATS exception allows \(version) for \(domain)")
                }
            }
        }
    }
}
