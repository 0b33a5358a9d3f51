/// Sign-in pages in embedded browsers (`WKWebView.load`, `SFSafariViewController`, Objective-C `loadRequest:`
/// and `initWithURL:`) when the URL is an authorization URL, however it was built (a literal, concatenation,
/// `URLComponents` with `response_type`/`redirect_uri`/`code_challenge` query items, a `URLRequest`); any page loaded
/// in a sign-in web view disguised as Safari (``disguise(_:)``); and `UIWebView` anywhere.
struct WebViewRules: Rule {
    static let oauthInWebView = RuleInfo(
        id: "oauth-in-webview", severity: .error, name: "Sign-in page in an embedded web view",
        message: "An authorization URL is loaded in an embedded web view: the app can read the user's credentials",
        fix:
            "Use ASWebAuthenticationSession (Warden's WebAuthenticationAgent) so the sign-in runs in the system browser.",
        masvs: ["MASVS-AUTH-1", "MASVS-PLATFORM-2"], maswe: ["MASWE-0018", "MASWE-0019"])
    static let uiWebView = RuleInfo(
        id: "uiwebview", severity: .error, name: "UIWebView",
        message: "UIWebView is deprecated, unsupported by the App Store, and has no isolation from the app",
        fix: "Use WKWebView for content and ASWebAuthenticationSession for sign-in.", masvs: ["MASVS-PLATFORM-2"])

    var reports: [RuleInfo] { [Self.oauthInWebView, Self.uiWebView] }
    var triggers: Triggers {
        Triggers(identifiers: ["load", "loadRequest", "SFSafariViewController", "UIWebView", "UIWebViewDelegate"])
    }

    /// Identity providers refuse embedded browsers by their user agent (Google's `disallowed_useragent`, Microsoft
    /// and Shibboleth IdPs likewise); a web view whose `customUserAgent` (or `applicationNameForUserAgent`) is built
    /// with a literal `Safari/` claims to be Safari to get past them. When the same file also reads the page's
    /// cookies back (`document.cookie`, the web view's cookie store) and its path names a sign-in (the words login,
    /// sign in, SSO, OAuth, SAML, Shibboleth, IdP), every page that web view loads is a sign-in page in an embedded
    /// browser. Nil when the file is not so, else the position the user agent is set at.
    static func disguise(_ scan: FileScan) -> Int? {
        let found = scan.memoRange("webview-safari-disguise") {
            // The path's words, not substrings (`Processors/`, `BlogIndex` name no sign-in).
            let words = scan.file.path.split(whereSeparator: { "/._- ".contains($0) }).flatMap {
                SecretNames.words(String($0))
            }
            let signIn: Set<String> = [
                "login", "logon", "signin", "sso", "oauth", "oauth2", "saml", "shibboleth", "idp",
            ]
            let named =
                words.contains { signIn.contains($0) }
                || zip(words, words.dropFirst()).contains { ["sign", "log"].contains($0.0) && $0.1 == "in" }
            guard named else { return nil }
            let names = ["customUserAgent", "applicationNameForUserAgent", "setCustomUserAgent"]
            // A property of something set to a value (`web.customUserAgent = ua`, not `let customUserAgent = ...` or
            // `= nil`), or a message (`[web setCustomUserAgent:ua]`, not the declaration `- (void)setCustomUserAgent:`).
            var assignment: Int?
            for name in names where assignment == nil {
                assignment = scan.positions(of: name, in: scan.tokens.indices).first { position in
                    name == "setCustomUserAgent"
                        ? scan.isSymbol(position + 1, ":") && scan.message(at: position) != nil
                        : scan.isSymbol(position - 1, ".") && scan.isSymbol(position + 1, "=")
                            && scan.text(position + 2) != "nil"
                }
            }
            guard let assignment else { return nil }
            var safari = false
            var cookies = false
            // A literal searched for, removed or split on (`[ua containsString:@"Safari/"]`, `ua.contains("Safari/")`,
            // `replacingOccurrences(of: " Safari/604.1", with: "")`) is not a claim.
            let tests: Set<String> = [
                "containsString", "rangeOfString", "hasSuffix", "hasPrefix", "contains", "range", "firstRange",
                "localizedCaseInsensitiveContains", "replacingOccurrences", "stringByReplacingOccurrencesOfString",
                "components", "componentsSeparatedByString",
            ]
            for (position, token) in scan.tokens.enumerated() where token.kind == .string {
                if FastText.contains(token.text, "Safari/", caseInsensitive: false) {
                    var before = position - 1
                    if scan.text(before) == "@" { before -= 1 }
                    if scan.isSymbol(before, ":"), ["of", "separatedBy"].contains(scan.text(before - 1)) {
                        before -= 2
                    }
                    if !(scan.isSymbol(before, ":") || scan.isSymbol(before, "("))
                        || !tests.contains(scan.text(before - 1))
                    {
                        safari = true
                    }
                }
                if FastText.contains(token.text, "document.cookie", caseInsensitive: false) { cookies = true }
            }
            scan.spend(scan.tokens.count)
            guard safari else { return nil }
            let cookieStores = ["httpCookieStore", "getAllCookies", "cookiesForURL", "WKHTTPCookieStore"]
            cookies =
                cookies
                || cookieStores.contains { scan.positions(of: $0, in: scan.tokens.indices).contains { _ in true } }
            guard cookies else { return nil }
            return assignment..<(assignment + 1)
        }
        return found?.lowerBound
    }

