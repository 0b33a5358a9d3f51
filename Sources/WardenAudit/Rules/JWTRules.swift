/// JWTs read without verification: claims decoded by hand (split at `.`, base64-decoded) or by a decoder that does
/// not verify, then used for a decision; and a positive leeway for `iat`.
struct JWTRules: Rule {
    static let unverifiedDecision = RuleInfo(
        id: "jwt-unverified-decision", severity: .warning, name: "Unverified JWT used for a decision",
        message: "A JWT is decoded without signature verification and its claims decide what happens",
        fix: "Verify the signature and claims (Warden's JWTVerifier / IDTokenValidator) or let the server decide.",
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
        "verify", "JWTVerifier", "IDTokenValidator", "validate", "isValidSignature", "SecKeyVerifySignature",
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
        guard let claims = scan.flow.evaluate(index..<(index + 1)).claims else { return }
        let scope = scan.scopeRange(of: index)
        guard scan.once("jwt \(scope.lowerBound)"),
            !scope.contains(where: {
                scan.tokens[$0].kind == .identifier && Self.verifiers.contains(scan.tokens[$0].text)
            })
        else { return }
        let after = (index + 1)..<scope.upperBound
        for decision in scan.decisions(in: after) {
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
            if owner >= 0, scan.flow.evaluate(owner..<(owner + 1)).claims != nil {
                scan.report(
                    Self.unverifiedDecision, at: position,
                    scan.message(
                        claims, at: position,
                        "give '\(scan.tokens[position].text)' without the signature being verified"))
                return
            }
        }
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
