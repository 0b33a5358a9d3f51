/// Where a value of interest came from and the variables that carried it to where it is used.
struct Origin: Sendable {
    /// The source as a message names it: `'password'`, `the text of 'passwordField'`, `a Keychain read`,
    /// `arc4random()`. Never a value.
    let source: String
    /// The line of the source.
    let line: Int32
    /// The variables the value went through, in order, with the line each was assigned on.
    var path: [(name: String, line: Int32)] = []

    /// `'password' (line 3) via blob (line 4)`, or just `'password'` when it is used where it is named.
    func describe(at sinkLine: Int32) -> String {
        if path.isEmpty, line == sinkLine { return source }
        let via = path.isEmpty ? "" : " via " + path.map { "\($0.name) (line \($0.line))" }.joined(separator: ", ")
        return "\(source) (line \(line))\(via)"
    }
}

/// What an expression or a variable carries. Each kind keeps the first origin that reached it.
struct Taint: Sendable {
    /// A secret: a password, token, key, PIN, credential, a Keychain read, a secure text field's text.
    var secret: Origin?
    /// Non-cryptographic or too-short randomness.
    var random: Origin?
    /// A JWT split into its segments (before decoding).
    var segments: Origin?
    /// JWT claims decoded without verifying the signature.
    var claims: Origin?
    /// An authorization (sign-in) URL or request.
    var authorizationURL: Origin?

    var isEmpty: Bool {
        secret == nil && random == nil && segments == nil && claims == nil && authorizationURL == nil
    }

    mutating func merge(_ other: Taint) {
        if secret == nil { secret = other.secret }
        if random == nil { random = other.random }
        if segments == nil { segments = other.segments }
        if claims == nil { claims = other.claims }
        if authorizationURL == nil { authorizationURL = other.authorizationURL }
    }

    /// The same taint after passing through the variable `name` assigned on `line`.
    func through(_ name: String, line: Int32) -> Taint {
        func extend(_ origin: Origin?) -> Origin? {
            guard var origin else { return nil }
            if origin.path.count < 6, origin.path.last?.name != name { origin.path.append((name, line)) }
            return origin
        }
        return Taint(
            secret: extend(secret), random: extend(random), segments: extend(segments), claims: extend(claims),
            authorizationURL: extend(authorizationURL))
    }
}

/// A function-local dataflow pass over the tokens of one Swift or Objective-C file.
///
/// One pass in token order records every binding: `let`/`var` declarations (with `if`/`guard let`), Objective-C
/// declarations, `for ... in`, assignments and `+=`, member and subscript assignments (`user.password = p` and
/// `dict["token"] = t` taint `user` and `dict`), mutating calls (`append`, `setValue(_:forKey:)`,
/// `[dict setObject:forKey:]`) and `SecItemCopyMatching`'s out-parameter. The value of each binding is the taint
/// of its right-hand side: the sources it names (``SecretNames``, secure text fields, Keychain reads, JWT decoding,
/// weak random calls, authorization URLs) and the tainted variables it reads, through interpolation,
/// concatenation, `Data(x.utf8)`, `.data(using:)`, encoders, archives, dictionary and array literals and
/// initialisers. Hashing, encryption and redaction (``sanitizers``) stop a secret.
///
/// Variables are looked up in their scope (``FileScan/scopes``) at the last binding before the use, so a value
/// flows forward within a function and never between functions.
final class Dataflow {
    // The scan owns the flow and outlives it; `unowned(unsafe)` spares a reference-count check on every access.
    private unowned(unsafe) let scan: FileScan
    private let tokens: [Token]

    private struct Key: Hashable {
        let scope: Int32
        let name: String
    }

    /// The longest expression evaluated, in tokens (a pathological file stays linear).
    static let maximumExpression = 4096

    init(scan: FileScan) {
        self.scan = scan
        tokens = scan.tokens
    }

    // MARK: - Queries

    /// What the expression `range` carries.
    func evaluate(_ range: Range<Int>) -> Taint {
        var taint = Taint()
        let end = min(range.upperBound, range.lowerBound + Self.maximumExpression, tokens.count)
        var index = max(range.lowerBound, 0)
        var visited = 0
        defer { scan.spend(visited) }
        while index < end {
            visited += 1
            let token = tokens[index]
            switch token.kind {
            case .identifier:
                index = identifier(index, end: end, into: &taint)
                continue
            case .string:
                string(index, end: end, into: &taint)
            default:
                break
            }
            index += 1
        }
        return taint
    }

