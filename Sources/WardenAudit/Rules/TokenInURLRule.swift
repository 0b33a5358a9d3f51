/// Tokens and secrets sent in a URL query: query strings with `access_token=`/`api_key=`/`password=`..., and
/// `URLQueryItem`/`NSURLQueryItem` with such a name (unless the function builds a form body).
struct TokenInURLRule: Rule {
    static let tokenInURL = RuleInfo(
        id: "token-in-url", severity: .error, name: "Token in a URL query",
        message: "A token or secret is sent in a URL query, where proxies, logs and referrers keep it",
        fix: "Send tokens in the Authorization header (Bearer) or a POST body.",
        masvs: ["MASVS-AUTH-1", "MASVS-STORAGE-2"], maswe: ["MASWE-0005"])

    var reports: [RuleInfo] { [Self.tokenInURL] }
    var triggers: Triggers { Triggers(identifiers: ["URLQueryItem", "NSURLQueryItem"], strings: true) }

    static let parameters: Set<String> = [
        "access_token", "id_token", "token", "refresh_token", "api_key", "apikey", "password", "client_secret",
        "session_id", "jwt", "auth_token", "passwd",
    ]
    static let markers = ["token=", "api_key=", "apikey=", "password=", "client_secret=", "jwt=", "session_id="]

    func check(_ scan: FileScan, at index: Int) {
        let token = scan.tokens[index]
        if token.kind == .string {
            queryString(scan, index, token.text)
            return
        }
        guard let item = scan.queryItem(at: index),
            Self.parameters.contains(item.name.lowercased()) || Self.carriesKey(scan, item.value)
        else { return }
        // `'apiKey' (as 'key')` when the value names what the parameter does not.
        let name =
            Self.parameters.contains(item.name.lowercased())
            ? "'\(item.name)'" : "'\(item.value.map { scan.text($0.upperBound - 1) } ?? "")' (as '\(item.name)')"
        // URLComponents also builds form bodies; a function that sets the body, names it a body or a form, or sends
        // a grant_type (a token request is always a POST body) is not putting it in a URL.
        let body = scan.scopeRange(of: index)
        if !formBody(scan, body) {
            scan.report(
                Self.tokenInURL, at: index, "\(name) is sent in a URL query, where proxies, logs and referrers keep it")
        }
    }

    /// A value named as an API key, access token or secret (`URLQueryItem(name: "key", value: apiKey)`, MapTiler's
    /// form), whatever the parameter is called.
    static func carriesKey(_ scan: FileScan, _ value: Range<Int>?) -> Bool {
        // apiKey, self.apiKey, config.apiKey: a plain member chain.
        guard let value, !value.isEmpty, value.count <= 7, scan.tokens[value.upperBound - 1].kind == .identifier,
            value.allSatisfy({
                [.identifier, .keyword].contains(scan.tokens[$0].kind) || scan.isSymbol($0, ".")
                    || scan.isSymbol($0, "->")
            })
        else { return false }
        let name = scan.text(value.upperBound - 1)
        guard scan.isSecret(name), let last = SecretNames.words(name).last else { return false }
        return ["key", "token", "secret", "password"].contains(last)
    }

    private func formBody(_ scan: FileScan, _ range: Range<Int>) -> Bool {
        scan.memo("form-body \(range.lowerBound)") {
            range.contains { position in
                let token = scan.tokens[position]
                // A token request is a POST body. (A "POST" alone says nothing: a POST's URL can carry a query too.)
                if token.kind == .string { return token.text == "grant_type" }
                guard token.kind == .identifier else { return false }
                if ["httpBody", "HTTPBody", "setHTTPBody", "percentEncodedQuery"].contains(token.text) { return true }
                // `components.query?.data(using: .utf8)`: the encoded query turned into bytes, a form body.
                if token.text == "query", scan.isSymbol(position - 1, "."),
                    (position + 1...position + 3).contains(where: { scan.text($0) == "data" })
                {
                    return true
                }
                return FastText.contains(token.text, "body", caseInsensitive: true)
                    || FastText.contains(token.text, "form", caseInsensitive: true)
                        && SecretNames.words(token.text).contains("form")
            }
        }
    }

    /// `"https://api.example.com/me?access_token=\(token)"`: a query (after `?`) with a token parameter.
    private func queryString(_ scan: FileScan, _ index: Int, _ text: String) {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "=")), utf8.contains(UInt8(ascii: "?")), !utf8.contains(UInt8(ascii: " ")),
            Self.markers.contains(where: { FastText.contains(text, $0, caseInsensitive: true) })
        else { return }
        let lower = text.lowercased()
        guard let question = lower.firstIndex(of: "?") else { return }
        for pair in lower[lower.index(after: question)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let name = parts.first.map(String.init) ?? ""
            if Self.parameters.contains(name) {
                scan.report(
                    Self.tokenInURL, at: index,
                    "'\(name)' is sent in a URL query, where proxies, logs and referrers keep it")
                return
            }
        }
    }
}
