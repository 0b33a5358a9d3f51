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

    static let checkVerbs: Set<String> = ["check", "checks", "validate", "verify", "evaluate", "is", "has"]
    static let trustNouns: Set<String> = [
        "trust", "trusted", "certificate", "certificates", "cert", "certs", "pin", "pinned", "pinning", "pins",
    ]

    /// The app's own evaluation helper, called on the challenge before answering it: `checkTrustedChallenge(_:)`,
    /// `isTrustedServerCertificate:`, `validateCertificatePin(...)` (a check verb and a trust noun in one name).
    static func isTrustCheck(_ name: String) -> Bool {
        let words = SecretNames.words(name)
        return words.contains(where: checkVerbs.contains) && words.contains(where: trustNouns.contains)
    }

    func check(_ scan: FileScan, at index: Int) {
        let name = scan.tokens[index].text
        switch name {
        case "DisabledTrustEvaluator", "DisabledEvaluator", "disableEvaluation":
            scan.report(Self.trustAll, at: index, "\(name) accepts any certificate: anyone can intercept")
        case "allowInvalidCertificates", "validatesDomainName":
            let disabled = name == "allowInvalidCertificates" ? ["true", "YES"] : ["false", "NO"]
            if scan.isSymbol(index + 1, "="), disabled.contains(scan.text(index + 2)), !pinsItsKeys(scan, index) {
                scan.report(Self.trustAll, at: index, "\(name) = \(scan.text(index + 2)) accepts invalid certificates")
            }
        case "setAllowInvalidCertificates", "setValidatesDomainName":
            let disabled = name == "setAllowInvalidCertificates" ? ["YES", "true"] : ["NO", "false"]
            if scan.isSymbol(index + 1, ":"), disabled.contains(scan.text(index + 2)), !pinsItsKeys(scan, index) {
                scan.report(Self.trustAll, at: index, "\(name):\(scan.text(index + 2)) accepts invalid certificates")
            }
        default:
            useCredential(scan, index)
        }
    }

    /// Whether the switch at `index` is on an AFNetworking policy that pins: made in the same scope with a public-key
    /// or certificate pinning mode and given pinned certificates. AFNetworking then accepts a certificate that fails
    /// the system's evaluation (a self-signed server) only when its chain holds a pinned key: trust on first use of a
    /// pinned certificate, not trust in anything.
    func pinsItsKeys(_ scan: FileScan, _ index: Int) -> Bool {
        // The policy the switch is on: `policy.allowInvalidCertificates = YES` or `[policy setAllow...:YES]`.
        guard index > 0 else { return false }
        let policy =
            scan.isSymbol(index - 1, ".")
            ? scan.file.receiver(of: index).last
            : scan.tokens[index - 1].kind == .identifier ? scan.text(index - 1) : nil
        guard let policy else { return false }
        /// The variable a statement around `position` assigns (`AFSecurityPolicy *policy = [...]`, `let policy = ...`).
        func assigned(before position: Int) -> String? {
            var back = position - 1
            while back > 0, back > position - 24, !scan.isSymbol(back, ";"), !scan.isSymbol(back, "{") {
                if scan.isSymbol(back, "="), scan.tokens[back - 1].kind == .identifier { return scan.text(back - 1) }
                back -= 1
            }
            return nil
        }
        let body = scan.scopeRange(of: index)
        var pinningMode = false
        var pinned = false
        _ = scan.any(in: body) { position in
            let text = scan.tokens[position].text
            switch text {
            case "AFSSLPinningModePublicKey", "AFSSLPinningModeCertificate":
                if assigned(before: position) == policy { pinningMode = true }
            case "publicKey", "certificate":
                // Swift: AFSecurityPolicy(pinningMode: .publicKey)
                if scan.isSymbol(position - 1, "."), scan.text(position - 2) == ":",
                    scan.text(position - 3) == "pinningMode", assigned(before: position) == policy
                {
                    pinningMode = true
                }
            case "setPinnedCertificates":
                if scan.text(position - 1) == policy { pinned = true }
            case "pinnedCertificates":
                if scan.file.receiver(of: position).last == policy { pinned = true }
            default: break
            }
            return pinningMode && pinned
        }
        return pinningMode && pinned
    }

    /// `completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!))` or
    /// `completionHandler(NSURLSessionAuthChallengeUseCredential, [NSURLCredential credentialForTrust:trust])`
    /// in a function that does not evaluate the trust before it answers (an evaluation after an early
    /// `return .useCredential` behind a setting does not count).
    func useCredential(_ scan: FileScan, _ index: Int) {
        let body = scan.scopeRange(of: index)
        guard scan.once("trust \(body.lowerBound)") else { return }
        let createsTrustCredential = scan.any(in: body) { position in
            guard scan.tokens[position].kind == .identifier else { return false }
            let text = scan.tokens[position].text
            return (text == "URLCredential" && scan.text(position + 2) == "trust") || text == "credentialForTrust"
        }
        guard createsTrustCredential else { return }
        // The first answer that no evaluation precedes.
        for position in body where scan.tokens[position].kind == .identifier {
            let text = scan.tokens[position].text
            if Self.evaluations.contains(text)
                || (scan.isSymbol(position + 1, "(") || scan.isSymbol(position + 1, ":")) && Self.isTrustCheck(text)
            {
                // `if (host == base.host || TrustIsValid(trust))`: the evaluation is skipped whenever the other side
                // holds, and the answer below it accepts the trust unevaluated.
                if Self.isBypassedAlternative(scan, position) { continue }
                scan.spend(position - body.lowerBound + 1)
                return
            }
            if text == "useCredential" || text == "NSURLSessionAuthChallengeUseCredential" {
                // The answer to a password challenge (`completionHandler(.useCredential, request.credential)`)
                // hands over the user's credential, not the server's trust: the next answer is judged.
                if answersWithUserCredential(scan, position) { continue }
                scan.spend(position - body.lowerBound + 1)
                scan.report(Self.trustAll, at: position)
                return
            }
        }
        scan.spend(body.count)
    }

    /// Whether the evaluation at `position` is the second alternative of an `if` condition
    /// (`if a || evaluate(trust)`), not negated: the branch runs without it whenever `a` holds. A negated one
    /// (`if (!trust || !SecTrustEvaluateWithError(trust, nil)) { cancel }`) rejects, and counts.
    static func isBypassedAlternative(_ scan: FileScan, _ position: Int) -> Bool {
        var start = position - 1
        if scan.tokens[position - 1].kind == .punctuation, scan.text(position - 1) == "[" { start -= 1 }
        if scan.text(start) == "!" { return false }
        var cursor = start
        while cursor >= 0, position - cursor < 64, scan.tokens[cursor].line == scan.tokens[position].line {
            let text = scan.text(cursor)
            if scan.tokens[cursor].kind == .keyword, ["if", "guard", "while"].contains(text) { return false }
            if text == "||" {
                // The condition starts at an `if` on this line.
                var head = cursor - 1
                while head >= 0, cursor - head < 64, scan.tokens[head].line == scan.tokens[position].line {
                    if scan.tokens[head].kind == .keyword, scan.text(head) == "if" { return true }
                    head -= 1
                }
                return false
            }
            cursor -= 1
        }
        return false
    }

    /// Whether the answer at `index` passes a user credential: its other argument is a member chain ending in
    /// `credential` (`webdavRequest.credential`) or `URLCredential(user:password:persistence:)`, with no trust in it.
    func answersWithUserCredential(_ scan: FileScan, _ index: Int) -> Bool {
        guard let open = scan.enclosingOpener(of: index, "(", limit: 8), scan.file.partner[open] > open
        else { return false }
        let arguments = (index + 1)..<Int(scan.file.partner[open])
        let words = arguments.filter { scan.tokens[$0].kind == .identifier }.map { scan.tokens[$0].text }
        guard !words.contains(where: { FastText.contains($0, "trust", caseInsensitive: true) }) else { return false }
        if let user = words.firstIndex(of: "URLCredential"), words.dropFirst(user + 1).first == "user" { return true }
        guard let last = arguments.last(where: { scan.tokens[$0].kind == .identifier }),
            scan.tokens[last].text.lowercased().hasSuffix("credential"), scan.isSymbol(last - 1, ".")
        else { return false }
        return true
    }
}