    // MARK: - Sources

    /// Calls whose result no longer reveals the secret (hashes, encryption, redaction, counts).
    static let sanitizers: Set<String> = [
        "sha256", "SHA256", "sha512", "SHA512", "sha1", "hash", "hashed", "digest", "hmac", "HMAC", "Redacted",
        "redacted", "mask", "masked", "fingerprint", "count", "isEmpty", "hashValue", "prefix", "suffix", "encrypt",
        "encrypted", "seal", "sealed", "SecKeyCreateEncryptedData", "bcrypt", "scrypt", "pbkdf2", "PBKDF2",
        "deriveKey", "CCKeyDerivationPBKDF", "isValid", "validate", "matches", "SecItemAdd", "SecItemUpdate",
        "SecItemDelete", "SecItemCopyMatching", "SecRandomCopyBytes", "SecKeyCreateSignature",
    ]
    /// Members whose value does not reveal the secret.
    static let sanitizerMembers: Set<String> = [
        "count", "isEmpty", "hashValue", "sha256", "hash", "redacted", "masked", "fingerprint", "isValid", "isExpired",
        "expiresAt", "expiry", "expirationDate", "scope", "type", "tokenType", "kind", "length", "hasPrefix",
        "hasSuffix", "description", "debugDescription", "isExpiring", "needsRefresh",
    ]
    /// Methods that read an item from a Keychain wrapper.
    static let keychainReads: Set<String> = [
        "get", "getString", "getData", "string", "data", "object", "password", "read", "load", "value", "item",
        "objectForKey", "stringForKey", "dataForKey", "passwordForService", "passwordDataForService",
        "genericPassword", "retrieve", "fetch",
    ]
    /// Method prefixes of Keychain wrappers' reads (`readString(account:)`, `getPassword`, `loadToken`).
    static let readPrefixes = ["read", "get", "load", "fetch", "retrieve", "copy"]
    /// Calls that produce non-cryptographic or short randomness.
    static let weakRandomCalls: Set<String> = [
        "arc4random", "arc4random_uniform", "rand", "random", "srand", "srandom", "drand48", "lrand48", "srand48",
        "erand48", "randomElement", "shuffled", "nextInt", "nextUniform", "nextBool",
    ]
    static let weakRandomTypes: Set<String> = [
        "GKRandomSource", "GKMersenneTwisterRandomSource", "GKLinearCongruentialRandomSource", "GKARC4RandomSource",
        "GKRandomDistribution", "GKShuffledDistribution", "GKGaussianDistribution",
    ]
    static let base64Decoders: Set<String> = [
        "base64Encoded", "base64URLDecoded", "base64Decoded", "base64UrlDecoded", "base64URLDecode", "base64Decode",
        "fromBase64", "base64URL", "initWithBase64EncodedString", "base64UrlDecode",
    ]
    static let jwtDecoders: Set<String> = ["decode"]
    /// Parameters of an authorization request: a query that has them is a sign-in URL.
    static let authorizationParameters: Set<String> = ["response_type", "redirect_uri", "code_challenge"]

    /// Every name the evaluation treats specially (calls, members, decoders, Keychain reads, `text`...).
    static let specialNames: Set<String> = {
        var names = sanitizers.union(weakRandomCalls).union(weakRandomTypes).union(base64Decoders).union(jwtDecoders)
            .union(keychainReads)
        names.formUnion(["prefix", "suffix", "dropLast", "dropFirst", "seed", "split", "components"])
        names.formUnion(["componentsSeparatedByString", "text"])
        return names
    }()

    struct NameInfo {
        var special: Bool
        var names: FileScan.NameClass
    }

    /// Functions of this file that return JWT claims they decoded by hand (see ``JWTRules``).
    private var claimsFunctions: [String: Origin] = [:]

    /// Records that calls to `name` return unverified JWT claims; values computed before are recomputed.
    func addClaimsFunction(_ name: String, _ origin: Origin) {
        guard claimsFunctions[name] == nil else { return }
        claimsFunctions[name] = origin
        siteTaints.removeAll()
    }

    private func info(_ name: String) -> NameInfo {
        if let known = scan.names.flowNames[name] { return known }
        let info = NameInfo(
            special: Self.specialNames.contains(name) || Self.readPrefixes.contains(where: { name.hasPrefix($0) }),
            names: scan.nameClass(name))
        scan.names.flowNames[name] = info
        return info
    }

