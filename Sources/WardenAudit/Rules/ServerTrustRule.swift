/// Server trust accepted without evaluation: a challenge handler that answers `.useCredential` with the server's
/// own trust and never evaluates it (Swift and Objective-C), Alamofire's disabled evaluators, and AFNetworking's
/// `allowInvalidCertificates`/`validatesDomainName` switches.
struct ServerTrustRule: Rule {
    static let trustAll = RuleInfo(
        id: "trust-all-certificates", severity: .error, name: "Server trust accepted without evaluation",
        message: "The challenge handler accepts the server's certificate without evaluating it: anyone can intercept",
        fix: "Call SecTrustEvaluateWithError first (then pin with Warden's PinSet), or use .performDefaultHandling.",
        masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0027"])

    var reports: [RuleInfo] { [Self.trustAll] }
    var triggers: Triggers {
        Triggers(identifiers: [
            "useCredential", "NSURLSessionAuthChallengeUseCredential", "DisabledTrustEvaluator", "DisabledEvaluator",
            "disableEvaluation", "allowInvalidCertificates", "validatesDomainName", "setAllowInvalidCertificates",
            "setValidatesDomainName",
        ])
    }

    static let evaluations: Set<String> = [
        "SecTrustEvaluateWithError", "SecTrustEvaluate", "SecTrustEvaluateAsyncWithError", "PinningDelegate",
        "evaluate", "PinSet", "evaluateServerTrust", "SecTrustEvaluateAsync",
    ]

    func check(_ scan: FileScan, at index: Int) {
        let name = scan.tokens[index].text
        switch name {
        case "DisabledTrustEvaluator", "DisabledEvaluator", "disableEvaluation":
            scan.report(Self.trustAll, at: index, "\(name) accepts any certificate: anyone can intercept")
        case "allowInvalidCertificates", "validatesDomainName":
            let disabled = name == "allowInvalidCertificates" ? ["true", "YES"] : ["false", "NO"]
            if scan.isSymbol(index + 1, "="), disabled.contains(scan.text(index + 2)) {
                scan.report(Self.trustAll, at: index, "\(name) = \(scan.text(index + 2)) accepts invalid certificates")
            }
        case "setAllowInvalidCertificates", "setValidatesDomainName":
            let disabled = name == "setAllowInvalidCertificates" ? ["YES", "true"] : ["NO", "false"]
            if scan.isSymbol(index + 1, ":"), disabled.contains(scan.text(index + 2)) {
                scan.report(Self.trustAll, at: index, "\(name):\(scan.text(index + 2)) accepts invalid certificates")
            }
        default:
            useCredential(scan, index)
        }
    }

    /// `completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!))` or
    /// `completionHandler(NSURLSessionAuthChallengeUseCredential, [NSURLCredential credentialForTrust:trust])`
    /// in a function that never evaluates the trust.
    func useCredential(_ scan: FileScan, _ index: Int) {
        let body = scan.scopeRange(of: index)
        guard scan.once("trust \(body.lowerBound)") else { return }
        let createsTrustCredential = scan.any(in: body) { position in
            guard scan.tokens[position].kind == .identifier else { return false }
            let text = scan.tokens[position].text
            return (text == "URLCredential" && scan.text(position + 2) == "trust") || text == "credentialForTrust"
        }
        guard createsTrustCredential else { return }
        let evaluates = scan.any(in: body) { position in
            scan.tokens[position].kind == .identifier && Self.evaluations.contains(scan.tokens[position].text)
        }
        if !evaluates { scan.report(Self.trustAll, at: index) }
    }
}
