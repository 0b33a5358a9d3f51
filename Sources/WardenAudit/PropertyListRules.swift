/// Rules over Info.plist and `.entitlements` files.
enum PropertyListRules {
    struct Facts {
        var hasFaceIDUsageDescription = false
        var hasWebCredentialsDomain = false
    }

    static func run(_ plist: PropertyListFile, report: (Rule, Int, String?) -> Void) -> Facts {
        var facts = Facts()
        let root = plist.root
        if let description = root["NSFaceIDUsageDescription"] as? String, !description.isEmpty {
            facts.hasFaceIDUsageDescription = true
        }
        if let domains = root["com.apple.developer.associated-domains"] as? [Any] {
            facts.hasWebCredentialsDomain = domains.contains { ($0 as? String)?.hasPrefix("webcredentials:") == true }
        }
        guard let ats = root["NSAppTransportSecurity"] as? [String: Any] else { return facts }
        if PropertyListFile.isTrue(ats["NSAllowsArbitraryLoads"]) {
            report(Catalogue.atsArbitraryLoads, plist.line(ofKey: "NSAllowsArbitraryLoads"), nil)
        }
        for key in ["NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent"]
        where PropertyListFile.isTrue(ats[key]) {
            report(Catalogue.atsArbitraryLoadsScoped, plist.line(ofKey: key), "\(key) disables ATS for that content")
        }
        if let domains = ats["NSExceptionDomains"] as? [String: Any] {
            for (domain, value) in domains.sorted(by: { $0.key < $1.key }) {
                guard let settings = value as? [String: Any] else { continue }
                let line = plist.line(ofKey: domain)
                if PropertyListFile.isTrue(settings["NSExceptionAllowsInsecureHTTPLoads"])
                    || PropertyListFile.isTrue(settings["NSTemporaryExceptionAllowsInsecureHTTPLoads"])
                {
                    report(Catalogue.atsInsecureException, line, "ATS exception allows cleartext HTTP to \(domain)")
                }
                for key in ["NSExceptionMinimumTLSVersion", "NSTemporaryExceptionMinimumTLSVersion"] {
                    if let version = settings[key] as? String, ["TLSv1.0", "TLSv1.1"].contains(version) {
                        report(Catalogue.atsWeakTLS, line, "ATS exception allows \(version) for \(domain)")
                    }
                }
            }
        }
        return facts
    }
}
