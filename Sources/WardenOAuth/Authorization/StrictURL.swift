/// A deliberately small URL splitter for security decisions: it never normalises, never guesses, and refuses
/// anything ambiguous (control characters, spaces, backslashes, non-ASCII). Components are kept exactly as
/// written so that comparisons are component-wise and exact.
struct StrictURL: Hashable, Sendable {
    let scheme: String  // lower-cased
    let hasAuthority: Bool  // "//" after the scheme
    let userinfo: String?
    let host: String  // as written (case preserved); empty without authority
    let port: Int?
    let path: String
    let query: String?
    let fragment: String?

    static let maximumLength = 8 * 1024

    init(_ text: String) throws(OAuthError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumLength else { throw OAuthError(.responseTooLarge, "URL over 8 KiB") }
        for c in bytes where c <= 0x20 || c >= 0x7F || c == UInt8(ascii: "\\") {
            throw OAuthError(.malformedResponse, "URL contains a control character, space, backslash or non-ASCII byte")
        }
        guard let colon = text.firstIndex(of: ":") else { throw OAuthError(.malformedResponse, "URL without a scheme") }
        let scheme = String(text[..<colon])
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else { throw OAuthError(.malformedResponse, "invalid URL scheme") }
        self.scheme = scheme.lowercased()
        var rest = text[text.index(after: colon)...]
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        } else {
            fragment = nil
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        } else {
            query = nil
        }
        if rest.hasPrefix("//") {
            hasAuthority = true
            rest = rest.dropFirst(2)
            let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
            var authority = rest[..<authorityEnd]
            path = String(rest[authorityEnd...])
            if let at = authority.lastIndex(of: "@") {
                userinfo = String(authority[..<at])
                authority = authority[authority.index(after: at)...]
            } else {
                userinfo = nil
            }
            if authority.hasPrefix("[") {
                guard let close = authority.firstIndex(of: "]") else {
                    throw OAuthError(.malformedResponse, "bad IPv6 host")
                }
                host = String(authority[...close])
                let after = authority[authority.index(after: close)...]
                port = try Self.port(after.isEmpty ? nil : after)
            } else if let portColon = authority.lastIndex(of: ":") {
                host = String(authority[..<portColon])
                port = try Self.port(authority[portColon...])
            } else {
                host = String(authority)
                port = nil
            }
            guard !host.isEmpty else { throw OAuthError(.malformedResponse, "URL without a host") }
        } else {
            hasAuthority = false
            userinfo = nil
            host = ""
            port = nil
            path = String(rest)
        }
    }

    private static func port(_ text: Substring?) throws(OAuthError) -> Int? {
        guard let text else { return nil }
        guard text.hasPrefix(":") else { throw OAuthError(.malformedResponse, "bad port") }
        let digits = text.dropFirst()
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy(\.isASCII), let value = Int(digits), value <= 65535
        else { throw OAuthError(.malformedResponse, "bad port") }
        return value
    }

    /// The path has a `.` or `..` segment, literally or percent-encoded.
    var hasDotSegment: Bool {
        path.split(separator: "/", omittingEmptySubsequences: false).contains { segment in
            let lower = segment.lowercased().replacingOccurrences(of: "%2e", with: ".")
            return lower == "." || lower == ".."
        }
    }

    /// RFC 8252 §7.3 loopback IP literal, by the one predicate every check uses.
    var isLoopbackIPLiteral: Bool { LoopbackHost.isLoopback(host: host) }
}
