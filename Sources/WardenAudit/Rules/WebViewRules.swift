/// Sign-in pages in embedded browsers (`WKWebView.load`, `SFSafariViewController`, Objective-C `loadRequest:`
/// and `initWithURL:`) when the URL is an authorization URL, however it was built (a literal, concatenation,
/// `URLComponents` with `response_type`/`redirect_uri`/`code_challenge` query items, a `URLRequest`), and
/// `UIWebView` anywhere.
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
            let receiver = scan.resolvedReceiver(of: index).joined(separator: ".")
            guard FastText.contains(receiver, "webview", caseInsensitive: true) else { return }
        }
        flag(
            scan, index, (call.open + 1)..<call.close,
            name == "SFSafariViewController" ? "SFSafariViewController" : "a web view")
    }

    private func flag(_ scan: FileScan, _ index: Int, _ range: Range<Int>, _ browser: String) {
        guard let origin = scan.flow.evaluate(range).authorizationURL else { return }
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
        let receiver = message.receiver.map { scan.tokens[$0].text }.joined()
        guard FastText.contains(receiver, "web", caseInsensitive: true) else { return }
        flag(scan, index, request, "a web view")
    }
}