    private func origin(_ source: String, _ index: Int) -> Origin { Origin(source: source, line: tokens[index].line) }

    /// Evaluates the identifier at `index` and returns where evaluation continues.
    private func identifier(_ index: Int, end: Int, into taint: inout Taint) -> Int {
        let token = tokens[index]
        let name = token.text
        // Most names are none of the sources below and carry nothing: one dictionary lookup says so.
        // Most names are none of the sources below and carry nothing: one dictionary lookup says so. A variable is
        // looked up where it is a plain name (or `self.name`) and not a type's (capitalised) name.
        let info = self.info(name)
        let member = scan.isSymbol(index - 1, ".")
        if !claimsFunctions.isEmpty, taint.claims == nil, let origin = claimsFunctions[name],
            scan.isSymbol(index + 1, "(") || scan.file.language == .objectiveC && scan.isSymbol(index + 1, ":")
        {
            taint.claims = origin
        }
        let variable =
            (!member || scan.text(index - 2) == "self") && !(name.utf8.first.map { $0 >= 0x41 && $0 <= 0x5A } ?? true)
        if !info.special, info.names.isEmpty, !variable { return index + 1 }
        let isCall = scan.isSymbol(index + 1, "(")
        // Truncated UUIDs: UUID().uuidString.prefix(8)
        if member, ["prefix", "suffix", "dropLast", "dropFirst"].contains(name),
            scan.file.receiver(of: index).contains(where: { $0 == "uuidString" || $0 == "UUID" })
        {
            if taint.random == nil { taint.random = origin("a truncated UUID", index) }
            return skipCall(index)
        }
        if Self.sanitizers.contains(name), isCall || scan.file.language == .objectiveC {
            return skipCall(index)
        }
        // A harmless member of the value: token.count, password.isEmpty, tokens.accessToken.count,
        // keychain.allKeys().count
        if scan.isSymbol(index + 1, ".") {
            var end = index
            while true {
                if scan.isSymbol(end + 1, "("), scan.file.partner[end + 1] > end + 1 {
                    end = Int(scan.file.partner[end + 1])
                } else if scan.isSymbol(end + 1, "."), end + 2 < tokens.count, tokens[end + 2].kind == .identifier {
                    end += 2
                } else {
                    break
                }
            }
            if end > index, Self.sanitizerMembers.contains(tokens[end].text), !scan.isSymbol(end + 1, "(") {
                return end + 1
            }
        }
        // Weak randomness.
        if Self.weakRandomCalls.contains(name), isCall || scan.file.language == .objectiveC,
            name != "random" || !member || scan.text(index - 2).first?.isUppercase == true
        {
            if taint.random == nil { taint.random = origin("\(name)()", index) }
        } else if Self.weakRandomTypes.contains(name) {
            if taint.random == nil { taint.random = origin(name, index) }
        } else if name == "seed", scan.isSymbol(index + 1, ":"),
            let open = scan.enclosingOpener(of: index, "(", limit: 64),
            ["random", "generator", "rng"].contains(where: {
                FastText.contains(scan.text(open - 1), $0, caseInsensitive: true)
            })
        {
            if taint.random == nil { taint.random = origin("a seeded generator", index) }
        }
        // JWT: split into segments, decoded by hand, or decoded by a library without verification.
        if ["split", "components", "componentsSeparatedByString"].contains(name),
            member || isCall || scan.file.language == .objectiveC
        {
            let owner = scan.file.receiver(of: index).last ?? (member ? "" : scan.text(index - 1))
            let words = SecretNames.words(owner)
            if words.contains("jwt") || words.contains("token"), separatorIsDot(after: index) {
                if taint.segments == nil { taint.segments = origin("'\(owner)' split at '.'", index) }
            }
        }
        if Self.base64Decoders.contains(name) {
            // The argument is evaluated once, here, and evaluation goes on after it (evaluating it again from the
            // outer loop would cost 2^depth for nested decoders).
            let argument = callRange(index)
            let inner = evaluate(argument)
            if let segments = inner.segments ?? taint.segments {
                if taint.claims == nil {
                    taint.claims = Origin(source: "JWT claims decoded by hand", line: token.line, path: segments.path)
                }
            }
            taint.merge(inner)
            if !argument.isEmpty, argument.upperBound > index + 1 {
                return scan.isSymbol(argument.upperBound, ")") && scan.isSymbol(index + 1, "(")
                    ? argument.upperBound + 1 : argument.upperBound
            }
        }
        if name == "decode", isCall, scan.text(index + 2) == "jwt" {
            if taint.claims == nil { taint.claims = origin("JWT claims decoded without verification", index) }
        }
        // Authorization URLs by name: authorizationURL, loginURL, oauthURL.
        if taint.authorizationURL == nil, scan.nameClass(name).contains(.authorization) {
            taint.authorizationURL = origin("'\(name)'", index)
        }
        // Keychain reads.
        if Self.keychainReads.contains(name) || Self.readPrefixes.contains(where: { name.hasPrefix($0) }),
            member || scan.file.language == .objectiveC,
            isKeychainReceiver(index)
        {
            if taint.secret == nil { taint.secret = origin("a Keychain read", index) }
        }
        // A variable bound in this scope (self.name included).
        if variable, let bound = self.taint(of: name, at: index) {
            taint.merge(bound)
        }
        // A secure text field's text: passwordField.text, [self.pinField text]
        if name == "text", member || scan.file.language == .objectiveC {
            let owner = member ? scan.file.receiver(of: index).last ?? "" : scan.text(index - 1)
            if taint.secret == nil, scan.nameClass(owner, .secretField).contains(.secretField) {
                taint.secret = origin("the text of '\(owner)'", index)
            }
        }
        // A secret by its name, unless it labels a literal (`password: ""`) or is a declaration's type.
        if taint.secret == nil, scan.isSecret(name), !labelsLiteral(index) {
            taint.secret = origin("'\(name)'", index)
        }
        return index + 1
    }

