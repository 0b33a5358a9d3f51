/// Weak randomness that reaches a value that must be unguessable: a state, nonce, PKCE verifier, salt, IV, key,
/// OTP or token built from `arc4random*`, `rand`/`random`, `Int.random`, GameplayKit sources, seeded generators or
/// truncated UUIDs, through any variables of the function; a whole UUID only where the value is a security
/// capability (a state, nonce, PKCE verifier, CSRF token, password, PIN or one-time code: RFC 9562 §8). The sink is a
/// name (`let nonce = ...`), an argument label (`state: x`), a dictionary key (`"nonce": x`), a `URLQueryItem` or a
/// query string.
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
    /// The query parameters whose value must be unguessable, not only unique.
    static let capabilityQueryNames = ["state=", "nonce=", "code_verifier=", "code_challenge=", "otp="]

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
                "'\(scan.tokens[target].text)'", unguessable: SecretNames.needsUnguessable(scan.tokens[target].text))
        case .string:
            string(scan, index, token)
        default:
            if token.text == "URLQueryItem" || token.text == "NSURLQueryItem" {
                guard let item = scan.queryItem(at: index), scan.needsSecureRandom(item.name), let value = item.value
                else { return }
                sink(scan, at: index, value, "the '\(item.name)' parameter", unguessable: Self.unguessable(item.name))
            } else if scan.isSymbol(index + 1, ":"), scan.enclosingOpener(of: index, "(", limit: 64) != nil {
                // An argument label: AuthRequest(state: s), Sign(nonce: n).
                sink(
                    scan, at: index, scan.expression(from: index + 2), "'\(token.text)'",
                    unguessable: Self.unguessable(token.text))
            }
        }
    }

    /// Parameters and labels that are security capabilities (a UUID must not be one).
    static func unguessable(_ name: String) -> Bool {
        ["code_verifier", "code_challenge"].contains(name) || SecretNames.needsUnguessable(name)
    }

    private func string(_ scan: FileScan, _ index: Int, _ token: Token) {
        if scan.isSymbol(index + 1, ":"), scan.needsSecureRandom(token.text) {
            // ["state": s], @{@"nonce": n}
            sink(
                scan, at: index, scan.expression(from: index + 2), "'\(token.text)'",
                unguessable: Self.unguessable(token.text))
            return
        }
        // "...&state=\(s)": the interpolations of a query string that names such a parameter.
        guard token.isInterpolated, token.text.utf8.contains(UInt8(ascii: "=")),
            Self.queryNames.contains(where: { FastText.contains(token.text, $0, caseInsensitive: true) })
        else { return }
        // The text before each interpolation (U+FFFC marks them): `...&state=` makes its value a capability.
        let before = token.text.unicodeScalars.split(separator: "\u{FFFC}", omittingEmptySubsequences: false)
        var position = index + 1
        var interpolation = 0
        while position < scan.tokens.count, scan.tokens[position].kind == .interpolationStart,
            scan.file.partner[position] > position
        {
            let end = Int(scan.file.partner[position])
            let prefix =
                interpolation < before.count ? String(String.UnicodeScalarView(before[interpolation])).lowercased() : ""
            // The parameter right before the value, whole: `&state=`, `?nonce=`, not `appstate=`.
            let capability = Self.capabilityQueryNames.contains { name in
                prefix == name || prefix.hasSuffix("&" + name) || prefix.hasSuffix("?" + name)
            }
            sink(scan, at: index, (position + 1)..<end, "a query parameter", unguessable: capability)
            position = end + 1
            interpolation += 1
        }
    }

    /// Reports weak randomness reaching the sink; a whole UUID too when the sink must be `unguessable`.
    private func sink(_ scan: FileScan, at index: Int, _ value: Range<Int>, _ what: String, unguessable: Bool) {
        let taint = value.isEmpty ? Taint() : scan.flow.evaluate(value)
        guard let origin = taint.random ?? (unguessable ? taint.uuid : nil),
            // Carried by a variable whose own name says it is a handler's or a page's token: a generic `token:`
            // label does not make it a secret.
            !(origin.path.last.map { SecretNames.isPublicToken($0.name) } ?? false),
            scan.once("random \(origin.line) \(origin.source) \(scan.scopes[index])")
        else { return }
        scan.report(
            Self.insecureRandom, at: index,
            scan.message(origin, at: index, "gives \(what) predictable or too little randomness"))
    }
}
