/// Variable-time comparison of values an attacker can probe byte by byte: passwords, PINs and one-time codes,
/// hashes, MACs, signatures and digests, and OAuth `state` (`==`/`!=` in Swift, `isEqualToString:`/
/// `isEqualToData:`/`isEqual:` in Objective-C). Change detection (`layoutSignature == cachedLayoutSignature`),
/// confirmation fields (`password == confirmPassword`) and literals are not such comparisons.
struct ComparisonRule: Rule {
    static let nonConstantTime = RuleInfo(
        id: "non-constant-time-compare", severity: .warning, name: "== on a password, state, MAC or signature",
        message: "== compares a secret, state, MAC or signature in variable time",
        fix: "Compare with a constant-time function (Warden's ConstantTime.equals).", masvs: ["MASVS-CRYPTO-1"])

    var reports: [RuleInfo] { [Self.nonConstantTime] }
    var triggers: Triggers {
        Triggers(identifiers: ["isEqualToString", "isEqualToData", "isEqual"], operators: ["==", "!="])
    }

    static let macWords: Set<String> = ["mac", "hmac", "signature", "sig", "digest", "csrf"]
    static let passwordWords: Set<String> = ["password", "passwd", "pwd", "passcode", "pin", "otp", "totp", "cvv"]
    static let stateQualifiers: Set<String> = [
        "expected", "returned", "received", "stored", "saved", "sent", "pending", "oauth", "auth", "callback",
        "original", "csrf", "response", "query", "request",
    ]
    /// Words of values compared to see whether something changed, or to check what the user typed twice.
    static let benign: Set<String> = [
        "layout", "cached", "cache", "previous", "prev", "last", "old", "prior", "view", "content", "render",
        "snapshot", "etag", "version", "checksum", "confirm", "confirmation", "repeat", "repeated", "retype",
        "again", "second", "new", "current", "draft", "style", "theme", "config", "configuration", "schema", "type",
        "method", "algorithm", "length", "count", "format", "enabled", "required", "policy", "hint", "existing",
        "updated", "latest", "initial", "mail", "email", "default", "html",
    ]

    func check(_ scan: FileScan, at index: Int) {
        let left: String?
        let right: String?
        if scan.tokens[index].kind == .operator {
            left = operand(scan, index - 1, backwards: true)
            right = operand(scan, index + 1, backwards: false)
        } else {
            // [received isEqualToString:expected]
            guard scan.file.language == .objectiveC, scan.isSymbol(index + 1, ":"),
                let message = scan.message(at: index),
                message.parts.count == 1, let argument = message.argument(scan.tokens[index].text)
            else { return }
            left = lastName(scan, message.receiver)
            right = lastName(scan, argument)
        }
        // `lhs.signature == rhs.signature`: structural equality of two values, not a check of one against another.
        guard let left, let right, left != right, let kind = kind(left, right) else { return }
        scan.report(Self.nonConstantTime, at: index, "\(kind) '\(left)' and '\(right)' are compared in variable time")
    }

    /// What makes the comparison sensitive, if anything.
    func kind(_ left: String, _ right: String) -> String? {
        let leftWords = SecretNames.words(left)
        let rightWords = SecretNames.words(right)
        let all = leftWords + rightWords
        if all.contains(where: Self.benign.contains) { return nil }
        if [leftWords, rightWords].contains(where: { $0.last.map(Self.macWords.contains) == true }) {
            return "The MAC or signature"
        }
        if [leftWords, rightWords].contains(where: { words in
            words.last == "hash" && words.contains(where: Self.passwordWords.contains)
        }) {
            return "The hash"
        }
        if [leftWords, rightWords].allSatisfy({ $0.last == "state" }),
            all.contains(where: Self.stateQualifiers.contains)
        {
            return "The OAuth state"
        }
        if [leftWords, rightWords].contains(where: { words in
            words.last.map(Self.passwordWords.contains) == true
        }), SecretNames.isSecret(left) || SecretNames.isSecret(right) {
            return "The secret"
        }
        return nil
    }

    /// The name an operand ends in (`a.b.c` → `c`, `f(x)` → `f`), or nil for literals and implicit members.
    private func operand(_ scan: FileScan, _ position: Int, backwards: Bool) -> String? {
        guard position >= 0, position < scan.tokens.count else { return nil }
        let token = scan.tokens[position]
        switch token.kind {
        case .identifier:
            if backwards { return token.text }
            var cursor = position
            while scan.isSymbol(cursor + 1, "."), cursor + 2 < scan.tokens.count,
                scan.tokens[cursor + 2].kind == .identifier
            {
                cursor += 2
            }
            scan.spend(cursor - position)
            if token.text.first?.isUppercase == true, cursor > position { return nil }  // State.idle
            // A call on the right: `hmac(message)` is still the MAC.
            return scan.tokens[cursor].text
        case .keyword where token.text == "self":
            // self.a.b: the chain after `self` (walked, not recursed: `self.self.self...` stays flat).
            guard !backwards else { return nil }
            var cursor = position
            while scan.text(cursor) == "self", scan.isSymbol(cursor + 1, ".") { cursor += 2 }
            scan.spend(cursor - position)
            guard cursor < scan.tokens.count, scan.tokens[cursor].kind == .identifier else { return nil }
            return operand(scan, cursor, backwards: false)
        case .punctuation where token.text == ")" || token.text == "]":
            guard backwards else { return nil }
            let open = Int(scan.file.partner[position])
            return open > 0 ? scan.text(open - 1) : nil
        default:
            return nil
        }
    }

    private func lastName(_ scan: FileScan, _ range: Range<Int>) -> String? {
        guard !range.isEmpty, !scan.isLiteral(range) else { return nil }
        if range.contains(where: { scan.tokens[$0].kind == .string }) { return nil }
        return range.reversed().first { scan.tokens[$0].kind == .identifier }.map { scan.tokens[$0].text }
    }
}
