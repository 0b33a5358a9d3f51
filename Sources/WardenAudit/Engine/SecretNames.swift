/// Decides whether a variable name or storage key names a secret, word by word (`accessToken` → access, token;
/// `APIKey` → api, key; `auth_token` → auth, token), so that `tokenizer`, `spinner` or `pinnedHeader` do not match
/// and `tokenKey` (the name of a key), `hasToken` (a flag) or `passwordField` (a view) are not secrets.
package enum SecretNames {
    static let secretWords: Set<String> = [
        "token", "tokens", "password", "passwords", "passwd", "pwd", "secret", "secrets", "pin", "otp", "totp", "jwt",
        "credential", "credentials", "passcode", "apikey", "cookie", "cookies", "privatekey", "bearer", "sessionid",
        "sessiontoken", "cvv", "refreshtoken", "accesstoken", "creds", "pw", "pskc",
    ]
    static let secretPairs: Set<String> = [
        "api key", "private key", "session id", "session key", "session cookie", "session token", "client secret",
        "secret key", "access key", "signing key", "encryption key", "master key", "auth code", "auth key",
        // Thread: the active operational dataset holds the network key and PSKc (Thread 1.3.0 §8.10.1), which let
        // a device join the mesh; Wi-Fi calls its passphrase the network key too.
        "network key", "operational dataset",
    ]
    static let flagPrefixes: Set<String> = [
        "is", "has", "should", "can", "did", "will", "needs", "show", "shows", "requires", "uses", "enable",
        "enabled", "allow", "allows",
    ]
    static let metadataSuffixes: Set<String> = [
        "key", "keys", "label", "field", "button", "view", "url", "endpoint", "expiry", "expiration", "expires",
        "date", "count", "length", "type", "hint", "placeholder", "title", "prompt", "valid", "required", "policy",
        "manager", "store", "provider", "service", "hash", "digest", "name", "path", "header", "prefix", "format",
        "style", "enabled", "timeout", "request", "response", "error", "status", "regex", "pattern", "validator",
        "controller", "cell", "id", "identifier", "lifetime", "ttl", "age", "kind", "mode", "strength", "rule",
        "rules", "requirements", "reset", "changed", "handler", "delegate", "param", "parameter", "attempts",
        "description", "color", "colour", "latitude", "longitude", "lat", "lng", "lon", "coordinate", "coordinates",
        "location", "annotation", "image", "icon", "tint", "size", "font", "width", "height", "offset", "position",
        "point", "radius", "index", "animation", "layer", "marker", "event", "events", "notification", "screen",
        "page", "section", "segue", "route", "action", "tag", "analytics", "cache", "config", "configuration", "flag",
        "toggle", "message", "localized", "db", "database", "table", "dao", "repository", "client",
        "api", "file", "directory", "folder", "queue", "lock", "task", "operation", "publisher", "subject",
        "observer", "menu", "sheet", "alert", "scene", "coordinator", "router", "factory",
        "builder", "parser", "encoder", "decoder", "formatter", "mapper", "adapter", "test", "tests", "mock", "stub",
        "username", "user", "email", "phone", "domain", "host",
    ]
    /// Words that say the value is protected (encrypted, hashed) rather than the secret itself.
    static let protectedWords: Set<String> = [
        "encrypted", "ciphertext", "cipher", "sealed", "hashed", "wrapped", "obfuscated", "redacted", "masked",
    ]
    /// Words next to `pin` that make it a map pin or a certificate pin (public data), not a PIN.
    static let publicPinWords: Set<String> = [
        "map", "marker", "annotation", "location", "drop", "dropped", "cert", "certificate", "certificates", "ssl",
        "tls", "spki", "public", "sha256", "hash", "hashes", "pins", "set", "pinning", "trust", "host", "domain",
    ]
    /// Words next to `token` that make it an identifier that is not a credential: push and device tokens,
    /// pagination and cancellation tokens, the tokens that register a handler or listener (`socketHandlerToken`).
    static let publicTokenWords: Set<String> = [
        "device", "push", "fcm", "apns", "voip", "page", "next", "cancellation", "cancel", "sync", "continuation",
        "pagination", "cursor", "registration", "notification", "lexer", "parser", "syntax", "change", "resume",
        "observer", "observation", "subscription", "handler", "listener",
    ]
    /// Words right before `token` that make it the name of a place (`roomToken`: Nextcloud Talk's conversation
    /// identifier), unlike `roomAccessToken`.
    static let placeTokenWords: Set<String> = ["room", "conversation"]

    /// Lower-cased words of an identifier or key.
    package static func words(_ name: String) -> [String] {
        name.utf8.allSatisfy({ $0 < 0x80 }) ? asciiWords(name) : characterWords(name)
    }

    /// ``words(_:)`` by `Character` (any script).
    package static func characterWords(_ name: String) -> [String] {
        var words: [String] = []
        var current: [Character] = []
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if !(character.isLetter || character.isNumber) {
                if !current.isEmpty { words.append(String(current).lowercased()) }
                current = []
                continue
            }
            if character.isUppercase, !current.isEmpty {
                let previousLower = current.last!.isLowercase || current.last!.isNumber
                let nextLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previousLower || (nextLower && current.last!.isUppercase) {
                    words.append(String(current).lowercased())
                    current = []
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(String(current).lowercased()) }
        return words
    }

    /// ``words(_:)`` for an ASCII name, by byte: the same words as ``characterWords(_:)`` without the Unicode
    /// property lookups of each `Character` (most names are ASCII).
    static func asciiWords(_ name: String) -> [String] {
        @inline(__always) func isUpper(_ byte: UInt8) -> Bool { byte >= 65 && byte <= 90 }
        @inline(__always) func isLower(_ byte: UInt8) -> Bool { byte >= 97 && byte <= 122 }
        @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        var words: [String] = []
        var name = name
        name.withUTF8 { bytes in
            func word(_ range: Range<Int>) -> String {
                String(unsafeUninitializedCapacity: range.count) { buffer in
                    for (offset, index) in range.enumerated() {
                        buffer[offset] = isUpper(bytes[index]) ? bytes[index] | 0x20 : bytes[index]
                    }
                    return range.count
                }
            }
            var start = -1
            for index in bytes.indices {
                let byte = bytes[index]
                guard isUpper(byte) || isLower(byte) || isDigit(byte) else {
                    if start >= 0 { words.append(word(start..<index)) }
                    start = -1
                    continue
                }
                if start < 0 {
                    start = index
                } else if isUpper(byte) {
                    let last = bytes[index - 1]
                    let nextLower = index + 1 < bytes.count && isLower(bytes[index + 1])
                    if isLower(last) || isDigit(last) || (nextLower && isUpper(last)) {
                        words.append(word(start..<index))
                        start = index
                    }
                }
            }
            if start >= 0 { words.append(word(start..<bytes.count)) }
        }
        return words
    }

    /// Word stems without which no name can be a secret (a byte-level filter before splitting into words).
    static let secretStems = [
        "token", "pass", "secret", "pin", "otp", "jwt", "cred", "key", "cookie", "bearer", "session", "cvv", "pwd",
        "auth", "pw", "dataset", "pskc",
    ]
    static let randomStems = secretStems + ["state", "nonce", "verifier", "salt", "iv", "seed", "challenge", "code"]
    static let secretStemSet = StemSet(secretStems)
    static let randomStemSet = StemSet(randomStems)
    /// The last words of a name whose value must come from a cryptographic random source.
    static let randomWords: Set<String> = [
        "state", "nonce", "verifier", "salt", "iv", "key", "secret", "token", "otp", "pin", "password", "challenge",
        "seed",
    ]
    /// The words before `code` that make it a one-time code: resetCode, verificationCode, smsCode (not statusCode
    /// or countryCode).
    static let oneTimeCodeWords: Set<String> = [
        "reset", "verification", "verify", "confirmation", "confirm", "sms", "otp", "login", "auth", "access",
        "recovery", "backup", "invite", "pairing", "unlock", "security", "one", "passcode",
    ]
    static let unguessableWords: Set<String> = [
        "state", "nonce", "verifier", "challenge", "secret", "password", "passcode", "pin", "otp", "code",
    ]

    /// Whether `name` (a variable, property or storage key) names a secret.
    package static func isSecret(_ name: String) -> Bool {
        guard secretStemSet.occurs(in: name) else { return false }
        return isSecret(name, words: words(name))
    }

    /// ``isSecret(_:)`` for a name that has a secret stem, split into `words`.
    private static func isSecret(_ name: String, words: [String]) -> Bool {
        // Framework constants that name a kind of secret, not one: kSecClassGenericPassword, UITextContentTypePassword.
        if name.hasPrefix("kSec") || name.hasPrefix("UITextContentType") || name.hasPrefix("NSURLCredential") {
            return false
        }
        guard let last = words.last else { return false }
        if let first = words.first, flagPrefixes.contains(first), words.count > 1 { return false }
        if words.count >= 2, secretPairs.contains(words[words.count - 2] + " " + last) { return true }
        if metadataSuffixes.contains(last), words.count > 1 { return false }
        // encryptedToken, tokenCiphertext, hashedPassword: what is kept is not the secret.
        if words.contains(where: protectedWords.contains) { return false }
        let secrets = words.filter(secretWords.contains)
        if secrets.allSatisfy({ $0 == "pin" }), words.contains(where: publicPinWords.contains) { return false }
        if secrets.allSatisfy({ $0 == "token" || $0 == "tokens" }), words.contains(where: publicTokenWords.contains) {
            return false
        }
        if last == "token" || last == "tokens", words.count >= 2, placeTokenWords.contains(words[words.count - 2]) {
            return false
        }
        if !secrets.isEmpty { return true }
        // `pass` alone (or `userPass`) is a password; `boardingPass` or a PassKit `pass` is not named so.
        if last == "pass", words.count == 1 || ["user", "login", "account", "my", "new", "old"].contains(words[0]) {
            return true
        }
        return zip(words, words.dropFirst()).contains { secretPairs.contains($0 + " " + $1) }
    }

    /// Whether `name` holds the *names* of secrets rather than secrets (`thirdPartyCookieNames`, `tokenHeaderName`,
    /// `passwordFields`): its last word says so.
    package static func namesSecrets(_ name: String) -> Bool {
        words(name).last.map { secretNameWords.contains($0) } ?? false
    }

    static let secretNameWords: Set<String> = [
        "name", "names", "label", "labels", "header", "headers", "field", "fields", "param", "params", "parameter",
        "parameters", "identifier", "identifiers",
    ]

    /// Whether `name` is a token that is an identifier by its own words (`socketHandlerToken`, `deviceToken`,
    /// `nextPageToken`), not a credential.
    package static func isPublicToken(_ name: String) -> Bool { isPublicToken(words: words(name)) }

    private static func isPublicToken(words: [String]) -> Bool {
        guard let last = words.last, last == "token" || last == "tokens" else { return false }
        return words.contains(where: publicTokenWords.contains)
    }

    /// Whether `name` needs a value nobody can guess, as opposed to one that is only unique: a state, nonce, PKCE
    /// verifier or challenge, CSRF token, secret, password, PIN or one-time code — what RFC 9562 §8 says a UUID MUST
    /// NOT be (a security capability). Not other tokens (apps call their generation and resolver markers tokens:
    /// `connectionToken = UUID()`), keys, salts, IVs or seeds: a UUID there is unique enough or not the point.
    package static func needsUnguessable(_ name: String) -> Bool {
        guard randomStemSet.occurs(in: name) else { return false }
        let words = words(name)
        guard needsSecureRandom(name, words: words), let last = words.last else { return false }
        return unguessableWords.contains(last) || words.contains("csrf") || words.contains("xsrf")
            || words.contains("authenticity")
    }

    /// Names that must come from a cryptographic random source: state, nonce, verifier, salt, IV, keys, secrets.
    package static func needsSecureRandom(_ name: String) -> Bool {
        guard randomStemSet.occurs(in: name) else { return false }
        return needsSecureRandom(name, words: words(name))
    }

    /// ``needsSecureRandom(_:)`` for a name that has a random stem, split into `words`.
    private static func needsSecureRandom(_ name: String, words: [String]) -> Bool {
        guard let last = words.last else { return false }
        if let first = words.first, flagPrefixes.contains(first), words.count > 1 { return false }
        // A handler's, a page's or a device's token is an identifier: only its uniqueness matters.
        if isPublicToken(words: words) { return false }
        if last == "code", words.count > 1, oneTimeCodeWords.contains(words[words.count - 2]) { return true }
        return randomWords.contains(last) || (secretStemSet.occurs(in: name) && isSecret(name, words: words))
    }
}