    private func string(_ index: Int, end: Int, into taint: inout Taint) {
        let text = tokens[index].text
        if taint.authorizationURL == nil,
            Self.isAuthorizationURL(text) || Self.authorizationParameters.contains(text)
        {
            taint.authorizationURL = origin("an authorization URL", index)
        }
        // ["password": value] / @{@"token": value}: the value is a secret.
        if taint.secret == nil, scan.isSymbol(index + 1, ":"), scan.isDictionaryKey(index), scan.isSecret(text),
            index + 2 < end,
            !scan.isLiteral(scan.expression(from: index + 2))
        {
            taint.secret = origin("'\(text)'", index)
        }
    }

    /// Whether the identifier at `index` is an argument label of a literal value (`password: ""`, `token: nil`).
    private func labelsLiteral(_ index: Int) -> Bool {
        guard scan.isSymbol(index + 1, ":") else { return false }
        return scan.isLiteral(scan.expression(from: index + 2))
    }

    /// The index after the call's closing parenthesis (or after the name when it is not called).
    private func skipCall(_ index: Int) -> Int {
        if scan.isSymbol(index + 1, "("), scan.file.partner[index + 1] > index + 1 {
            return Int(scan.file.partner[index + 1]) + 1
        }
        return index + 1
    }

    /// The argument tokens of the call at `index`, or the Objective-C argument after `name:`.
    private func callRange(_ index: Int) -> Range<Int> {
        if scan.isSymbol(index + 1, "("), scan.file.partner[index + 1] > index + 1 {
            return (index + 2)..<Int(scan.file.partner[index + 1])
        }
        if scan.isSymbol(index + 1, ":") { return scan.expression(from: index + 2) }
        return index..<index
    }

    private func separatorIsDot(after index: Int) -> Bool {
        let range = callRange(index)
        if let literal = scan.firstString(in: range) { return literal == "." }
        // [token componentsSeparatedByString:@"."]
        return scan.isSymbol(index + 1, ":") && scan.text(index + 2) == "."
    }

    /// Whether the receiver of the call at `index` is a Keychain wrapper (`keychain.get`, `KeychainWrapper.standard`,
    /// `SAMKeychain`, `valet.string(forKey:)`).
    private func isKeychainReceiver(_ index: Int) -> Bool {
        let chain: [String]
        if scan.file.language == .objectiveC, !scan.isSymbol(index - 1, ".") {
            chain =
                scan.message(at: index).map { message in
                    message.receiver.filter { scan.tokens[$0].kind == .identifier }.map { scan.tokens[$0].text }
                } ?? []
        } else {
            chain = scan.resolvedReceiver(of: index)
        }
        return chain.contains { name in
            ["keychain", "valet", "vault", "samkeychain", "sskeychain", "lockbox", "uickeychainstore"].contains {
                FastText.contains(name, $0, caseInsensitive: true)
            }
        }
    }

