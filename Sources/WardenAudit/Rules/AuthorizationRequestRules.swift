/// The parameters of OAuth requests the app builds itself (query strings, `URLQueryItem`s, dictionaries): PKCE
/// missing or `plain`, no `state`, the implicit flow, the password grant.
struct AuthorizationRequestRules: Rule {
    static let withoutPKCE = RuleInfo(
        id: "oauth-without-pkce", severity: .warning, name: "Authorization request without PKCE",
        message: "Authorization code request without code_challenge: an intercepted code can be redeemed",
        fix: "Send code_challenge (S256) and code_challenge_method=S256 (Warden's AuthorizationRequest does).",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])
    static let pkcePlain = RuleInfo(
        id: "oauth-pkce-plain", severity: .error, name: "PKCE with the plain method",
        message: "code_challenge_method=plain sends the verifier itself: PKCE protects nothing",
        fix: "Use code_challenge_method=S256.", masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])
    static let withoutState = RuleInfo(
        id: "oauth-without-state", severity: .warning, name: "Authorization request without state",
        message: "Authorization request without state: forged responses (CSRF, mix-up) cannot be detected",
        fix: "Send a 256-bit random state and compare it in constant time (Warden's PendingAuthorization).",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])
    static let implicitFlow = RuleInfo(
        id: "oauth-implicit-flow", severity: .error, name: "Implicit flow (response_type=token)",
        message: "response_type=token returns tokens in the redirect URL (implicit flow, removed by OAuth 2.1)",
        fix: "Use the authorization code flow with PKCE.", masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])
    static let passwordGrant = RuleInfo(
        id: "oauth-password-grant", severity: .error, name: "Resource owner password grant",
        message: "grant_type=password: the app handles the user's password (removed by OAuth 2.1)",
        fix: "Use the authorization code flow with PKCE in the system browser.",
        masvs: ["MASVS-AUTH-1"], maswe: ["MASWE-0018"])

    var reports: [RuleInfo] {
        [Self.withoutPKCE, Self.pkcePlain, Self.withoutState, Self.implicitFlow, Self.passwordGrant]
    }
    var triggers: Triggers { Triggers(identifiers: ["URLQueryItem", "NSURLQueryItem"], strings: true) }

    func check(_ scan: FileScan, at index: Int) {
        let token = scan.tokens[index]
        if token.kind == .identifier {
            guard let item = scan.queryItem(at: index) else { return }
            if item.name == "response_type" || item.name == "grant_type" { request(scan, index) }
            return
        }
        let text = token.text
        let utf8 = text.utf8
        if utf8.contains(UInt8(ascii: "=")), !utf8.contains(UInt8(ascii: " ")),
            FastText.contains(text, "response_type=", caseInsensitive: true)
                || FastText.contains(text, "grant_type=", caseInsensitive: true)
        {
            request(scan, index)
        } else if text == "response_type" || text == "grant_type", scan.isSymbol(index + 1, ":") {
            request(scan, index)  // a ["response_type": "code"] dictionary
        } else if text == "response_type" || text == "grant_type", scan.isSymbol(index - 1, ":"), index >= 3,
            scan.text(index - 2) == "name", scan.text(index - 3) == "(", scan.text(index - 4) == "init"
        {
            request(scan, index)  // an implicit `.init(name: "response_type", value: "code")` query item
        }
    }

    /// Query parameters named in the function around `index`: query strings in literals, URLQueryItem calls,
    /// and `"name": "value"` dictionary entries.
    static func parameters(_ scan: FileScan, around index: Int) -> (
        range: ClosedRange<Int>, items: [(String, String?, Int)]
    ) {
        let body = scan.file.enclosingFunction(of: index) ?? 0...(scan.tokens.count - 1)
        var items: [(String, String?, Int)] = []
        for position in body {
            let token = scan.tokens[position]
            if token.kind == .string, FastText.contains(token.text, "="), !FastText.contains(token.text, " ") {
                // A query string or URL (no spaces): name=value pairs with a value.
                for pair in token.text.split(whereSeparator: { $0 == "&" || $0 == "?" }) {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, !parts[1].isEmpty else { continue }
                    items.append((String(parts[0]), String(parts[1]), position))
                }
            } else if token.kind == .identifier || token.text == "init", let item = scan.queryItem(at: position) {
                items.append((item.name, item.value.flatMap(scan.firstString(in:)), position))
            } else if token.kind == .string, scan.isSymbol(position + 1, ":"), position + 2 <= body.upperBound {
                let value = scan.tokens[position + 2].kind == .string ? scan.tokens[position + 2].text : nil
                items.append((token.text, value, position))
            }
        }
        return (body, items)
    }

    func request(_ scan: FileScan, _ index: Int) {
        let (body, items) = Self.parameters(scan, around: index)
        guard scan.once("oauth-request \(body.lowerBound)") else { return }
        let names = Set(items.map { $0.0 })
        if let grant = items.first(where: { $0.0 == "grant_type" && $0.1 == "password" }) {
            scan.report(Self.passwordGrant, at: grant.2)
        }
        guard let responseType = items.first(where: { $0.0 == "response_type" }) else { return }
        let value = responseType.1 ?? "code"
        let types = value.replacingOccurrences(of: "%20", with: " ").replacingOccurrences(of: "+", with: " ")
        if types.split(separator: " ").contains("token") {
            scan.report(Self.implicitFlow, at: responseType.2)
            return
        }
        if let method = items.first(where: { $0.0 == "code_challenge_method" }), method.1?.lowercased() == "plain" {
            scan.report(Self.pkcePlain, at: method.2)
        } else if !names.contains("code_challenge") {
            scan.report(Self.withoutPKCE, at: responseType.2)
        }
        if !names.contains("state") { scan.report(Self.withoutState, at: responseType.2) }
    }
}
