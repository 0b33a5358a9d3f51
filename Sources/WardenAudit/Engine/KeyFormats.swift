import Foundation

/// Well-known credential formats found in string literals, matched without regular expressions (prefix, then
/// a character class and a length) so that scanning stays fast.
enum KeyFormats {
    private struct Format: Sendable {
        let prefix: String
        let name: String
        let minimumBody: Int
        let maximumBody: Int
        let body: @Sendable (Character) -> Bool
        let prefixBytes: [UInt8]

        init(
            prefix: String, name: String, minimumBody: Int, maximumBody: Int,
            body: @escaping @Sendable (Character) -> Bool
        ) {
            self.prefix = prefix
            self.name = name
            self.minimumBody = minimumBody
            self.maximumBody = maximumBody
            self.body = body
            prefixBytes = Array(prefix.utf8)
        }
    }

    private static func alphanumeric(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber) }
    private static func upperAlphanumeric(_ c: Character) -> Bool { c.isASCII && (c.isUppercase || c.isNumber) }
    private static func urlSafe(_ c: Character) -> Bool { alphanumeric(c) || c == "-" || c == "_" }

    private static let formats: [Format] = [
        Format(prefix: "AKIA", name: "AWS access key ID", minimumBody: 16, maximumBody: 16, body: upperAlphanumeric),
        Format(
            prefix: "ASIA", name: "AWS temporary access key ID", minimumBody: 16, maximumBody: 16,
            body: upperAlphanumeric),
        Format(
            prefix: "ghp_", name: "GitHub personal access token", minimumBody: 36, maximumBody: 36, body: alphanumeric),
        Format(prefix: "gho_", name: "GitHub OAuth token", minimumBody: 36, maximumBody: 36, body: alphanumeric),
        Format(prefix: "ghs_", name: "GitHub server token", minimumBody: 36, maximumBody: 36, body: alphanumeric),
        Format(
            prefix: "github_pat_", name: "GitHub fine-grained token", minimumBody: 60, maximumBody: 100, body: urlSafe),
        Format(prefix: "sk_live_", name: "Stripe secret key", minimumBody: 24, maximumBody: 120, body: alphanumeric),
        Format(
            prefix: "rk_live_", name: "Stripe restricted key", minimumBody: 24, maximumBody: 120, body: alphanumeric),
        Format(prefix: "AIza", name: "Google API key", minimumBody: 35, maximumBody: 35, body: urlSafe),
        Format(prefix: "xoxb-", name: "Slack bot token", minimumBody: 20, maximumBody: 120, body: { urlSafe($0) }),
        Format(prefix: "xoxp-", name: "Slack user token", minimumBody: 20, maximumBody: 120, body: { urlSafe($0) }),
        Format(prefix: "glpat-", name: "GitLab personal access token", minimumBody: 20, maximumBody: 20, body: urlSafe),
        Format(prefix: "sk-ant-", name: "Anthropic API key", minimumBody: 32, maximumBody: 200, body: urlSafe),
        Format(
            prefix: "SG.", name: "SendGrid API key", minimumBody: 60, maximumBody: 80,
            body: { urlSafe($0) || $0 == "." }),
    ]

    /// The name of the credential format `text` contains, if any.
    static func match(_ text: String) -> String? {
        if FastText.contains(text, "-----BEGIN"), let marker = text.range(of: "PRIVATE KEY-----") {
            // A key has a body after its armor; the armor line alone is a parser's constant.
            let body = text[marker.upperBound...].replacingOccurrences(of: "\\n", with: "")
            guard body.contains(where: { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" }) else { return nil }
            return "private key (PEM)"
        }
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard bytes.count >= 20 else { return nil }
            // One pass: only positions whose byte starts some prefix are tried.
            for position in 0..<bytes.count {
                for index in byFirstByte[Int(bytes[position])] {
                    let format = formats[index]
                    let prefix = format.prefixBytes
                    guard position + prefix.count <= bytes.count,
                        (0..<prefix.count).allSatisfy({ bytes[position + $0] == prefix[$0] })
                    else { continue }
                    let bodyStart = position + prefix.count
                    var bodyEnd = bodyStart
                    while bodyEnd < bytes.count, bodyEnd - bodyStart <= format.maximumBody,
                        format.body(Character(UnicodeScalar(bytes[bodyEnd])))
                    {
                        bodyEnd += 1
                    }
                    let length = bodyEnd - bodyStart
                    let boundary = position == 0 || !urlSafe(Character(UnicodeScalar(bytes[position - 1])))
                    if length >= format.minimumBody, length <= format.maximumBody, boundary { return format.name }
                }
            }
            return nil
        }
    }

    /// The formats whose prefix starts with each byte, indexed by the byte (a table, not a hash per byte read).
    private static let byFirstByte: [[Int]] = {
        var table = [[Int]](repeating: [], count: 256)
        for (index, format) in formats.enumerated() { table[Int(format.prefixBytes[0])].append(index) }
        return table
    }()

    /// Whether a literal stored under a secret name looks like a real secret rather than a key name, a
    /// placeholder, a path, a date, a message or a public identifier: long enough, not made of words, and random
    /// enough (Shannon entropy of at least 3 bits per character, less for short values).
    static func looksLikeSecretValue(_ text: String) -> Bool {
        let count = text.count
        guard count >= 8, count <= 4096 else { return false }
        if text.contains(where: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\u{FFFC}" || $0 == "%" }) {
            return false
        }
        let lower = text.lowercased()
        let placeholders = [
            "your", "placeholder", "example", "changeme", "xxxx", "****", "<", "${", "$(", "{{", "todo", "dummy",
            "insert", "redacted", "replace",
        ]
        if placeholders.contains(where: { FastText.contains(lower, $0) }) { return false }
        // URLs, and publishable keys that are public by design (Stripe pk_, Mapbox pk., PostHog's project keys phc_,
        // which its documentation says are safe in client code; its personal keys are phx_).
        if FastText.contains(lower, "://") || lower.hasPrefix("pk_live_") || lower.hasPrefix("pk_test_")
            || lower.hasPrefix("pk.")
            || lower.hasPrefix("phc_")
        {
            return false
        }
        // Key names, paths, dates and versions: every part a word, a word with a short number, or a short number
        // ("authToken", "user_password", "com.example.token", "auth/reset_password", "2024-01-01", "password-v2").
        let parts = text.split(whereSeparator: { "._-/:".contains($0) })
        if parts.allSatisfy(isWordLike) { return false }
        return entropy(text) >= min(3.0, log2(Double(count)) - 0.5)
    }

    private static func isWordLike(_ part: Substring) -> Bool {
        let letters = part.prefix { $0.isLetter }
        let rest = part.dropFirst(letters.count)
        if rest.isEmpty { return true }
        if rest.allSatisfy(\.isNumber) { return letters.isEmpty ? rest.count <= 4 : rest.count <= 2 }
        return false
    }

    /// Shannon entropy in bits per character.
    static func entropy(_ text: String) -> Double {
        var counts: [Unicode.Scalar: Int] = [:]
        var total = 0
        for scalar in text.unicodeScalars {
            counts[scalar, default: 0] += 1
            total += 1
        }
        guard total > 0 else { return 0 }
        return counts.values.reduce(0) { sum, count in
            let p = Double(count) / Double(total)
            return sum - p * log2(p)
        }
    }
}