    /// `passwordField`, `pinTextField`, `txtPassword`, `passcodeInput`: a field whose text is a secret.
    static func isSecretField(_ name: String) -> Bool {
        guard
            ["pass", "pwd", "pin", "otp", "cvv", "secret", "token"].contains(where: {
                FastText.contains(name, $0, caseInsensitive: true)
            })
        else { return false }
        let words = SecretNames.words(name)
        let secret = words.contains {
            ["password", "passwd", "pwd", "pin", "passcode", "otp", "cvv", "secret", "token"].contains($0)
        }
        return secret && !words.contains(where: { ["confirm", "hint", "label", "placeholder"].contains($0) })
    }

    static func isAuthorizationName(_ name: String) -> Bool {
        guard
            FastText.contains(name, "url", caseInsensitive: true)
                || FastText.contains(name, "request", caseInsensitive: true)
                || FastText.contains(name, "uri", caseInsensitive: true)
        else { return false }
        let words = SecretNames.words(name)
        return words.contains {
            ["authorize", "authorization", "oauth", "signin", "login", "auth", "sso"].contains($0)
        }
            && !words.contains("callback") && !words.contains("redirect") && !words.contains("logout")
    }

    static func isAuthorizationURL(_ text: String) -> Bool {
        guard text.utf8.count > 6 else { return false }
        if FastText.contains(text, "response_type=", caseInsensitive: true) { return true }
        guard
            FastText.contains(text, "/auth", caseInsensitive: true)
                || FastText.contains(text, "/o/oauth2", caseInsensitive: true)
                || FastText.contains(text, "/oauth", caseInsensitive: true)
        else { return false }
        let lower = text.lowercased()
        // `/authorize` as a path segment (not `/authorized-retailers`), or an OAuth provider's authorization path.
        if let range = lower.range(of: "/authorize") {
            let next = lower[range.upperBound...].first
            if next == nil || next == "?" || next == "/" || next == "#" || next == "." { return true }
        }
        return ["/o/oauth2/auth", "/oauth2/auth", "/oauth/auth", "/oauth2/v2/auth", "/oauth2/v1/auth"].contains {
            lower.contains($0)
        }
    }

    // MARK: - Bindings

    /// How a binding site gets its value.
    private enum SiteKind: UInt8 {
        case declaration, forIn, assignment, compoundAssignment, outParameter, mutatingCall, objcMutatingMessage
    }

    /// The value of each binding site asked about, by the token the binding is attributed to.
    private var siteTaints: [Int32: Taint] = [:]
    private var evaluating = Set<Int32>()
    private var depth = 0
    /// Variables followed through at most this many nested bindings, and a use looks back at most this many
    /// tokens for its binding (a pathological file stays linear).
    static let maximumDepth = 48
    static let maximumLookBack = 8192

    /// What the variable `name` carries at token `index`: the value of its last binding before `index` in its
    /// scope, found by looking back from the use (only uses a rule asks about are followed, so a file pays for
    /// the values that reach a sink, not for every declaration).
    func taint(of name: String, at index: Int) -> Taint? {
        guard index > 0, index <= tokens.count else { return nil }
        let scopes = scan.scopes
        let scope = index < tokens.count ? scopes[index] : scopes[index - 1]
        // A name never bound in this scope (a parameter, a property) needs no look back.
        guard boundNames(in: scope).contains(name) else { return nil }
        let lower = max(0, Int(scope), index - Self.maximumLookBack)
        // Compared in place (a copy of each token would retain and release its text).
        let utf8Count = name.utf8.count
        return tokens.withUnsafeBufferPointer { tokens -> Taint? in
            var position = index - 1
            defer { scan.spend(index - 1 - position) }
            while position >= lower {
                if tokens[position].kind == .identifier, scopes[position] == scope,
                    tokens[position].text.utf8.count == utf8Count, tokens[position].text == name,
                    !evaluating.contains(Int32(position)), let site = site(at: position, name),
                    let value = value(of: site, at: position)
                {
                    return value
                }
                position -= 1
            }
            return nil
        }
    }

    private var bound: [Int32: Set<String>] = [:]

