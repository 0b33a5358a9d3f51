import Testing

/// Positive and negative fixtures for every rule: each positive must raise the rule, each negative must not.
struct RuleFixture: Sendable, CustomTestStringConvertible {
    let rule: String
    let positives: [[String: String]]
    let negatives: [[String: String]]
    var testDescription: String { rule }
}

func swift(_ code: String) -> [String: String] { ["App/Source.swift": code] }
func objc(_ code: String) -> [String: String] { ["App/Source.m": code] }
func plist(_ body: String, name: String = "App/Info.plist") -> [String: String] {
    [
        name: """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(body)
        </dict>
        </plist>
        """
    ]
}

let faceIDPlist = plist("<key>NSFaceIDUsageDescription</key><string>Unlock your account</string>")
let webCredentials = plist(
    "<key>com.apple.developer.associated-domains</key><array><string>webcredentials:example.com</string></array>",
    name: "App/App.entitlements")

let baseFixtures: [RuleFixture] = [
    RuleFixture(
        rule: "keychain-accessible-always",
        positives: [
            swift("let query: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleAlways]"),
            swift("query[kSecAttrAccessible] = kSecAttrAccessibleAlwaysThisDeviceOnly"),
            swift("keychain.accessibility(.always).set(token, key: \"t\")"),
            objc("NSDictionary *q = @{(__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways};"),
            swift("let item = KeychainItem(accessibility: .accessibleAlwaysThisDeviceOnly)"),
        ],
        negatives: [
            swift("// never use kSecAttrAccessibleAlways\nlet a = kSecAttrAccessibleWhenUnlockedThisDeviceOnly"),
            swift("let message = \"kSecAttrAccessibleAlways is deprecated\""),
            swift("textField.clearButtonMode = .always"),
            swift("scrollView.indicators(.always)"),
        ]),
    RuleFixture(
        rule: "keychain-not-this-device-only",
        positives: [
            swift("let q = [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock]"),
            swift("let q = [kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked]"),
            swift("let keychain = Keychain(service: \"s\").accessibility(.afterFirstUnlock)"),
            swift("try store.save(token, accessibility: .accessibleWhenUnlocked)"),
            swift("let valet = Valet.valet(with: id, accessibility: .whenUnlocked)"),
        ],
        negatives: [
            swift("let q = [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]"),
            swift("let q = [kSecAttrAccessible: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]"),
            swift("let keychain = Keychain(service: \"s\").accessibility(.afterFirstUnlockThisDeviceOnly)"),
            swift("// kSecAttrAccessibleAfterFirstUnlock is what we used to do"),
            swift("state = .whenUnlocked"),
        ]),
    RuleFixture(
        rule: "secret-in-user-defaults",
        positives: [
            swift("UserDefaults.standard.set(token, forKey: \"session\")"),
            swift("UserDefaults.standard.set(value, forKey: \"authToken\")"),
            swift("let defaults = UserDefaults.standard\ndefaults.set(refreshToken, forKey: Keys.refresh)"),
            swift("UserDefaults(suiteName: \"group\")?.set(password, forKey: \"pw\")"),
            objc("[[NSUserDefaults standardUserDefaults] setObject:self.token forKey:@\"accessToken\"];"),
        ],
        negatives: [
            swift("UserDefaults.standard.set(Date(), forKey: SHA256.hash(data: Data(token.utf8)).description)"),
            swift("UserDefaults.standard.set(true, forKey: \"hasSeenOnboarding\")"),
            swift("UserDefaults.standard.set(true, forKey: \"tokenSaved\")"),
            swift("UserDefaults.standard.set(theme, forKey: \"appearance\")"),
            swift("// UserDefaults.standard.set(token, forKey: \"token\")"),
        ]),
    RuleFixture(
        rule: "secret-in-swiftui-storage",
        positives: [
            swift("struct V: View { @AppStorage(\"authToken\") var value = \"\" }"),
            swift("struct V: View { @AppStorage(\"k\") var password: String = \"\" }"),
            swift("struct V: View { @SceneStorage(\"draft\") private var pin = \"\" }"),
        ],
        negatives: [
            swift("struct V: View { @AppStorage(\"theme\") var theme = \"dark\" }"),
            swift("struct V: View { @SceneStorage(\"tab\") var selectedTab = 0 }"),
            swift("struct V: View { @AppStorage(\"hasToken\") var hasToken = false }"),
        ]),
    RuleFixture(
        rule: "secret-in-icloud-kvs",
        positives: [
            swift("NSUbiquitousKeyValueStore.default.set(token, forKey: \"t\")"),
            swift("let store = NSUbiquitousKeyValueStore.default\nstore.set(value, forKey: \"apiKey\")"),
            swift("kvStore.set(password, forKey: \"p\")"),
        ],
        negatives: [
            swift("NSUbiquitousKeyValueStore.default.set(highScore, forKey: \"score\")"),
            swift("NSUbiquitousKeyValueStore.default.set(true, forKey: \"tokenMigrated\")"),
            swift("NSUbiquitousKeyValueStore.default.synchronize()"),
        ]),
    RuleFixture(
        rule: "secret-in-file",
        positives: [
            swift("try token.write(to: url, atomically: true, encoding: .utf8)"),
            swift("try tokenData.write(to: fileURL)"),
            swift("FileManager.default.createFile(atPath: path, contents: passwordData)"),
            swift("managedObject.setValue(accessToken, forKey: \"accessToken\")"),
            swift("sqlite3_bind_text(statement, 1, password, -1, nil)"),
            objc("[token writeToFile:path atomically:YES encoding:NSUTF8StringEncoding error:nil];"),
        ],
        negatives: [
            swift("try imageData.write(to: url)"),
            swift("managedObject.setValue(title, forKey: \"title\")"),
            swift("FileManager.default.createFile(atPath: path, contents: logData)"),
            swift("sqlite3_bind_text(statement, 1, username, -1, nil)"),
        ]),
    RuleFixture(
        rule: "file-without-protection",
        positives: [
            swift("try data.write(to: url, options: [.atomic, .noFileProtection])"),
            swift("let attributes = [FileAttributeKey.protectionKey: FileProtectionType.none]"),
            objc("NSDictionary *a = @{NSFileProtectionKey: NSFileProtectionNone};"),
        ],
        negatives: [
            swift("try data.write(to: url, options: [.atomic, .completeFileProtection])"),
            swift("let attributes = [FileAttributeKey.protectionKey: FileProtectionType.complete]"),
            swift("let value: Int? = .none"),
            swift("// .noFileProtection would be wrong here"),
            swift("enum WriteMode { case noFileProtection, complete }"),
        ]),
    RuleFixture(
        rule: "hardcoded-secret",
        positives: [
            swift("let apiKey = \"a8f5f167f44f4964e6c998dee827110c\""),
            swift("static let clientSecret: String = \"Zx9-81kQ_pq2\""),
            swift("let config = Config(host: \"h\", key: \"AKIAIOSFODNN7EXAMPLA\")"),
            swift("let stripe = \"sk_live_4eC39HqLyjWDarjtT1zdp7dc\""),
            swift("let pem = \"-----BEGIN RSA PRIVATE KEY-----\\nMIIE\""),
            objc("NSString *password = @\"hunter2!secret9\";"),
        ],
        negatives: [
            swift("let tokenKey = \"com.example.token\""),
            swift("let apiKey = \"YOUR_API_KEY_HERE\""),
            swift("let password = \"\""),
            swift("let token = \"accessToken\""),
            swift("let passwordPrompt = \"Enter your password\""),
            swift("let apiKey = ProcessInfo.processInfo.environment[\"API_KEY\"]"),
        ]),
    RuleFixture(
        rule: "oauth-in-webview",
        positives: [
            swift("webView.load(URLRequest(url: authorizationURL))"),
            swift(
                "webView.load(URLRequest(url: URL(string: \"https://id.example.com/oauth2/authorize?client_id=x\")!))"),
            swift("let safari = SFSafariViewController(url: loginURL)"),
            objc("[self.webView loadRequest:[NSURLRequest requestWithURL:oauthURL]];"),
            // A sign-in web view disguised as Safari (Seafile's Shibboleth view): whatever page it loads.
            [
                "App/SSO/ShibbolethViewController.m": """
                - (void)show:(NSURLRequest *)request {
                    WKWebView *wekview = [[WKWebView alloc] initWithFrame:self.view.bounds];
                    wekview.customUserAgent = [self customUserAgent];
                    [wekview loadRequest:request];
                }
                - (NSString *)customUserAgent {
                    NSString *ua = [[WKWebView new] valueForKey:@"userAgent"];
                    return [ua stringByAppendingFormat:@" Safari/%@", @"605.1.15"];
                }
                - (void)webView:(WKWebView *)webView didFinishNavigation:(WKNavigation *)navigation {
                    [webView evaluateJavaScript:@"document.cookie" completionHandler:nil];
                }
                """
            ],
            [
                "App/Login/SignInWebController.swift":
                    "func show(_ request: URLRequest) {\n let web = WKWebView()\n web.customUserAgent = \"Mozilla/5.0 (iPhone) Version/17.0 Mobile/15E148 Safari/604.1\"\n web.load(request)\n}\nfunc webView(_ w: WKWebView, didFinish n: WKNavigation!) { w.configuration.websiteDataStore.httpCookieStore.getAllCookies { _ in } }"
            ],
        ],
        negatives: [
            swift("webView.load(URLRequest(url: helpURL))"),
            // A Safari user agent in a content browser that reads no cookies and names no sign-in.
            [
                "App/Reader/ArticleViewController.swift":
                    "func show(_ request: URLRequest) {\n webView.customUserAgent = \"Mozilla/5.0 Version/17.0 Safari/604.1\"\n webView.load(request)\n}"
            ],
            // A content browser with a Safari user agent that clears cookies, in a path that only contains "sso".
            [
                "App/Processors/ArticleBrowser.swift":
                    "func show(_ request: URLRequest) {\n webView.configuration.applicationNameForUserAgent = \"Version/17.0 Mobile/15E148 Safari/604.1\"\n webView.load(request)\n}\nfunc clear() { webView.configuration.websiteDataStore.httpCookieStore.getAllCookies { _ in } }"
            ],
            // A sign-in view that strips Safari from its user agent, reading cookies.
            [
                "App/Login/LoginWebViewController.swift":
                    "func show(_ request: URLRequest) {\n webView.customUserAgent = ua.replacingOccurrences(of: \" Safari/604.1\", with: \"\")\n webView.load(request)\n}\nfunc read() { webView.evaluateJavaScript(\"document.cookie\") { _, _ in } }"
            ],
            // A sign-in view whose user agent names the app, and one that only tests for Safari.
            [
                "App/Login/LoginWebViewController.m": """
                - (void)show:(NSURLRequest *)request {
                    self.webView.customUserAgent = [ua stringByAppendingString:@" Seafile iOS/3.0"];
                    [self.webView loadRequest:request];
                    [self.webView evaluateJavaScript:@"document.cookie" completionHandler:nil];
                }
                """
            ],
            [
                "App/Login/LoginWebViewController.swift":
                    "func show(_ request: URLRequest) {\n if ua.contains(\"Safari/\") { webView.customUserAgent = ua + \" MyApp/1\" }\n webView.load(request)\n webView.evaluateJavaScript(\"document.cookie\") { _, _ in }\n}"
            ],
            swift(
                "let session = ASWebAuthenticationSession(url: authorizationURL, callback: .customScheme(\"app\")) { _, _ in }"
            ),
            swift("@Environment(\\.webAuthenticationSession) private var webAuthenticationSession"),
            swift("webView.load(URLRequest(url: redirectURL))"),
        ]),
    RuleFixture(
        rule: "uiwebview",
        positives: [
            swift("let web = UIWebView(frame: .zero)"),
            swift("class Controller: UIViewController, UIWebViewDelegate {}"),
            objc("@property (nonatomic, strong) UIWebView *webView;"),
        ],
        negatives: [
            swift("let web = WKWebView(frame: .zero)"),
            swift("// migrated from UIWebView"),
            swift("let note = \"UIWebView was removed\""),
        ]),
    RuleFixture(
        rule: "oauth-without-pkce",
        positives: [
            swift(
                "func url() -> URL { URL(string: \"https://id.example.com/authorize?response_type=code&client_id=a&state=\\(state)\")! }"
            ),
            swift(
                "func items() -> [URLQueryItem] { [URLQueryItem(name: \"response_type\", value: \"code\"), URLQueryItem(name: \"state\", value: state)] }"
            ),
            swift(
                "func params() -> [String: String] { [\"response_type\": \"code\", \"client_id\": id, \"state\": state] }"
            ),
        ],
        negatives: [
            swift(
                "func items() -> [URLQueryItem] { [URLQueryItem(name: \"response_type\", value: \"code\"), URLQueryItem(name: \"code_challenge\", value: c), URLQueryItem(name: \"code_challenge_method\", value: \"S256\"), URLQueryItem(name: \"state\", value: s)] }"
            ),
            swift(
                "func url() -> String { \"https://id.example.com/authorize?response_type=code&code_challenge=\\(c)&code_challenge_method=S256&state=\\(s)\" }"
            ),
            swift("let request = try AuthorizationRequest(metadata: metadata, clientID: id, redirectURI: uri)"),
        ]),
    RuleFixture(
        rule: "oauth-pkce-plain",
        positives: [
            swift(
                "func items() -> [URLQueryItem] { [URLQueryItem(name: \"response_type\", value: \"code\"), URLQueryItem(name: \"code_challenge\", value: v), URLQueryItem(name: \"code_challenge_method\", value: \"plain\")] }"
            ),
            swift(
                "func url() -> String { \"https://x/authorize?response_type=code&code_challenge=\\(v)&code_challenge_method=plain&state=\\(s)\" }"
            ),
            swift(
                "func params() -> [String: String] { [\"response_type\": \"code\", \"code_challenge\": v, \"code_challenge_method\": \"plain\"] }"
            ),
        ],
        negatives: [
            swift(
                "func url() -> String { \"https://x/authorize?response_type=code&code_challenge=\\(c)&code_challenge_method=S256&state=\\(s)\" }"
            ),
            swift("let method = \"plain\""),
            swift(
                "func params() -> [String: String] { [\"response_type\": \"code\", \"code_challenge\": c, \"code_challenge_method\": \"S256\", \"state\": s] }"
            ),
        ]),
    RuleFixture(
        rule: "oauth-without-state",
        positives: [
            swift(
                "func url() -> String { \"https://x/authorize?response_type=code&code_challenge=\\(c)&code_challenge_method=S256\" }"
            ),
            swift(
                "func items() -> [URLQueryItem] { [URLQueryItem(name: \"response_type\", value: \"code\"), URLQueryItem(name: \"code_challenge\", value: c)] }"
            ),
            swift("func params() -> [String: String] { [\"response_type\": \"code\", \"code_challenge\": c] }"),
        ],
        negatives: [
            swift(
                "func url() -> String { \"https://x/authorize?response_type=code&code_challenge=\\(c)&state=\\(s)\" }"),
            swift(
                "func items() -> [URLQueryItem] { [URLQueryItem(name: \"response_type\", value: \"code\"), URLQueryItem(name: \"code_challenge\", value: c), URLQueryItem(name: \"state\", value: s)] }"
            ),
            swift("let stateless = \"no oauth here\""),
        ]),
    RuleFixture(
        rule: "oauth-implicit-flow",
        positives: [
            swift("func url() -> String { \"https://x/authorize?response_type=token&client_id=a&state=s\" }"),
            swift("func items() -> [URLQueryItem] { [URLQueryItem(name: \"response_type\", value: \"token\")] }"),
            swift("func params() -> [String: String] { [\"response_type\": \"id_token token\", \"state\": s] }"),
        ],
        negatives: [
            swift("func url() -> String { \"https://x/authorize?response_type=code&code_challenge=c&state=s\" }"),
            swift(
                "func items() -> [URLQueryItem] { [URLQueryItem(name: \"response_type\", value: \"code\"), URLQueryItem(name: \"code_challenge\", value: c), URLQueryItem(name: \"state\", value: s)] }"
            ),
            swift("let type = \"token\""),
            swift("let message = \"response_type=token returns tokens in the redirect URL\""),
        ]),
    RuleFixture(
        rule: "oauth-password-grant",
        positives: [
            swift("func body() -> String { \"grant_type=password&username=\\(u)&password=\\(p)\" }"),
            swift("func items() -> [URLQueryItem] { [URLQueryItem(name: \"grant_type\", value: \"password\")] }"),
            swift("func params() -> [String: String] { [\"grant_type\": \"password\", \"username\": u] }"),
        ],
        negatives: [
            swift("func body() -> String { \"grant_type=authorization_code&code=\\(c)&code_verifier=\\(v)\" }"),
            swift("func items() -> [URLQueryItem] { [URLQueryItem(name: \"grant_type\", value: \"refresh_token\")] }"),
            swift("let label = \"password\""),
        ]),
    RuleFixture(
        rule: "token-in-url",
        positives: [
            swift("let url = URL(string: \"https://api.example.com/me?access_token=\\(token)\")"),
            swift("func f() { components.queryItems = [URLQueryItem(name: \"api_key\", value: key)] }"),
            swift("let u = \"https://x.example/download?id=1&token=\\(t)\""),
        ],
        negatives: [
            swift("request.setValue(\"Bearer \\(token)\", forHTTPHeaderField: \"Authorization\")"),
            swift(
                "func f() { components.queryItems = [URLQueryItem(name: \"refresh_token\", value: t)]\n request.httpBody = components.query?.data(using: .utf8) }"
            ),
            swift("let body = \"grant_type=refresh_token&refresh_token=\\(t)\""),
            swift("let url = URL(string: \"https://x.example/search?q=token\")"),
        ]),
    RuleFixture(
        rule: "jwt-unverified-decision",
        positives: [
            swift(
                "func isAdmin(_ token: String) throws -> Bool {\n let jwt = try decode(jwt: token)\n if jwt.claim(name: \"admin\").boolean == true { return true }\n return false }"
            ),
            swift(
                "func check(_ token: String) throws {\n let claims = try decode(jwt: token)\n guard claims.expired == false else { logout() }\n}"
            ),
            swift(
                "func role(of idToken: String) -> String? {\n let parts = idToken.split(separator: \".\")\n let data = Data(base64Encoded: String(parts[1]))\n let json = try? JSONSerialization.jsonObject(with: data!) as? [String: Any]\n return json?[\"role\"] as? String }"
            ),
        ],
        negatives: [
            swift(
                "func show(_ token: String) throws {\n let jwt = try decode(jwt: token)\n label.text = jwt.subject }"),
            swift(
                "func check(_ token: String) throws {\n let claims = try verifier.verify(token)\n if claims.subject == me { } }"
            ),
            swift("func version(_ v: String) -> [Substring] { v.split(separator: \".\") }"),
        ]),
    RuleFixture(
        rule: "iat-positive-leeway",
        positives: [
            swift("let validator = TokenValidator(iatLeeway: 60)"),
            swift("config.issuedAtLeeway = 30"),
            swift("let rule = ClaimRule.issuedAt(leeway: 120)"),
        ],
        negatives: [
            swift("let validator = TokenValidator(iatLeeway: 0)"),
            swift("let validator = TokenValidator(expLeeway: 60)"),
            swift("let leeway = try Leeway(seconds: 60)"),
        ]),
    RuleFixture(
        rule: "ats-arbitrary-loads",
        positives: [
            plist("<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict>"),
            plist(
                "<key>NSAppTransportSecurity</key><dict>\n<key>NSAllowsArbitraryLoads</key>\n<string>YES</string></dict>"
            ),
            plist(
                "<key>CFBundleName</key><string>X</string><key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsLocalNetworking</key><true/></dict>"
            ),
        ],
        negatives: [
            plist("<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><false/></dict>"),
            plist("<key>NSAppTransportSecurity</key><dict><key>NSAllowsLocalNetworking</key><true/></dict>"),
            plist("<key>NSAllowsArbitraryLoads</key><true/>"),
        ]),
    RuleFixture(
        rule: "ats-arbitrary-loads-scoped",
        positives: [
            plist("<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoadsForMedia</key><true/></dict>"),
            plist("<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoadsInWebContent</key><true/></dict>"),
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoadsForMedia</key><string>true</string></dict>"
            ),
        ],
        negatives: [
            plist("<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoadsForMedia</key><false/></dict>"),
            plist("<key>NSAppTransportSecurity</key><dict/>"),
            plist("<key>NSAllowsArbitraryLoadsInWebContent</key><true/>"),
        ]),
    RuleFixture(
        rule: "ats-insecure-exception",
        positives: [
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>legacy.example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict></dict>"
            ),
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>old.example.com</key><dict><key>NSTemporaryExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict></dict>"
            ),
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>a.example</key><dict/><key>b.example</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict></dict>"
            ),
        ],
        negatives: [
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>x.example</key><dict><key>NSIncludesSubdomains</key><true/></dict></dict></dict>"
            ),
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>x.example</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><false/></dict></dict></dict>"
            ),
            plist("<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
        ]),
    RuleFixture(
        rule: "ats-weak-tls",
        positives: [
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>x.example</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string></dict></dict></dict>"
            ),
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>x.example</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.1</string></dict></dict></dict>"
            ),
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>x.example</key><dict><key>NSTemporaryExceptionMinimumTLSVersion</key><string>TLSv1.0</string></dict></dict></dict>"
            ),
        ],
        negatives: [
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>x.example</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string></dict></dict></dict>"
            ),
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>x.example</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string></dict></dict></dict>"
            ),
            plist("<key>MinimumOSVersion</key><string>TLSv1.0</string>"),
        ]),
    RuleFixture(
        rule: "trust-all-certificates",
        positives: [
            swift(
                "func urlSession(_ s: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {\n completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!)) }"
            ),
            swift("let manager = ServerTrustManager(evaluators: [\"api.example.com\": DisabledTrustEvaluator()])"),
            swift("func setUp() { manager.securityPolicy.allowInvalidCertificates = true }"),
            objc("manager.securityPolicy.validatesDomainName = NO;"),
        ],
        negatives: [
            swift(
                "func urlSession(_ s: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {\n guard let trust = challenge.protectionSpace.serverTrust, SecTrustEvaluateWithError(trust, nil) else { return completionHandler(.cancelAuthenticationChallenge, nil) }\n completionHandler(.useCredential, URLCredential(trust: trust)) }"
            ),
            swift(
                "func urlSession(_ s: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {\n completionHandler(.performDefaultHandling, nil) }"
            ),
            swift(
                "let manager = ServerTrustManager(evaluators: [\"api.example.com\": PinnedCertificatesTrustEvaluator()])"
            ),
            swift("func f() { manager.securityPolicy.allowInvalidCertificates = false }"),
        ]),
    RuleFixture(
        rule: "cleartext-http",
        positives: [
            swift("let base = URL(string: \"http://api.example.com/v1\")!"),
            swift("let u = \"http://10.0.0.5:8080/health\""),
            objc("NSURL *u = [NSURL URLWithString:@\"http://images.example.com/a.png\"];"),
        ],
        negatives: [
            swift("let base = URL(string: \"https://api.example.com/v1\")!"),
            swift("let dev = URL(string: \"http://127.0.0.1:8080/callback\")!\nlet local = \"http://localhost:3000\""),
            swift("let ns = \"http://www.w3.org/2000/svg\""),
            swift("if url.absoluteString.hasPrefix(\"http://\") { }"),
        ]),
    RuleFixture(
        rule: "biometric-event-gate",
        positives: [
            swift(
                "func unlock() {\n context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: \"Unlock\") { success, _ in\n if success { self.isUnlocked = true } } }"
            ),
            swift(
                "func reveal() {\n context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: \"r\") { ok, _ in\n guard ok else { return }\n let token = self.keychain.get(\"token\") } }"
            ),
            swift(
                "func pay() {\n ctx.evaluatePolicy(policy, localizedReason: \"Pay\") { success, _ in\n if success { self.loadToken() } } }"
            ),
        ],
        negatives: [
            swift(
                "func unlock() {\n let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)\n context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: \"r\") { success, _ in\n if success { self.read(using: context) } } }"
            ).merging(faceIDPlist) { $1 },
            swift(
                "func read() {\n context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: \"r\") { success, _ in\n let query: [String: Any] = [kSecUseAuthenticationContext as String: context]\n SecItemCopyMatching(query as CFDictionary, nil) } }"
            ),
        ]),
    RuleFixture(
        rule: "faceid-usage-description-missing",
        positives: [
            swift("import LocalAuthentication\nlet context = LAContext()"),
            swift(
                "func gate() { let c = LAContext(); _ = c.canEvaluatePolicy(.deviceOwnerAuthentication, error: nil) }"
            )
            .merging(plist("<key>CFBundleName</key><string>X</string>")) { $1 },
            swift("let context = LAContext()").merging(plist("<key>NSFaceIDUsageDescription</key><string></string>")) {
                $1
            },
            // Keychain biometry prompts too: Warden's own `.biometryCurrentSet` refresh token, or Security's flags.
            swift(
                "let store = KeychainStore(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet)"
            ),
            objc(
                "SecAccessControlRef a = SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, kSecAccessControlBiometryCurrentSet, NULL);"
            ),
            // .userPresence uses Face ID where it is enrolled; Warden's BiometricGate and SessionStores prompt too.
            swift(
                "let a = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .userPresence, nil)"
            ),
            swift("func confirm() async throws { try await BiometricGate().authenticate(reason: \"Confirm\") }"),
            swift("let (store, protection) = SessionStores.forThisDevice(prompt: \"Unlock\")"),
            // An empty generated-Info.plist setting is no usage text either.
            swift("let context = LAContext()").merging([
                "App.xcodeproj/project.pbxproj":
                    "\t\t\t\tINFOPLIST_KEY_NSFaceIDUsageDescription = \"\";\n\t\t\t\tINFOPLIST_KEY_CFBundleDisplayName = App;"
            ]) { $1 },
            // A usage text that is empty in an app package's manifest is none.
            swift("let (store, protection) = SessionStores.forThisDevice(prompt: \"Unlock\")").merging([
                "Package.swift": "let capabilities = [.faceID(purposeString: \"\")]"
            ]) { $1 },
        ],
        negatives: [
            swift("let context = LAContext()").merging(faceIDPlist) { $1 },
            swift("func confirm() async throws { try await BiometricGate().authenticate(reason: \"Confirm\") }")
                .merging(faceIDPlist) { $1 },
            // Xcode's generated Info.plist (the default since Xcode 13): the build setting in the project or an
            // .xcconfig.
            swift("let context = LAContext()").merging([
                "App.xcodeproj/project.pbxproj":
                    "\t\t\t\tINFOPLIST_KEY_NSFaceIDUsageDescription = \"Unlock your account\";"
            ]) { $1 },
            swift("let context = LAContext()").merging([
                "Config/App.xcconfig": "INFOPLIST_KEY_NSFaceIDUsageDescription = Unlock your account"
            ]) { $1 },
            // An app package (Swift Playgrounds, Xcode) declares the usage text in Package.swift (AppleProductTypes).
            swift("let (store, protection) = SessionStores.forThisDevice(prompt: \"Unlock\")").merging([
                "Package.swift": "let capabilities = [.faceID(purposeString: \"Unlocks your session.\")]"
            ]) { $1 },
            swift("let store = KeychainStore(accessControl: .biometryCurrentSet)").merging(faceIDPlist) { $1 },
            swift("let biometry = \"biometryCurrentSet\"  // a string, not the flag"),
            swift("// LAContext is not used here"),
            swift("let name = \"LAContext\""),
        ]),
    RuleFixture(
        rule: "keychain-weak-access-control",
        positives: [
            swift(
                "let a = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryAny, nil)"
            ),
            swift(
                "let a = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, nil)"
            ),
            objc(
                "SecAccessControlRef a = SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecAccessControlBiometryAny, NULL);"
            ),
        ],
        negatives: [
            swift(
                "let a = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)"
            ).merging(faceIDPlist) { $1 },
            swift(
                "let a = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.biometryCurrentSet, .or, .devicePasscode], nil)"
            ).merging(faceIDPlist) { $1 },
            swift("// .biometryAny is too weak for refresh tokens"),
        ]),
    RuleFixture(
        rule: "siwa-without-credential-state",
        positives: [
            swift("let request = ASAuthorizationAppleIDProvider().createRequest()"),
            swift(
                "let provider = ASAuthorizationAppleIDProvider()\nprovider.getCredentialState(forUserID: id) { _, _ in }"
            ),
            swift(
                "let request = ASAuthorizationAppleIDProvider().createRequest()\nNotificationCenter.default.addObserver(forName: ASAuthorizationAppleIDProvider.credentialRevokedNotification, object: nil, queue: nil) { _ in }"
            ),
        ],
        negatives: [
            swift(
                "let provider = ASAuthorizationAppleIDProvider()\nprovider.getCredentialState(forUserID: id) { _, _ in }\nNotificationCenter.default.addObserver(forName: ASAuthorizationAppleIDProvider.credentialRevokedNotification, object: nil, queue: nil) { _ in }"
            ),
            swift(
                "let request = ASAuthorizationAppleIDProvider().createRequest()\nlet monitor = AppleIDCredentialMonitor(userID: id, session: session)"
            ),
            swift("// ASAuthorizationAppleIDProvider later"),
        ]),
    RuleFixture(
        rule: "passkeys-without-webcredentials",
        positives: [
            swift(
                "let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: \"example.com\")"
            ),
            swift("let request = PasskeyRequests.assertion(options)"),
            swift("let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rp)")
                .merging(
                    plist(
                        "<key>com.apple.developer.associated-domains</key><array><string>applinks:example.com</string></array>",
                        name: "App/App.entitlements")
                ) { $1 },
        ],
        negatives: [
            swift(
                "let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: \"example.com\")"
            ).merging(webCredentials) { $1 },
            swift("let request = PasskeyRequests.registration(options)").merging(webCredentials) { $1 },
            swift("let text = \"ASAuthorizationPlatformPublicKeyCredentialProvider\""),
        ]),
    RuleFixture(
        rule: "password-field-without-content-type",
        positives: [
            swift("var body: some View { SecureField(\"Password\", text: $password) }"),
            swift("var body: some View { SecureField(\"Password\", text: $password).padding() }"),
            swift("func setUp() { passwordField.isSecureTextEntry = true }"),
        ],
        negatives: [
            swift("var body: some View { SecureField(\"Password\", text: $password).textContentType(.password) }"),
            swift("var body: some View { SecureField(\"New\", text: $p).padding().textContentType(.newPassword) }"),
            swift(
                "func setUp() { passwordField.isSecureTextEntry = true\n passwordField.textContentType = .password }"),
        ]),
    RuleFixture(
        rule: "non-constant-time-compare",
        positives: [
            swift("if returnedState == expectedState { proceed() }"),
            swift("guard computedMAC == receivedMAC else { throw E.bad }"),
            swift("if signature != expectedSignature { reject() }"),
            swift("return hmac(data) == tag"),
        ],
        negatives: [
            swift("if scenePhase == .active { }"),
            swift("if signature == nil { }"),
            swift("if ConstantTime.equals(returnedState, expectedState) { }"),
            swift("if oldState == newState { }"),
            swift("if signature.count == 64 { }"),
            swift("guard claims.nonce == expectedNonce else { throw E.nonce }"),
        ]),
    RuleFixture(
        rule: "insecure-random-for-secret",
        positives: [
            swift("let state = String(arc4random())"),
            swift("let nonce = (0..<32).map { _ in alphabet.randomElement()! }"),
            swift("var generator = GKMersenneTwisterRandomSource(seed: 42)\nlet salt = generator.nextInt()"),
            swift("let iv = SeededGenerator(seed: 7).next()"),
            swift("let codeVerifier = String((0..<64).map { _ in chars.randomElement()! })"),
        ],
        negatives: [
            swift("let color = colors.randomElement()"),
            swift("let delay = Double.random(in: 0...1)"),
            swift(
                "var state = [UInt8](repeating: 0, count: 32)\nlet status = SecRandomCopyBytes(kSecRandomDefault, 32, &state)"
            ),
            swift("let nonce = try SecureRandom().bytes(count: 32)"),
            swift("let key = try Ed25519PrivateKey(seed: Hex.decode(rfc8032Seed))"),
            swift(
                "func make(random: some RandomSource) throws { let state = Base64URL.encode(try random.bytes(count: 32)) }"
            ),
        ]),
    RuleFixture(
        rule: "secret-in-log",
        positives: [
            swift("print(\"token: \\(token)\")"),
            swift("NSLog(\"password %@\", password)"),
            swift("logger.info(\"refresh \\(refreshToken, privacy: .public)\")"),
            swift("os_log(\"%{public}@\", log: log, type: .debug, accessToken)"),
            objc("NSLog(@\"token %@\", token);"),
        ],
        negatives: [
            swift("print(\"token refreshed\")"),
            swift("logger.info(\"refresh \\(refreshToken)\")"),
            swift("logger.info(\"refresh \\(refreshToken, privacy: .private)\")"),
            swift("print(\"token length \\(token.count)\")"),
            swift("print(\"value \\(Redacted(token))\")"),
            swift("os_log(\"%@\", log: log, type: .debug, accessToken)"),
        ]),
    RuleFixture(
        rule: "invalid-suppression",
        positives: [
            swift("// warden:ignore\nlet a = 1"),
            swift("// warden:ignore secret-in-log\nprint(token)"),
            swift("// warden:ignore no-such-rule because\nlet a = 1"),
        ],
        negatives: [
            swift("// warden:ignore secret-in-log the value is a public demo token\nprint(token)"),
            swift("print(token) // warden:ignore secret-in-log fixture data, not a real token"),
            swift("// a normal comment"),
            swift("/// Write warden:ignore RULE-ID reason on the line above a finding."),
        ]),
]
