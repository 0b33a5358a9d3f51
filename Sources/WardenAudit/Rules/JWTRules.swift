/// JWTs read without verification: claims decoded by hand (split at `.`, base64-decoded) or by a decoder that does
/// not verify, then used for a decision; and a positive leeway for `iat`.
struct JWTRules: Rule {
    static let unverifiedDecision = RuleInfo(
        id: "jwt-unverified-decision", severity: .warning, name: "Unverified JWT used for a decision",
        message: "A JWT is decoded without signature verification and its claims decide what happens",
        fix: "Verify the signature and claims (Warden's JWTVerifier / IDTokenVerifier) or let the server decide.",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])
    static let iatPositiveLeeway = RuleInfo(
        id: "iat-positive-leeway", severity: .warning, name: "Leeway for iat in the future",
        message: "A positive leeway for iat accepts tokens issued in the future",
        fix: "Reject iat in the future; give leeway to exp/nbf only (30-60 s).",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])

    var reports: [RuleInfo] { [Self.unverifiedDecision, Self.iatPositiveLeeway] }
    var triggers: Triggers {
        Triggers(
            identifiers: Dataflow.base64Decoders.union(Dataflow.jwtDecoders),
            identifierTest: { name in
                // `leeway`, `iatLeeway`, `clockSkew`, `allowedClockSkewForIat`: a byte test, run on every name.
                let utf8 = name.utf8
                guard utf8.count >= 4 else { return false }
                return FastText.contains(name, "eeway", caseInsensitive: false)
                    || FastText.contains(name, "kew", caseInsensitive: false)
            })
    }

    /// Claims whose value decides authorization or validity.
    static let sensitiveClaims: Set<String> = [
        "exp", "sub", "role", "roles", "admin", "scope", "scopes", "iss", "aud", "groups", "permissions",
        "is_admin", "isAdmin", "tier", "plan", "premium", "entitlements",
    ]
    /// Names that show the function verifies the token it reads.
    static let verifiers: Set<String> = [
        "verify", "JWTVerifier", "IDTokenVerifier", "IDTokenValidator", "validate", "isValidSignature",
        "SecKeyVerifySignature",
        "verifySignature", "verified",
    ]

    func check(_ scan: FileScan, at index: Int) {
        let name = scan.tokens[index].text
        if !Dataflow.base64Decoders.contains(name), !Dataflow.jwtDecoders.contains(name) {
            leeway(scan, index)
            return
        }
        // `decode(jwt:)` only: JSONDecoder().decode(...) decodes claims only from a payload decoded by hand, which
        // the base64 decoder before it reports.
        if Dataflow.jwtDecoders.contains(name), scan.text(index + 2) != "jwt" { return }
        guard scan.flow.evaluate(index..<(index + 1)).claims != nil else { return }
        let scope = scan.scopeRange(of: index)
        analyze(scan, scope, after: index)
        // A helper that returns the claims it decoded (`payloadOfToken:`, `claims(of:)`): its callers decide.
        guard let name = functionName(scan, scope), scan.once("jwt-helper \(name)"),
            returnsClaims(scan, scope, after: index)
        else { return }
        scan.flow.addClaimsFunction(
            name, Origin(source: "JWT claims decoded by hand in \(name)", line: scan.tokens[index].line))
        let objectiveC = scan.file.language == .objectiveC
        for call in scan.positions(of: name, in: scan.tokens.indices)
        where !scope.contains(call) && (scan.isSymbol(call + 1, "(") || objectiveC && scan.isSymbol(call + 1, ":"))
            // not a declaration: `func name(`, `- (T)name:`
            && scan.text(call - 1) != "func" && !(objectiveC && scan.isSymbol(call - 1, ")"))
        {
            analyze(scan, scan.scopeRange(of: call), after: call)
        }
    }

    /// Reports the first decision in `scope` after `start` that unverified claims take (once per scope).
    private func analyze(_ scan: FileScan, _ scope: Range<Int>, after start: Int) {
        guard scan.once("jwt \(scope.lowerBound)"),
            !scan.any(
                in: scope,
                {
                    scan.tokens[$0].kind == .identifier && Self.verifiers.contains(scan.tokens[$0].text)
                })
        else { return }
        let after = (start + 1)..<scope.upperBound
        for decision in scan.decisions(in: after) {
            // `if (data == nil)`: whether decoding worked is not a decision on what the claims say.
            if decision.condition.contains(where: { ["nil", "NULL", "Nil"].contains(scan.tokens[$0].text) }) {
                continue
            }
            if let origin = scan.flow.evaluate(decision.condition).claims {
                scan.report(
                    Self.unverifiedDecision, at: decision.at,
                    scan.message(origin, at: decision.at, "decide this without the signature being verified"))
                return
            }
        }
        // No decision in this function, but a claim that matters is read from the decoded payload.
        for position in after
        where scan.tokens[position].kind == .string
            && Self.sensitiveClaims.contains(scan.tokens[position].text) && scan.isSymbol(position - 1, "[")
        {
            // json["role"], json?["role"], json!["role"]
            var owner = position - 2
            while owner > 0, scan.isSymbol(owner, "?") || scan.isSymbol(owner, "!") { owner -= 1 }
            if owner >= 0, let origin = scan.flow.evaluate(owner..<(owner + 1)).claims {
                scan.report(
                    Self.unverifiedDecision, at: position,
                    scan.message(
                        origin, at: position,
                        "give '\(scan.tokens[position].text)' without the signature being verified"))
                return
            }
        }
    }

    /// Whether a `return` in `scope` after `start` returns the claims.
    private func returnsClaims(_ scan: FileScan, _ scope: Range<Int>, after start: Int) -> Bool {
        for position in (start + 1)..<scope.upperBound
        where scan.tokens[position].kind == .keyword && scan.tokens[position].text == "return" {
            let value = scan.flow.valueRange(from: position + 1, stopAtBrace: false)
            // `return claims.admin ? .admin : .user` returns a decision, not the claims.
            let decides = value.contains { position in
                let token = scan.tokens[position]
                return token.kind == .operator && ["==", "!=", "<", ">", "<=", ">=", "&&", "||"].contains(token.text)
                    || token.isSymbol("?") && scan.text(position - 1) != "try"
            }
            if !decides, scan.flow.evaluate(value).claims != nil { return true }
        }
        return false
    }

    /// The name of the function whose body opens `scope`: `func NAME(` or `- (Type)NAME:`.
    private func functionName(_ scan: FileScan, _ scope: Range<Int>) -> String? {
        var position = scope.lowerBound - 1
        var steps = 0
        while position >= 0, steps < 128 {
            let token = scan.tokens[position]
            if token.kind == .punctuation, token.text == ")" || token.text == "]", scan.file.partner[position] >= 0,
                scan.file.partner[position] < position
            {
                let open = Int(scan.file.partner[position])
                // - (NSDictionary *)payloadOfToken:(NSString *)token
                if scan.file.language == .objectiveC, open > 0,
                    scan.isSymbol(open - 1, "-") || scan.isSymbol(open - 1, "+"),
                    open - 1 == 0 || scan.tokens[open - 2].line != scan.tokens[open - 1].line
                {
                    let name = position + 1
                    return name < scope.lowerBound && scan.tokens[name].kind == .identifier
                        ? scan.tokens[name].text : nil
                }
                position = open - 1
            } else if token.kind == .keyword, token.text == "func" {
                return scan.text(position + 1)
            } else if token.isSymbol("{") || token.isSymbol("}") || token.isSymbol(";") {
                return nil
            } else {
                position -= 1
            }
            steps += 1
        }
        return nil
    }

    /// `iatLeeway = 60`, `.issuedAt(leeway: 60)`, `allowedClockSkewForIat: 30`.
    func leeway(_ scan: FileScan, _ index: Int) {
        let name = scan.tokens[index].text
        let words = SecretNames.words(name)
        var issuedAt = words.contains("iat") || (words.contains("issued") && words.contains("at"))
        if !issuedAt, scan.isSymbol(index + 1, ":"), let open = scan.enclosingOpener(of: index, "(", limit: 64),
            ["issuedAt", "iat"].contains(scan.text(open - 1))
        {
            issuedAt = true
        }
        guard issuedAt, scan.isSymbol(index + 1, ":") || scan.isSymbol(index + 1, "=") else { return }
        guard index + 2 < scan.tokens.count else { return }
        let value = scan.tokens[index + 2]
        if value.kind == .number, let number = Double(value.text.replacingOccurrences(of: "_", with: "")), number > 0 {
            scan.report(Self.iatPositiveLeeway, at: index)
        }
    }
}