    /// The names that have a binding site in `scope` (a superset: ``site(at:_:)`` decides), found in one pass over
    /// the scope the first time it is asked about.
    private func boundNames(in scope: Int32) -> Set<String> {
        if let known = bound[scope] { return known }
        var names = Set<String>()
        let scopes = scan.scopes
        let range =
            scope >= 0 && scan.file.partner[Int(scope)] > scope
            ? Int(scope)..<(Int(scan.file.partner[Int(scope)]) + 1) : 0..<tokens.count
        for position in range where scopes[position] == scope && tokens[position].kind == .identifier {
            let previous = position > 0 ? tokens[position - 1] : nil
            if let previous, previous.kind == .keyword || previous.isSymbol("&") || previous.isSymbol("[") {
                let objcMutation =
                    previous.isSymbol("[") && position + 1 < tokens.count
                    && Self.objcMutators.contains(tokens[position + 1].text)
                if previous.isSymbol("&") || objcMutation || ["let", "var", "for"].contains(previous.text) {
                    names.insert(tokens[position].text)
                }
                continue
            }
            guard position + 1 < tokens.count else { continue }
            let next = tokens[position + 1]
            if next.kind == .operator, next.text == "=" || next.text == "+=" {
                names.insert(tokens[position].text)
            } else if next.kind == .punctuation, next.text == "." || next.text == "[",
                previous?.isSymbol(".") != true || (position >= 2 && tokens[position - 2].text == "self")
            {
                // The head of `owner.a = v`, `owner.append(x)`, `owner[k] = v`.
                var end = position
                while scan.isSymbol(end + 1, "."), end + 2 < tokens.count, tokens[end + 2].kind == .identifier {
                    end += 2
                }
                if scan.isSymbol(end + 1, "["), scan.file.partner[end + 1] > end + 1 {
                    end = Int(scan.file.partner[end + 1])
                }
                let after = end + 1 < tokens.count ? tokens[end + 1] : nil
                if after?.isSymbol("=") == true || after?.isSymbol("+=") == true
                    || (end > position && after?.isSymbol("(") == true && Self.mutators.contains(tokens[end].text))
                {
                    names.insert(tokens[position].text)
                }
            }
        }
        bound[scope] = names
        return names
    }

    /// The binding site the name at `position` is in, as (kind, the token its parser starts from).
    private func site(at position: Int, _ name: String) -> (SiteKind, Int)? {
        let before = position > 0 ? tokens[position - 1] : nil
        if let before, before.kind == .keyword {
            if before.text == "let" || before.text == "var" { return (.declaration, position - 1) }
            if before.text == "for" { return (.forIn, position - 1) }
        }
        if before?.isSymbol("&") == true { return (.outParameter, position - 1) }
        if before?.isSymbol(":") == true { return nil }  // a type annotation or a label
        guard position + 1 < tokens.count else { return nil }
        let next = tokens[position + 1]
        if next.isSymbol("=") { return (.assignment, position + 1) }
        if next.isSymbol("+=") { return (.compoundAssignment, position + 1) }
        // owner.a.b = v, owner.append(x), owner[k] = v: walk the chain to what follows it.
        var end = position
        while scan.isSymbol(end + 1, "."), end + 2 < tokens.count, tokens[end + 2].kind == .identifier { end += 2 }
        if end > position {
            if scan.isSymbol(end + 1, "=") { return (.assignment, end + 1) }
            if scan.isSymbol(end + 1, "("), Self.mutators.contains(tokens[end].text) { return (.mutatingCall, end) }
        }
        if scan.isSymbol(end + 1, "["), scan.file.partner[end + 1] > end + 1 {
            let close = Int(scan.file.partner[end + 1])
            if scan.isSymbol(close + 1, "=") { return (.assignment, close + 1) }
        }
        // [owner setObject:x forKey:@"k"]
        if before?.isSymbol("[") == true || (scan.text(position - 1) == "." && scan.text(position - 2) == "self"),
            next.kind == .identifier, Self.objcMutators.contains(next.text), scan.isSymbol(position + 2, ":")
        {
            return (.objcMutatingMessage, position + 1)
        }
        return nil
    }

