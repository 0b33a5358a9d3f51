/// The sources of interest: secret names and fields, Keychain reads, JWT decoding, weak random calls,
/// authorization URLs, and the sanitizers that stop a secret.
extension Dataflow {
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
        names.formUnion(["componentsSeparatedByString", "text", "UUID", "uuidString", "UUIDString"])
        return names
    }()

    struct NameInfo {
        var special: Bool
        var names: FileScan.NameClass
    }

    /// Records that calls to `name` return unverified JWT claims; values computed before are recomputed.
    func addClaimsFunction(_ name: String, _ origin: Origin) {
        guard claimsFunctions[name] == nil else { return }
        claimsFunctions[name] = origin
        siteTaints.removeAll()
    }

    func info(_ name: String) -> NameInfo {
        if let known = scan.names.flowNames[name] { return known }
        let info = NameInfo(
            special: Self.specialNames.contains(name) || Self.readPrefixes.contains(where: { name.hasPrefix($0) }),
            names: scan.nameClass(name))
        scan.names.flowNames[name] = info
        return info
    }

    /// ``info(_:)`` of the name spelled `spelling` in the file's ``NameTable`` (-1: not in it), cached by number.
    func info(_ spelling: Int32, _ name: String) -> NameInfo {
        guard spelling >= 0 else { return info(name) }
        if infos.isEmpty { infos = Array(repeating: nil, count: scan.file.names.count) }
        if let known = infos[Int(spelling)] { return known }
        let info = self.info(name)
        infos[Int(spelling)] = info
        return info
    }

    /// Whether the token at `index` is inside the arguments of a call that began in the expression being evaluated:
    /// `Foo(id: UUID())` or `[Foo fooWithID:[NSUUID UUID]]`, not an interpolation.
    func isCallArgument(_ index: Int) -> Bool {
        if let open = scan.enclosingOpener(of: index, "(", limit: 64), open > evaluationStart,
            open >= 1, tokens[open - 1].kind == .identifier || tokens[open - 1].kind == .keyword
        {
            return true
        }
        // [Factory make:[[NSUUID UUID] UUIDString]]: the outermost message of the UUID's own chain is an argument.
        guard scan.file.language == .objectiveC, var open = scan.enclosingOpener(of: index, "[", limit: 64) else {
            return false
        }
        while open >= 1, scan.isSymbol(open - 1, "["), let outer = scan.enclosingOpener(of: open, "[", limit: 64),
            outer == open - 1
        {
            open = outer
        }
        return open > evaluationStart && scan.isSymbol(open - 1, ":")
    }

    /// Whether the member `name` at `index` is `token` on a place: its receiver's last word is a
    /// ``SecretNames/placeTokenWords`` word (`room.token`, `self.currentRoom.token`).
    func isPlaceToken(_ index: Int, _ name: String, member: Bool) -> Bool {
        guard name == "token" || name == "tokens" else { return false }
        // `room.token`, or the Objective-C message `[room token]`.
        let owner =
            member
            ? scan.file.receiver(of: index).last
            : scan.file.language == .objectiveC && index > 0 && tokens[index - 1].kind == .identifier
                ? tokens[index - 1].text : nil
        guard let owner else { return false }
        return SecretNames.words(owner).last.map { SecretNames.placeTokenWords.contains($0) } ?? false
    }

    func origin(_ source: String, _ index: Int) -> Origin { Origin(source: source, line: tokens[index].line) }

    /// Evaluates the identifier at `index` and returns where evaluation continues.
    func identifier(_ index: Int, end: Int, into taint: inout Taint) -> Int {
        let token = tokens[index]
        let name = token.text
        // Most names are none of the sources below and carry nothing: one dictionary lookup says so. A variable is
        // looked up where it is a plain name (or `self.name`) and not a type's (capitalised) name.
        let info = self.info(token.name, name)
        let member = scan.isSymbol(index - 1, ".")
        if !claimsFunctions.isEmpty, taint.claims == nil, let origin = claimsFunctions[name],
            scan.isSymbol(index + 1, "(") || scan.file.language == .objectiveC && scan.isSymbol(index + 1, ":")
        {
            taint.claims = origin
        }
        let variable =
            (!member || scan.text(index - 2) == "self") && !(name.utf8.first.map { $0 >= 0x41 && $0 <= 0x5A } ?? true)
        // The URL of a sign-in model: authDetails.url, loginPage.url (Home Assistant's onboarding login).
        if taint.authorizationURL == nil, member, name == "url" || name == "URL", index >= 2,
            tokens[index - 2].kind == .identifier, Self.isAuthorizationName(tokens[index - 2].text + "URL")
        {
            taint.authorizationURL = origin("'\(tokens[index - 2].text).\(name)'", index)
        }
        if !info.special, info.names.isEmpty, !variable { return index + 1 }
        let isCall = scan.isSymbol(index + 1, "(")
        // Truncated UUIDs: UUID().uuidString.prefix(8)
        if member, ["prefix", "suffix", "dropLast", "dropFirst"].contains(name),
            scan.file.receiver(of: index).contains(where: { $0 == "uuidString" || $0 == "UUID" })
        {
            if taint.random == nil { taint.random = origin("a truncated UUID", index) }
            return skipCall(index)
        }
        // A whole UUID as the value (UUID().uuidString, [[NSUUID UUID] UUIDString], interpolated), not one passed to
        // a call that makes something else of it (`ViewState(id: UUID())`, `MapPin(id: UUID(), ...)`).
        if (name == "UUID" && isCall) || name == "uuidString" || name == "UUIDString", !isCallArgument(index) {
            if taint.uuid == nil { taint.uuid = origin("a UUID", index) }
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
        var boundToPublicToken = false
        if variable, let bound = self.taint(of: token.name, name, at: index) {
            boundToPublicToken = bound.publicToken && bound.secret == nil
            taint.merge(bound)
        }
        // `newValue` in the setter of a secret-named property: `var password: String { set { store(newValue) } }`.
        if taint.secret == nil, name == "newValue", variable, scan.file.language == .swift,
            let property = setterProperty(of: index), scan.isSecret(property)
        {
            taint.secret = origin("the new value of '\(property)'", index)
        }
        // A secure text field's text: passwordField.text, [self.pinField text]
        if name == "text", member || scan.file.language == .objectiveC {
            let owner = member ? scan.file.receiver(of: index).last ?? "" : scan.text(index - 1)
            if taint.secret == nil, scan.nameClass(owner, .secretField).contains(.secretField) {
                taint.secret = origin("the text of '\(owner)'", index)
            }
        }
        // A push or device token by its own name (`deviceToken`): what a variable bound to it carries.
        if variable, SecretNames.isPublicToken(name) { taint.publicToken = true }
        // A secret by its name, unless it labels a literal (`password: ""`) or is a declaration's type, or is the
        // `token` of a place (`room.token`, `self.conversation.token`: a conversation's identifier, as `roomToken`),
        // or a variable of this function bound to a device token (`let token = deviceToken.map { … }.joined()`).
        if taint.secret == nil, scan.isSecret(name), !labelsLiteral(index), !isPlaceToken(index, name, member: member),
            !boundToPublicToken
        {
            taint.secret = origin("'\(name)'", index)
        }
        return index + 1
    }

    func string(_ index: Int, end: Int, into taint: inout Taint) {
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

    /// The property whose `set { }` (or `willSet`/`didSet`) block holds `index`: `var NAME: T { get {...} set {...} }`.
    func setterProperty(of index: Int) -> String? {
        var open = Int(scan.file.enclosingBrace[index])
        // Out of closures in the setter, to the accessor's own brace.
        var depth = 0
        while open > 0, !["set", "willSet", "didSet"].contains(scan.text(open - 1)), depth < 8 {
            open = Int(scan.file.enclosingBrace[open])
            depth += 1
        }
        guard open > 0, ["set", "willSet", "didSet"].contains(scan.text(open - 1)) else { return nil }
        let body = Int(scan.file.enclosingBrace[open])
        // var password: String {  /  var password: String = "" {  (observers)
        var position = body - 1
        while position > 0, body - position < 24 {
            if scan.tokens[position].kind == .punctuation, ["{", "}", ";"].contains(scan.text(position)) { return nil }
            if scan.text(position) == "var", tokens[position + 1].kind == .identifier {
                return tokens[position + 1].text
            }
            position -= 1
        }
        return nil
    }

    /// Whether the identifier at `index` is an argument label of a literal value (`password: ""`, `token: nil`).
    func labelsLiteral(_ index: Int) -> Bool {
        guard scan.isSymbol(index + 1, ":") else { return false }
        // An Objective-C selector part whose argument is one literal: `encryptionKey:nil error:&error]` (the
        // expression would run on into the next part, which has no comma before it).
        if scan.file.language == .objectiveC, index + 3 < tokens.count, scan.isLiteral((index + 2)..<(index + 3)),
            scan.isSymbol(index + 3, "]") || tokens[index + 3].kind == .identifier && scan.isSymbol(index + 4, ":")
        {
            return true
        }
        return scan.isLiteral(scan.expression(from: index + 2))
    }

    /// The index after the call's closing parenthesis (or after the name when it is not called).
    func skipCall(_ index: Int) -> Int {
        if scan.isSymbol(index + 1, "("), scan.file.partner[index + 1] > index + 1 {
            return Int(scan.file.partner[index + 1]) + 1
        }
        return index + 1
    }

    /// The argument tokens of the call at `index`, or the Objective-C argument after `name:`.
    func callRange(_ index: Int) -> Range<Int> {
        if scan.isSymbol(index + 1, "("), scan.file.partner[index + 1] > index + 1 {
            return (index + 2)..<Int(scan.file.partner[index + 1])
        }
        if scan.isSymbol(index + 1, ":") { return scan.expression(from: index + 2) }
        return index..<index
    }

    func separatorIsDot(after index: Int) -> Bool {
        let range = callRange(index)
        if let literal = scan.firstString(in: range) { return literal == "." }
        // [token componentsSeparatedByString:@"."]
        return scan.isSymbol(index + 1, ":") && scan.text(index + 2) == "."
    }

    /// Whether the receiver of the call at `index` is a Keychain wrapper (`keychain.get`, `KeychainWrapper.standard`,
    /// `SAMKeychain`, `valet.string(forKey:)`).
    func isKeychainReceiver(_ index: Int) -> Bool {
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
                || FastText.contains(name, "endpoint", caseInsensitive: true)
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
}
