/// Weak randomness that reaches a value that must be unguessable: a state, nonce, PKCE verifier, salt, IV, key,
/// OTP or token built from `arc4random*`, `rand`/`random`, `Int.random`, GameplayKit sources, seeded generators or
/// truncated UUIDs, through any variables of the function. The sink is a name (`let nonce = ...`), an argument
/// label (`state: x`), a dictionary key (`"nonce": x`), a `URLQueryItem` or a query string.
struct RandomnessRule: Rule {
    static let insecureRandom = RuleInfo(
        id: "insecure-random-for-secret", severity: .error, name: "Weak randomness for a secret",
        message:
            "A state, nonce, verifier, salt, IV or key comes from non-cryptographic, seeded or too little randomness",
        fix: "Use SecRandomCopyBytes with 32 bytes (Warden's SecureRandom).", masvs: ["MASVS-CRYPTO-1"],
        maswe: ["MASWE-0027"])

    var reports: [RuleInfo] { [Self.insecureRandom] }

    /// Argument labels that take an unguessable value.
    static let labels: Set<String> = [
        "state", "nonce", "codeVerifier", "verifier", "code_verifier", "salt", "iv", "otp", "seed", "challenge",
        "secret", "key", "token", "csrfToken", "sessionID", "sessionId", "initializationVector",
    ]
    static let queryNames = ["state=", "nonce=", "code_verifier=", "code_challenge=", "otp=", "token=", "salt="]

    var triggers: Triggers {
        Triggers(
            identifiers: Self.labels.union(["URLQueryItem", "NSURLQueryItem"]), operators: ["="], strings: true)
    }

    func check(_ scan: FileScan, at index: Int) {
        let token = scan.tokens[index]
        switch token.kind {
        case .operator:
            guard let target = scan.assignmentTarget(of: index), scan.needsSecureRandom(scan.tokens[target].text)
            else { return }
            sink(
                scan, at: target, scan.flow.valueRange(from: index + 1, stopAtBrace: false),
                "'\(scan.tokens[target].text)'")
        case .string:
            string(scan, index, token)
        default:
            if token.text == "URLQueryItem" || token.text == "NSURLQueryItem" {
                guard let item = scan.queryItem(at: index), scan.needsSecureRandom(item.name), let value = item.value
                else { return }
                sink(scan, at: index, value, "the '\(item.name)' parameter")
            } else if scan.isSymbol(index + 1, ":"), scan.enclosingOpener(of: index, "(", limit: 64) != nil {
                // An argument label: AuthRequest(state: s), Sign(nonce: n).
                sink(scan, at: index, scan.expression(from: index + 2), "'\(token.text)'")
            }
        }
    }

    private func string(_ scan: FileScan, _ index: Int, _ token: Token) {
        if scan.isSymbol(index + 1, ":"), scan.needsSecureRandom(token.text) {
            // ["state": s], @{@"nonce": n}
            sink(scan, at: index, scan.expression(from: index + 2), "'\(token.text)'")
            return
        }
        // "...&state=\(s)": the interpolations of a query string that names such a parameter.
        guard token.isInterpolated, token.text.utf8.contains(UInt8(ascii: "=")),
            Self.queryNames.contains(where: { FastText.contains(token.text, $0, caseInsensitive: true) })
        else { return }
        var position = index + 1
        while position < scan.tokens.count, scan.tokens[position].kind == .interpolationStart,
            scan.file.partner[position] > position
        {
            let end = Int(scan.file.partner[position])
            sink(scan, at: index, (position + 1)..<end, "a query parameter")
            position = end + 1
        }
    }

    private func sink(_ scan: FileScan, at index: Int, _ value: Range<Int>, _ what: String) {
        guard !value.isEmpty, let origin = scan.flow.evaluate(value).random,
            scan.once("random \(origin.line) \(origin.source) \(scan.scopes[index])")
        else { return }
        scan.report(
            Self.insecureRandom, at: index,
            scan.message(origin, at: index, "gives \(what) predictable or too little randomness"))
    }
}
