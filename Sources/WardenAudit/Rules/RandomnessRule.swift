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

    /// `var widgetAuthenticityToken: String { ... let string = UUID().uuidString ... return string }`: what the getter
    /// of a property so named returns is its value.
    func finish(_ scan: FileScan) {
        // One name-table lookup per spelling, not a pass over the tokens.
        let sources = ["UUID", "NSUUID", "arc4random", "arc4random_uniform", "random", "rand"]
        guard sources.contains(where: { scan.file.names.name(of: $0) != nil }) else { return }
        let tokens = scan.tokens
        for index in tokens.indices where tokens[index].kind == .keyword && tokens[index].text == "return" {
            guard let name = Self.getterName(scan, index), scan.needsSecureRandom(name) else { continue }
            sink(
                scan, at: index, scan.flow.valueRange(from: index + 1, stopAtBrace: false), "'\(name)'",
                unguessable: SecretNames.needsUnguessable(name))
        }
    }

    /// The property whose getter the `return` at `index` is in: `var NAME: Type {` (or its `get {`), the innermost
    /// declaration around it; nil inside a function or a closure.
    static func getterName(_ scan: FileScan, _ index: Int) -> String? {
        var open = Int(scan.file.enclosingBrace[index])
        if scan.file.language == .objectiveC {
            // - (NSString *)authenticityToken {: a method without parameters, the outermost brace.
            while open >= 0, scan.file.enclosingBrace[open] >= 0 { open = Int(scan.file.enclosingBrace[open]) }
            guard open >= 5, scan.tokens[open - 1].kind == .identifier, scan.isSymbol(open - 2, ")") else {
                return nil
            }
            let head = Int(scan.file.partner[open - 2])
            guard head >= 1, scan.isSymbol(head - 1, "-") || scan.isSymbol(head - 1, "+") else { return nil }
            return scan.text(open - 1)
        }
        var steps = 0
        while open > 0, steps < 8 {
            if scan.text(open - 1) == "get" { open = Int(scan.file.enclosingBrace[open]) }
            guard open > 0 else { return nil }
            // var NAME: Type { / var NAME: Type? {
            var position = open - 1
            while position > 0, open - position < 12, scan.tokens[position].line == scan.tokens[open].line {
                if scan.text(position) == "var" { return scan.text(position + 1) }
                if scan.isSymbol(position, ")") || scan.text(position) == "in" || scan.text(position) == "func" {
                    return nil
                }
                position -= 1
            }
            // if/else/guard blocks inside the getter: look further out.
            open = Int(scan.file.enclosingBrace[open])
            steps += 1
        }
        return nil
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