    private func value(of site: (SiteKind, Int), at position: Int) -> Taint? {
        let key = Int32(position)
        if let known = siteTaints[key] { return known }
        guard depth < Self.maximumDepth else { return nil }
        evaluating.insert(key)
        depth += 1
        defer {
            depth -= 1
            evaluating.remove(key)
        }
        let anchor = site.1
        let parsed: Parsed?
        switch site.0 {
        case .declaration: parsed = declaration(anchor)
        case .forIn: parsed = forIn(anchor)
        case .assignment: parsed = assignment(anchor, compound: false)
        case .compoundAssignment: parsed = assignment(anchor, compound: true)
        case .outParameter: parsed = outParameter(anchor)
        case .mutatingCall: parsed = mutatingCall(anchor)
        case .objcMutatingMessage: parsed = objcMutatingMessage(anchor)
        }
        guard let parsed else { return nil }
        var taint = parsed.taint.through(parsed.name, line: tokens[position].line)
        // Randomness is followed through two variables: further on it has usually become something else (a
        // service name built with a random suffix, the client made with it, the session that client opened).
        if let random = taint.random, random.path.count > 2 { taint.random = nil }
        if parsed.merging, let previous = self.taint(of: parsed.name, at: position) { taint.merge(previous) }
        siteTaints[key] = taint
        return taint
    }

    /// A parsed binding site: the variable, whether it adds to the variable's previous value, and the value.
    private typealias Parsed = (name: String, merging: Bool, taint: Taint)

    /// `let NAME (: Type)? = EXPR`, `if let NAME = EXPR`, `guard let NAME = EXPR else`.
    private func declaration(_ index: Int) -> Parsed? {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier else { return nil }
        var position = index + 2
        if scan.isSymbol(position, ":") {
            position += 1
            var steps = 0
            while position < tokens.count, steps < 64, !tokens[position].isSymbol("=") {
                let token = tokens[position]
                if scan.file.partner[position] > position {
                    position = Int(scan.file.partner[position]) + 1
                    steps += 1
                    continue
                }
                guard
                    token.kind == .identifier || token.kind == .keyword || token.isSymbol(".")
                        || token.kind == .operator && token.text != "="
                else { return nil }
                if token.line != tokens[index].line { return nil }
                position += 1
                steps += 1
            }
        }
        guard scan.isSymbol(position, "=") else { return nil }
        let name = tokens[index + 1].text
        let previous = scan.text(index - 1)
        let condition = ["if", "guard", "while", ","].contains(previous) || scan.text(index - 2) == "case"
        return (name, false, evaluate(valueRange(from: position + 1, stopAtBrace: condition)))
    }

    /// `for NAME in EXPR {`.
    private func forIn(_ index: Int) -> Parsed? {
        guard index + 3 < tokens.count, tokens[index + 1].kind == .identifier, tokens[index + 2].text == "in" else {
            return nil
        }
        let name = tokens[index + 1].text
        return (name, false, evaluate(valueRange(from: index + 3, stopAtBrace: true)))
    }

    /// `NAME = EXPR`, `self.NAME = EXPR`, `owner.member = EXPR`, `dict[key] = EXPR`, `NAME += EXPR`.
    private func assignment(_ index: Int, compound: Bool) -> Parsed? {
        guard index >= 1, index + 1 < tokens.count else { return nil }
        let before = index - 1
        let target = tokens[before]
        if target.kind == .identifier {
            let chain = scan.file.receiver(of: before)
            if chain.isEmpty || chain == ["self"] || chain == ["_"] {
                return (target.text, compound, evaluate(valueRange(from: index + 1, stopAtBrace: false)))
            }
            // owner.member = value: the owner now carries the value; a secret-named member makes it a secret.
            let owner = chain.first == "self" && chain.count > 1 ? chain[1] : chain[0]
            let value = valueRange(from: index + 1, stopAtBrace: false)
            var taint = evaluate(value)
            if taint.secret == nil, scan.isSecret(target.text), !scan.isLiteral(value) {
                taint.secret = origin("'\(target.text)'", before)
            }
            return (owner, true, taint)
        }
        guard target.isSymbol("]"), scan.file.partner[before] >= 0 else { return nil }
        // dict["password"] = value
        let open = Int(scan.file.partner[before])
        guard open >= 1, tokens[open - 1].kind == .identifier else { return nil }
        let owner = tokens[open - 1].text
        let value = valueRange(from: index + 1, stopAtBrace: false)
        var taint = evaluate(value)
        if taint.secret == nil, !scan.isLiteral(value),
            ((open + 1)..<before).contains(where: {
                tokens[$0].kind == .string && scan.isSecret(tokens[$0].text)
            })
        {
            let key = ((open + 1)..<before).first { tokens[$0].kind == .string && scan.isSecret(tokens[$0].text) }
            taint.secret = origin("'\(key.map { tokens[$0].text } ?? "")'", open)
        }
        taint.merge(evaluate((open + 1)..<before))
        return (owner, true, taint)
    }

