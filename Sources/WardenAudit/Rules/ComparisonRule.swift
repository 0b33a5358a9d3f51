/// Variable-time comparison of values an attacker can probe byte by byte: passwords, PINs and one-time codes,
/// hashes, MACs, signatures and digests, and OAuth `state` (`==`/`!=` in Swift, `isEqualToString:`/
/// `isEqualToData:`/`isEqual:` in Objective-C), against another value or a hard-coded one (`pin == "1234"`).
/// Change detection (`layoutSignature == cachedLayoutSignature`), confirmation fields (`password == confirmPassword`,
/// `pin == firstPin`), structural equality (`lhs.pin == rhs.pin`), UI identity (`textField == passwordField`) and
/// status constants (`ret == RET_WRONG_PASSWORD`) are not such comparisons; a value checked against the stored one
/// is, whatever else it is called (`oldPin != storedPin`, `passcode == AppLockManager.shared.passcode`).
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
        "updated", "latest", "initial", "mail", "email", "default", "html", "first", "step", "field", "textfield",
        "cell", "row", "section", "segment", "index", "button", "label", "title", "menu", "alert", "controller",
        "wrong", "incorrect", "invalid", "error", "err", "ret", "status", "reset", "clear", "username", "name",
    ]
    /// Words that make a comparison a check against the kept value, whatever the other side is called.
    static let storedWords: Set<String> = ["stored", "saved", "keychain", "expected", "actual", "correct", "real"]
    /// Benign words a check against the kept value overrides (`oldPin != storedPin` verifies the old PIN).
    static let staleWords: Set<String> = ["old", "current", "existing", "previous", "prev", "last", "prior", "cached"]
    /// Words of a member chain's root that make it another version of the value (`oldValue.pin == newValue.pin`).
    static let versionRoots: Set<String> = [
        "old", "new", "previous", "prev", "last", "prior", "cached", "cache", "updated", "latest", "initial", "draft",
        "snapshot", "first", "second", "confirm", "confirmation", "current", "existing",
    ]
    /// Operand roots of structural equality (an `==` implementation, a diff): `lhs.pin == rhs.pin`.
    static let structuralRoots: Set<String> = [
        "lhs", "rhs", "l", "r", "a", "b", "x", "y", "self", "other", "left", "right", "first", "second", "$0", "$1",
    ]

    /// One side of a comparison: the name it ends in and, for a member chain (`a.b.c`), the chain's root.
    struct Operand {
        var name: String
        var root: String?
    }

    func check(_ scan: FileScan, at index: Int) {
        let left: Operand?
        let right: Operand?
        // The tokens of bare-name operands (`magic == stored.magic` → `magic`), for what their values carry.
        var bare: [Int] = []
        if scan.tokens[index].kind == .operator {
            if let literal = hardCoded(scan, index) {
                return reportHardCoded(scan, at: index, literal)
            }
            left = operand(scan, index - 1, backwards: true)
            right = operand(scan, index + 1, backwards: false)
            if left?.root == nil, index > 0, scan.tokens[index - 1].kind == .identifier { bare.append(index - 1) }
            if right?.root == nil, index + 1 < scan.tokens.count, scan.tokens[index + 1].kind == .identifier {
                bare.append(index + 1)
            }
        } else {
            // [received isEqualToString:expected]
            guard scan.file.language == .objectiveC, scan.isSymbol(index + 1, ":"),
                let message = scan.message(at: index),
                message.parts.count == 1, let argument = message.argument(scan.tokens[index].text)
            else { return }
            if let name = lastName(scan, message.receiver), isLiteralString(scan, argument) {
                return reportHardCoded(scan, at: index, name)
            }
            left = lastName(scan, message.receiver).map { Operand(name: $0, root: root(scan, message.receiver)) }
            right = lastName(scan, argument).map { Operand(name: $0, root: root(scan, argument)) }
            for range in [message.receiver, argument]
            where range.count == 1 && scan.tokens[range.lowerBound].kind == .identifier {
                bare.append(range.lowerBound)
            }
        }
        guard let left, let right, !isStructural(left, right), !Self.matchesRecords(scan, index, left, right) else {
            return
        }
        let roots = [left.root, right.root].compactMap { $0 }
        if let kind = kind(left.name, right.name, roots: roots) {
            scan.report(
                Self.nonConstantTime, at: index,
                "\(kind) '\(left.name)' and '\(right.name)' are compared in variable time")
            return
        }
        derivedFromPassword(scan, at: index, bare, names: [left.name, right.name] + roots)
    }

    /// `magic = [NSData passwordMagic:password]` then `[magic isEqualToString:repo.magic]`: a value made from a
    /// password, whatever it is called, checked against another in variable time (a verifier; a hash is reported by
    /// its name). Not where a name says the comparison is a change check or a form's confirmation.
    private func derivedFromPassword(_ scan: FileScan, at index: Int, _ bare: [Int], names: [String]) {
        guard !names.flatMap(SecretNames.words).contains(where: Self.benign.contains) else { return }
        for position in bare {
            let name = scan.tokens[position].text
            guard let origin = scan.flow.taint(of: name, at: position)?.secret,
                case let words = SecretNames.words(origin.source), words.contains(where: Self.passwordWords.contains),
                !words.contains(where: Self.benign.contains)
            else { continue }
            scan.report(
                Self.nonConstantTime, at: index,
                "'\(name)', made from \(origin.source) (line \(origin.line)), is compared in variable time (a password "
                    + "verifier)")
            return
        }
    }

    /// `lhs.signature == rhs.signature` (an `==` implementation, a diff) compares two values field by field; it is
    /// not a check of one against another. The same name with another root (`pin == self.pin`,
    /// `user.pin == policy.pin`) is such a check.
    /// The same field of two records inside a collection search (`saved.filter { $0.password == new.password }`,
    /// `first(where:)`): finding a stored record that matches one the app already holds, not checking what someone
    /// sent against a secret — nobody outside the process times it.
    static func matchesRecords(_ scan: FileScan, _ index: Int, _ left: Operand, _ right: Operand) -> Bool {
        guard left.name == right.name, left.root != nil, right.root != nil,
            let brace = scan.enclosingOpener(of: index, "{", limit: 96)
        else { return false }
        var callee = brace - 1
        if scan.isSymbol(callee, ":"), scan.text(callee - 1) == "where" {
            // first(where: { … })
            callee = (scan.enclosingOpener(of: brace, "(", limit: 4) ?? 0) - 1
        } else if scan.isSymbol(callee, "(") {
            callee -= 1
        }
        return callee >= 0 && searchCalls.contains(scan.text(callee))
    }

    static let searchCalls: Set<String> = [
        "filter", "first", "last", "contains", "firstIndex", "lastIndex", "removeAll", "allSatisfy", "drop", "prefix",
    ]

    private func isStructural(_ left: Operand, _ right: Operand) -> Bool {
        guard left.name == right.name else { return false }
        guard let leftRoot = left.root, let rightRoot = right.root else { return false }
        return Self.structuralRoots.contains(leftRoot) && Self.structuralRoots.contains(rightRoot)
            || leftRoot == rightRoot
    }

    /// A password-named value compared with a non-empty string literal: the secret is in the binary.
    private func hardCoded(_ scan: FileScan, _ index: Int) -> String? {
        let sides = [(index - 1, index + 1), (index + 1, index - 1)]
        for (named, literal) in sides {
            guard literal >= 0, literal < scan.tokens.count, scan.tokens[literal].kind == .string,
                !scan.tokens[literal].text.isEmpty, !scan.tokens[literal].isInterpolated,
                named >= 0, named < scan.tokens.count, scan.tokens[named].kind == .identifier
            else { continue }
            // `a.b == "x"` reads `b` on the left; on the right only a bare name (`"x" == pin`).
            if named > index, scan.isSymbol(named + 1, ".") || scan.isSymbol(named + 1, "(") { continue }
            let name = scan.tokens[named].text
            if isPasswordNamed(name) { return name }
        }
        return nil
    }

    private func isLiteralString(_ scan: FileScan, _ range: Range<Int>) -> Bool {
        let strings = range.filter { scan.tokens[$0].kind == .string }
        guard strings.count == 1, let only = strings.first else { return false }
        let token = scan.tokens[only]
        return !token.text.isEmpty && !token.isInterpolated && scan.isLiteral(range)
    }

    private func isPasswordNamed(_ name: String) -> Bool {
        let words = SecretNames.words(name)
        guard let last = words.last, Self.passwordWords.contains(last), SecretNames.isSecret(name) else { return false }
        return !words.contains(where: Self.benign.contains)
    }

    private func reportHardCoded(_ scan: FileScan, at index: Int, _ name: String) {
        guard isPasswordNamed(name) else { return }
        scan.report(
            Self.nonConstantTime, at: index,
            "The secret '\(name)' is compared with a hard-coded value, in variable time (and the value is in the binary)"
        )
    }

    /// What makes the comparison sensitive, if anything.
    func kind(_ left: String, _ right: String, roots: [String] = []) -> String? {
        let leftWords = SecretNames.words(left)
        let rightWords = SecretNames.words(right)
        let all = leftWords + rightWords
        // `Current.settings.x`: a capitalised root is a type or an app's environment, not a version of the value.
        let rootWords = roots.filter { $0.first?.isLowercase ?? false }.flatMap(SecretNames.words)
        let checksStored = (all + rootWords).contains(where: Self.storedWords.contains)
        let stale = { (word: String) in checksStored && Self.staleWords.contains(word) }
        if all.contains(where: { Self.benign.contains($0) && !stale($0) })
            || rootWords.contains(where: { Self.versionRoots.contains($0) && !stale($0) })
        {
            return nil
        }
        if [leftWords, rightWords].contains(where: { $0.last.map(Self.macWords.contains) == true }) {
            return "The MAC or signature"
        }
        if [leftWords, rightWords].contains(where: { words in
            words.last == "hash" && words.contains(where: Self.passwordWords.contains)
        }) {
            return "The hash"
        }
        // `value == settings.widgetAuthenticityToken`: a token that exists to prove a request's authenticity.
        if [leftWords, rightWords].contains(where: { $0.last == "token" && $0.contains("authenticity") }) {
            return "The authenticity token"
        }
        if [leftWords, rightWords].allSatisfy({ $0.last == "state" }),
            all.contains(where: Self.stateQualifiers.contains)
        {
            return "The OAuth state"
        }
        if [leftWords, rightWords].contains(where: Self.namesPassword),
            SecretNames.isSecret(left) || SecretNames.isSecret(right)
        {
            return "The secret"
        }
        return nil
    }

    /// Words that end in a password word, or in a PIN's code (`pinCode`, Element X's app lock).
    static func namesPassword(_ words: [String]) -> Bool {
        guard let last = words.last else { return false }
        if passwordWords.contains(last) { return true }
        return last == "code" && words.count >= 2 && passwordWords.contains(words[words.count - 2])
    }

    /// The name an operand ends in (`a.b.c` → `c`, `f(x)` → `f`), or nil for literals and implicit members.
    private func operand(_ scan: FileScan, _ position: Int, backwards: Bool) -> Operand? {
        guard position >= 0, position < scan.tokens.count else { return nil }
        let token = scan.tokens[position]
        switch token.kind {
        case .identifier:
            if backwards {
                // `a.b.c ==`: the root is found by walking back over `.name` pairs.
                var cursor = position
                while scan.isSymbol(cursor - 1, "."), cursor >= 2,
                    [.identifier, .keyword].contains(scan.tokens[cursor - 2].kind)
                {
                    cursor -= 2
                }
                scan.spend(position - cursor)
                return Operand(name: token.text, root: cursor < position ? scan.text(cursor) : nil)
            }
            var cursor = position
            while scan.isSymbol(cursor + 1, "."), cursor + 2 < scan.tokens.count,
                scan.tokens[cursor + 2].kind == .identifier
            {
                cursor += 2
            }
            scan.spend(cursor - position)
            // `State.idle`, `Self.name`: a case or a constant. `Manager.shared.passcode` is a kept value.
            if token.text.first?.isUppercase == true, cursor == position + 2 { return nil }
            // A call on the right: `hmac(message)` is still the MAC.
            return Operand(name: scan.tokens[cursor].text, root: cursor > position ? token.text : nil)
        case .keyword where token.text == "self":
            // self.a.b: the chain after `self` (walked, not recursed: `self.self.self...` stays flat).
            guard !backwards else { return nil }
            var cursor = position
            while scan.text(cursor) == "self", scan.isSymbol(cursor + 1, ".") { cursor += 2 }
            scan.spend(cursor - position)
            guard cursor < scan.tokens.count, scan.tokens[cursor].kind == .identifier,
                var member = operand(scan, cursor, backwards: false)
            else { return nil }
            member.root = "self"
            return member
        case .punctuation where token.text == ")" || token.text == "]":
            guard backwards else { return nil }
            let open = Int(scan.file.partner[position])
            return open > 0 ? Operand(name: scan.text(open - 1)) : nil
        default:
            return nil
        }
    }

    /// The first name of a member chain in an Objective-C operand (`self.token` → `self`), nil for a bare name.
    private func root(_ scan: FileScan, _ range: Range<Int>) -> String? {
        guard range.count > 1, [.identifier, .keyword].contains(scan.tokens[range.lowerBound].kind) else { return nil }
        return scan.tokens[range.lowerBound].text
    }

    private func lastName(_ scan: FileScan, _ range: Range<Int>) -> String? {
        guard !range.isEmpty, !scan.isLiteral(range) else { return nil }
        if range.contains(where: { scan.tokens[$0].kind == .string }) { return nil }
        return range.reversed().first { scan.tokens[$0].kind == .identifier }.map { scan.tokens[$0].text }
    }
}