    func check(_ scan: FileScan, at index: Int) {
        let name = scan.tokens[index].text
        if name == "UIWebView" || name == "UIWebViewDelegate" {
            scan.report(Self.uiWebView, at: index)
            return
        }
        if scan.file.language == .objectiveC, !scan.isSymbol(index - 1, "."), !scan.isSymbol(index + 1, "(") {
            objectiveC(scan, index)
            return
        }
        guard let call = scan.file.call(at: index) else { return }
        if name != "SFSafariViewController" {
            let chain = scan.resolvedReceiver(of: index)
            let receiver = chain.joined(separator: ".")
            guard
                FastText.contains(receiver, "webview", caseInsensitive: true)
                    || chain.last.map({ Self.declaredWebView(scan, $0) }) == true
            else { return }
        }
        flag(
            scan, index, (call.open + 1)..<call.close,
            name == "SFSafariViewController" ? "SFSafariViewController" : "a web view")
    }

    private func flag(_ scan: FileScan, _ index: Int, _ range: Range<Int>, _ browser: String) {
        guard let origin = scan.flow.evaluate(range).authorizationURL else {
            if browser == "a web view", let disguised = Self.disguise(scan) {
                let line = scan.tokens[disguised].line
                scan.report(
                    Self.oauthInWebView, at: index,
                    "A sign-in page is loaded in a web view disguised as Safari (its user agent, set on line \(line), "
                        + "claims Safari/ to get past the identity provider's block on embedded browsers)")
            }
            return
        }
        scan.report(
            Self.oauthInWebView, at: index,
            scan.message(origin, at: index, "is loaded in \(browser), not the system browser"))
    }

    /// `[self.webView loadRequest:request]`, `[[SFSafariViewController alloc] initWithURL:url]`.
    func objectiveC(_ scan: FileScan, _ index: Int) {
        let name = scan.tokens[index].text
        if name == "SFSafariViewController" {
            // [[SFSafariViewController alloc] initWithURL:url]: the outer message's argument.
            guard let inner = scan.enclosingOpener(of: index, "["), let outer = scan.enclosingOpener(of: inner, "["),
                let message = scan.message(opening: outer), let url = message.parts.first?.argument
            else { return }
            flag(scan, message.parts[0].index, url, "SFSafariViewController")
            return
        }
        guard name == "loadRequest", let message = scan.message(at: index), let request = message.argument(name)
        else { return }
        let names = message.receiver.map { scan.tokens[$0].text }
        guard
            FastText.contains(names.joined(), "web", caseInsensitive: true)
                || names.last.map({ Self.declaredWebView(scan, $0) }) == true
        else { return }
        flag(scan, index, request, "a web view")
    }

    /// Whether this file declares `name` as a `WKWebView` whatever it is called (Seafile's `wekview`):
    /// `WKWebView *name`, `name: WKWebView`, `name = WKWebView(` or `name = [[WKWebView alloc] ...]`.
    static func declaredWebView(_ scan: FileScan, _ name: String) -> Bool {
        scan.memo("declared-webview " + name) {
            scan.positions(of: name, in: scan.tokens.indices).contains { position in
                (scan.isSymbol(position - 1, "*") && scan.text(position - 2) == "WKWebView")
                    || (scan.isSymbol(position + 1, ":") && scan.text(position + 2) == "WKWebView")
                    || (scan.isSymbol(position + 1, "=")
                        && (scan.text(position + 2) == "WKWebView"
                            || (scan.isSymbol(position + 2, "[") && scan.isSymbol(position + 3, "[")
                                && scan.text(position + 4) == "WKWebView")))
            }
        }
    }
}
