/// Removes secrets from text that leaves the process: logs, error reports, diagnostics.
///
/// One pass over the UTF-8 bytes finds and replaces:
/// - sensitive `name=value` parameters in URL queries, fragments and form bodies (`code`, `state`,
///   `access_token`, `id_token`, `refresh_token`, `client_secret`, `code_verifier`, `password`, `token`,
///   `assertion`, `oauth_token`, `oauth_signature`, `oauth_verifier`, case-insensitive);
/// - URL userinfo (`https://user:pass@host`);
/// - sensitive HTTP header lines (`Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `DPoP`,
///   `X-Api-Key`), keeping the auth scheme (`Bearer`);
/// - JSON members with the same sensitive names at any depth;
/// - JWT-shaped strings and long high-entropy strings anywhere in free text.
///
/// Redaction keeps enough to debug: parameter names, the auth scheme, and at most the last 4 characters of long
/// values (``Options/keepLastCharacters``, 0 keeps none).
///
/// ```swift
/// let safe = Redactor.standard.redact("GET /cb?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj")
/// // "GET /cb?code=<redacted …SbIA>&state=<redacted>"
/// ```
///
/// Thread-safety: immutable, `Sendable`.
public struct Redactor: Sendable {
    /// What to redact and how much to keep.
    public struct Options: Sendable {
        /// Trailing characters kept from values of at least 16 characters (0...4).
        public var keepLastCharacters: Int
        /// Parameter and JSON member names whose values are secret (compared case-insensitively).
        public var sensitiveNames: Set<String>
        /// Header names whose values are secret (case-insensitive).
        public var sensitiveHeaders: Set<String>
        /// The minimum length of a free-text run considered a high-entropy secret.
        public var highEntropyMinimumLength: Int

        /// The defaults described on ``Redactor``.
        public init(
            keepLastCharacters: Int = 4, sensitiveNames: Set<String> = Redactor.defaultSensitiveNames,
            sensitiveHeaders: Set<String> = Redactor.defaultSensitiveHeaders, highEntropyMinimumLength: Int = 32
        ) {
            self.keepLastCharacters = max(0, min(4, keepLastCharacters))
            self.sensitiveNames = sensitiveNames
            self.sensitiveHeaders = sensitiveHeaders
            self.highEntropyMinimumLength = max(16, highEntropyMinimumLength)
        }
    }

    /// Parameter names redacted by default.
    public static let defaultSensitiveNames: Set<String> = [
        "code", "state", "nonce", "access_token", "id_token", "refresh_token", "client_secret", "code_verifier",
        "password", "token", "assertion", "client_assertion", "oauth_token", "oauth_token_secret", "oauth_signature",
        "oauth_verifier", "secret", "api_key", "apikey", "authorization", "session", "otp", "pin", "private_key",
        "subject_token", "device_code", "user_code", "logout_token", "dpop",
    ]

    /// Header names redacted by default.
    public static let defaultSensitiveHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "dpop", "x-api-key",
    ]

    /// The default redactor.
    public static let standard = Redactor()

    let options: Options
    let names: NameTable
    let headers: NameTable

    /// A redactor with `options`.
    public init(options: Options = Options()) {
        self.options = options
        names = NameTable(options.sensitiveNames)
        headers = NameTable(options.sensitiveHeaders)
    }

    /// `text` with every secret replaced.
    public func redact(_ text: String) -> String {
        var contiguous = text
        contiguous.makeContiguousUTF8()
        let original = contiguous
        return contiguous.withUTF8 { input in
            var scanner = RedactionScanner(input: input, original: original, redactor: self)
            return scanner.run()
        }
    }

    /// Header values redacted by name (the value of a sensitive header keeps only its auth scheme).
    public func redact(headers: [String: String]) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in headers {
            if self.headers.contains(Array(name.utf8)) {
                result[name] = redactHeaderValue(value)
            } else {
                result[name] = redact(value)
            }
        }
        return result
    }

    func redactHeaderValue(_ value: String) -> String {
        let trimmed = value.drop { $0 == " " }
        if let space = trimmed.firstIndex(of: " "), RedactionScanner.isScheme(Array(trimmed[..<space].utf8)) {
            let secret = String(trimmed[trimmed.index(after: space)...])
            return String(trimmed[..<space]) + " " + placeholder(for: Array(secret.utf8))
        }
        return placeholder(for: Array(trimmed.utf8))
    }

    /// The replacement for a secret value.
    func placeholder(for value: some Collection<UInt8>) -> String {
        let keep = options.keepLastCharacters
        guard keep > 0, value.count >= 16 else { return "<redacted>" }
        let tail = value.suffix(keep)
        guard tail.allSatisfy({ $0 >= 0x21 && $0 < 0x7F && $0 != UInt8(ascii: ">") }) else { return "<redacted>" }
        return "<redacted …" + String(decoding: tail, as: UTF8.self) + ">"
    }
}

/// Lower-cased ASCII names bucketed by length for allocation-free lookups.
struct NameTable: Sendable {
    private var buckets: [[[UInt8]]] = Array(repeating: [], count: 33)

    init(_ names: Set<String>) {
        for name in names {
            let bytes = Array(name.lowercased().utf8)
            if bytes.count < buckets.count { buckets[bytes.count].append(bytes) }
        }
    }

    func contains(_ candidate: some Collection<UInt8>) -> Bool {
        let count = candidate.count
        guard count > 0, count < buckets.count else { return false }
        outer: for name in buckets[count] {
            var index = candidate.startIndex
            for byte in name {
                let c = candidate[index]
                let lower = (c >= 65 && c <= 90) ? c | 0x20 : c
                if lower != byte { continue outer }
                index = candidate.index(after: index)
            }
            return true
        }
        return false
    }
}