    /// `SecItemCopyMatching(query, &result)`: `result` holds the Keychain item.
    private func outParameter(_ index: Int) -> Parsed? {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier,
            let open = scan.enclosingOpener(of: index, "(", limit: 64), scan.text(open - 1) == "SecItemCopyMatching"
        else { return nil }
        var taint = Taint()
        taint.secret = origin("a Keychain read", open - 1)
        return (tokens[index + 1].text, false, taint)
    }

    static let mutators: Set<String> = [
        "append", "insert", "merge", "updateValue", "setValue", "setObject", "setString", "setData", "setBlob",
        "setDictionary", "addEntries", "add",
    ]

    /// `owner.append(x)`, `dict.setValue(x, forKey: "password")`, `doc.setString(x, forKey: "pin")`.
    private func mutatingCall(_ index: Int) -> Parsed? {
        guard Self.mutators.contains(tokens[index].text) else { return nil }
        let chain = scan.file.receiver(of: index)
        guard let first = chain.first, let call = scan.file.call(at: index) else { return nil }
        let owner = first == "self" && chain.count > 1 ? chain[1] : first
        var taint = evaluate((call.open + 1)..<call.close)
        if taint.secret == nil, let key = call.argument("forKey"),
            let literal = scan.firstString(in: key), scan.isSecret(literal),
            let value = call.arguments.first(where: { $0.label == nil })?.range, !scan.isLiteral(value)
        {
            taint.secret = origin("'\(literal)'", key.lowerBound)
        }
        return (owner, true, taint)
    }

    static let objcMutators: Set<String> = [
        "setObject", "setValue", "appendString", "appendData", "appendFormat", "addObject", "setString",
    ]

    /// `[dict setObject:x forKey:@"token"]`, `[blob appendString:password]`.
    private func objcMutatingMessage(_ index: Int) -> Parsed? {
        guard Self.objcMutators.contains(tokens[index].text), let message = scan.message(at: index),
            message.parts.first?.index == index,
            message.receiver.count == 1
                || (message.receiver.count == 3 && scan.text(message.receiver.lowerBound) == "self")
        else { return nil }
        let owner = scan.text(message.receiver.upperBound - 1)
        var taint = Taint()
        for part in message.parts { taint.merge(evaluate(part.argument)) }
        if taint.secret == nil, let key = message.argument("forKey"), let literal = scan.firstString(in: key),
            scan.isSecret(literal), let value = message.parts.first?.argument, !scan.isLiteral(value)
        {
            taint.secret = origin("'\(literal)'", key.lowerBound)
        }
        return (owner, true, taint)
    }

    /// The right-hand side starting at `start`: to the end of the statement, across lines that continue it (an
    /// operator at the end of a line, or a line that starts with `.` or a binary operator), over brackets and
    /// trailing closures; in a condition (`if let`, `guard let`), up to its `{` or `else`.
    func valueRange(from start: Int, stopAtBrace: Bool) -> Range<Int> {
        guard start < tokens.count else { return start..<start }
        var line = tokens[start].line
        var index = start
        let limit = min(tokens.count, start + Self.maximumExpression)
        while index < limit {
            let token = tokens[index]
            if token.line != line, index > start {
                let previous = tokens[index - 1]
                let continues =
                    (previous.kind == .operator && previous.text != "!" && previous.text != "?")
                    || token.isSymbol(".")
                    || (token.kind == .operator && ["+", "??", "&&", "||", "-", "*"].contains(token.text))
                guard continues else { break }
                line = token.line
            }
            if stopAtBrace, token.isSymbol("{") || (token.kind == .keyword && token.text == "else") { break }
            if scan.file.partner[index] > index, token.kind != .interpolationEnd {
                let close = Int(scan.file.partner[index])
                line = tokens[close].line
                index = close + 1
                continue
            }
            if token.kind == .punctuation, [";", "}", ")", "]", ","].contains(token.text) { break }
            if index > start, token.kind == .keyword,
                ["let", "var", "return", "if", "guard", "func", "case", "else"].contains(token.text)
            {
                break
            }
            index += 1
        }
        return start..<index
    }
}
