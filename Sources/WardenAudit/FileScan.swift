/// A finding before suppressions, baselines and fingerprints.
struct RawFinding: Sendable {
    let rule: Rule
    let line: Int
    let column: Int
    let message: String
}

/// Facts a file contributes to the project-wide rules.
struct ProjectFacts: Sendable {
    var localAuthentication: [(line: Int, column: Int)] = []
    var signInWithApple: [(line: Int, column: Int)] = []
    var passkeys: [(line: Int, column: Int)] = []
    var checksCredentialState = false
    var observesRevocation = false
}

/// One source file under audit: the rules append findings here.
final class FileScan {
    let file: SourceFile
    var tokens: [Token] { file.tokens }
    private(set) var findings: [RawFinding] = []
    var facts = ProjectFacts()

    init(file: SourceFile) { self.file = file }

    func report(_ rule: Rule, at index: Int, _ message: String? = nil) {
        let token = tokens[index]
        findings.append(
            RawFinding(rule: rule, line: Int(token.line), column: Int(token.column), message: message ?? rule.message))
    }

    /// `let NAME = A.b.c` declarations: NAME → "A.b.c" (a light substitute for type information).
    private(set) lazy var aliases: [String: String] = {
        var result: [String: String] = [:]
        for index in tokens.indices where tokens[index].kind == .keyword {
            guard tokens[index].text == "let" || tokens[index].text == "var", index + 3 < tokens.count,
                tokens[index + 1].kind == .identifier, tokens[index + 2].isSymbol("=")
            else { continue }
            var parts: [String] = []
            var cursor = index + 3
            while cursor < tokens.count, tokens[cursor].kind == .identifier || tokens[cursor].isSymbol(".") {
                if tokens[cursor].kind == .identifier { parts.append(tokens[cursor].text) }
                cursor += 1
            }
            if !parts.isEmpty { result[tokens[index + 1].text] = parts.joined(separator: ".") }
        }
        return result
    }()

    /// Owners that get a `textContentType` somewhere in the file (`field.textContentType = ...`), computed once.
    private(set) lazy var contentTypeOwners: Set<String> = {
        var owners = Set<String>()
        for index in tokens.indices where tokens[index].kind == .identifier && tokens[index].text == "textContentType" {
            owners.insert(file.receiver(of: index).last ?? "")
        }
        return owners
    }()

    /// The innermost `(` or `[` around `index`, looking back at most `limit` tokens.
    func enclosingOpener(of index: Int, _ opener: String, limit: Int = 512) -> Int? {
        var position = index - 1
        var steps = 0
        while position >= 0, steps < limit {
            if tokens[position].kind == .punctuation, tokens[position].text == opener, file.partner[position] > index {
                return position
            }
            position -= 1
            steps += 1
        }
        return nil
    }

    /// The receiver chain of the call at `index`, with a leading local alias expanded.
    func resolvedReceiver(of index: Int) -> [String] {
        var chain = file.receiver(of: index)
        if let first = chain.first, let alias = aliases[first] {
            chain = alias.split(separator: ".").map(String.init) + chain.dropFirst()
        }
        return chain
    }

    // MARK: Token helpers

    func text(_ index: Int) -> String { index >= 0 && index < tokens.count ? tokens[index].text : "" }

    func isSymbol(_ index: Int, _ symbol: String) -> Bool {
        index >= 0 && index < tokens.count && tokens[index].isSymbol(symbol)
    }

    /// `.name` used as an implicit member (not `a.name`).
    func isImplicitMember(_ index: Int) -> Bool {
        guard isSymbol(index - 1, ".") else { return false }
        let before = index - 2
        guard before >= 0 else { return true }
        let token = tokens[before]
        switch token.kind {
        case .identifier, .number, .string: return false
        case .keyword: return !(token.text == "self" || token.text == "Self")
        case .punctuation: return !(token.text == ")" || token.text == "]" || token.text == "?")
        default: return true
        }
    }

    /// Calls that make a value safe to log or store (hashes, redaction, counts).
    static let sanitizers: Set<String> = [
        "sha256", "SHA256", "sha512", "SHA512", "sha1", "hash", "hashed", "digest", "hmac", "HMAC", "Redacted",
        "redacted", "mask", "masked", "fingerprint", "count", "isEmpty", "hashValue", "prefix", "suffix",
    ]
    static let sanitizerMembers: Set<String> = [
        "count", "isEmpty", "hashValue", "sha256", "hash", "redacted", "masked", "fingerprint", "isValid", "isExpired",
        "expiresAt", "expiry", "expirationDate", "scope", "type", "tokenType", "kind",
    ]

    /// Secret-named identifiers in `range` that carry the secret's value (not inside a hash/redaction call and not
    /// followed by a harmless member such as `.count`).
    func secretValues(in range: Range<Int>) -> [Int] {
        var result: [Int] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            if token.kind == .identifier, Self.sanitizers.contains(token.text), isSymbol(index + 1, "("),
                file.partner[index + 1] > index + 1
            {
                index = Int(file.partner[index + 1]) + 1
                continue
            }
            if token.kind == .identifier, SecretNames.isSecret(token.text),
                !(isSymbol(index + 1, ".") && Self.sanitizerMembers.contains(text(index + 2)))
            {
                result.append(index)
            }
            index += 1
        }
        return result
    }

    /// Whether `range` names a secret key: a secret-named string literal or identifier (unless hashed).
    func secretKey(in range: Range<Int>) -> Bool {
        for index in range where tokens[index].kind == .string {
            if SecretNames.isSecret(tokens[index].text) { return !hashed(range) }
        }
        return !hashed(range) && !secretValues(in: range).isEmpty
    }

    /// Whether `range` contains a hashing or redacting call.
    func hashed(_ range: Range<Int>) -> Bool {
        range.contains { tokens[$0].kind == .identifier && Self.sanitizers.contains(tokens[$0].text) }
    }

    /// The tokens of the expression starting at `start`: to the end of its line, extended over brackets that
    /// open on it.
    func expression(from start: Int) -> Range<Int> {
        guard start < tokens.count else { return start..<start }
        let line = tokens[start].line
        var index = start
        while index < tokens.count {
            if tokens[index].line != line { break }
            if file.partner[index] > index, tokens[index].kind != .interpolationEnd {
                index = Int(file.partner[index]) + 1
                continue
            }
            if tokens[index].kind == .punctuation, [";", "}", ")", "]", ","].contains(tokens[index].text) { break }
            index += 1
        }
        return start..<index
    }

    /// The first string literal in `range`.
    func firstString(in range: Range<Int>) -> String? {
        range.first { tokens[$0].kind == .string }.map { tokens[$0].text }
    }
}
