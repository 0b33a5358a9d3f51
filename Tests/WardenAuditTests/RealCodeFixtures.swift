/// Fixtures for what real apps look like where the auditor used to miss a mistake or flag correct code (issue 28):
/// each mistake with its correct twin, in Swift and in Objective-C where the mistake exists in both. Merged into
/// ``ruleFixtures`` by rule.
/// A bundled data set: `count` records, each with an `http://` link the app shows or hands to the system.
func dataSet(_ count: Int, name: String = "App/Resources/stations.json") -> [String: String] {
    let records = (0..<count).map {
        #"  {"name": "Station \#($0)", "url": "http://stream\#($0).radio.example.net/live"}"#
    }
    return [name: "[\n" + records.joined(separator: ",\n") + "\n]"]
}

let realCodeFixtures: [RuleFixture] = [
    RuleFixture(
        rule: "secret-in-log",
        positives: [
            // The same shape with a credential: a variable named for a secret that holds one.
            swift(
                "func didSignIn(accessToken: String) {\n let token = accessToken.trimmingCharacters(in: .whitespaces)\n print(\"token: \\(token)\")\n}"
            )
        ],
        negatives: [
            // An APNs device token is an address, not a credential: a variable called `token` that holds one.
            swift(
                "func application(_ app: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {\n let token = deviceToken.map { String(format: \"%02x\", $0) }.joined()\n print(\"APNs device token: \\(token)\")\n}"
            )
        ]),
    RuleFixture(
        rule: "hardcoded-secret",
        positives: [
            ["App/Resources/keys.json": #"{"analytics": {"apiSecret": "Zt8fQ2xLm9Vb4Nc7Rw1Ks6Hd3Jp5Ty0E"}}"#]
        ],
        negatives: [
            // The names of secrets (cookies a browser must clear), not secrets (DuckDuckGo's privacy configuration).
            [
                "App/Resources/config.json":
                    #"{"cookies": {"thirdPartyCookieNames": ["__Secure-3PAPISID", "SAPISID", "user_id"]}}"#
            ]
        ]),
    RuleFixture(
        rule: "file-without-protection",
        positives: [
            swift(
                "func save(_ profile: Data, to url: URL) {\n FileManager.default.createFile(atPath: url.path, contents: profile, attributes: [.protectionKey: FileProtectionType.none])\n}"
            )
        ],
        negatives: [
            // An empty marker file: its existence is the information, there are no contents to protect.
            swift(
                "func mark(_ url: URL) {\n FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.protectionKey: FileProtectionType.none])\n}"
            )
        ]),
    RuleFixture(
        rule: "token-in-url",
        positives: [
            swift(
                "func inviteCode(token: String) -> URL? {\n var components = URLComponents(string: \"https://example.com/waitlist/code\")!\n components.queryItems = [URLQueryItem(name: \"token\", value: token)]\n return components.url\n}"
            ),
            // A POST whose URL carries the token: still a URL.
            swift(
                "func inviteCode(token: String) {\n var components = URLComponents(string: \"https://example.com/waitlist/code\")!\n components.queryItems = [URLQueryItem(name: \"token\", value: token)]\n var request = URLRequest(url: components.url!)\n request.httpMethod = \"POST\"\n send(request)\n}"
            ),
        ],
        negatives: [
            // URLComponents used only to form-encode a POST body (DuckDuckGo's waitlist request).
            swift(
                "func inviteCode(token: String) {\n var components = URLComponents()\n components.queryItems = [URLQueryItem(name: \"token\", value: token)]\n let componentData = components.query?.data(using: .utf8)\n send(url, \"POST\", componentData)\n}"
            )
        ]),
    RuleFixture(
        rule: "non-constant-time-compare",
        positives: [
            swift(
                "func check(entered: Credentials, stored: Credentials) -> Bool { entered.password == stored.password }")
        ],
        negatives: [
            // Finding a saved record that matches one the app holds: nobody outside the process times it.
            swift(
                "var samePassword: [Credentials] { saved.filter { stored in stored.password == credentials.password } }"
            ),
            swift("let match = saved.first(where: { $0.password == candidate.password })"),
        ]),
    RuleFixture(
        rule: "biometric-event-gate",
        positives: [
            // An async wrapper returns the result; the caller's condition decides access.
            [
                "App/Authenticator.swift":
                    "final class Authenticator {\n func authenticate(reason: String) async -> Bool {\n  let context = LAContext()\n  do { return try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: reason) } catch { return false }\n }\n}",
                "App/Vault.swift":
                    "func open() async {\n if await authenticator.authenticate(reason: \"Unlock\") {\n  showVault()\n }\n}",
            ].merging(faceIDPlist) { $1 }
        ],
        negatives: [
            // The async wrapper alone: returning the result decides nothing.
            [
                "App/Authenticator.swift":
                    "final class Authenticator {\n func authenticate(reason: String) async -> Bool {\n  let context = LAContext()\n  do { return try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: reason) } catch { return false }\n }\n}"
            ].merging(faceIDPlist) { $1 }
        ]),
    RuleFixture(
        rule: "ats-arbitrary-loads",
        positives: [],
        negatives: [
            // A default-browser app (the web-browser entitlement) must load whatever page the user opens.
            plist("<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict>").merging(
                plist("<key>com.apple.developer.web-browser</key><true/>", name: "App/Browser.entitlements")
            ) { $1 }
        ]),
    RuleFixture(
        rule: "hardcoded-secret",
        positives: [],
        negatives: [
            // Test resources and Xcode templates are not shipped code (reported apart, with --include-tests).
            ["App/TestResources/Fake.swift": "let apiKey = \"sk_live_51H8abcdefghijklmnopqrstuvwx\""],
            [
                "Templates/Screen.xctemplate/___FILEBASENAME___.swift":
                    "let apiKey = \"sk_live_51H8abcdefghijklmnopqrstuvwx\""
            ],
        ]),
    RuleFixture(
        rule: "cleartext-http",
        positives: [
            // Configuration: the key names where the app connects.
            ["App/Resources/Config.json": #"{"api": {"baseURL": "http://api.example.com/v2", "timeout": 20}}"#],
            ["App/Resources/Environments.json": #"{"servers": [{"name": "prod", "url": "http://prod.example.com"}]}"#],
            [
                "App/Config/Release.xcconfig":
                    "API_ROOT = http:/$()/api.example.com\nSERVER_ADDRESS = http://api.example.com"
            ],
            plist("<key>BackendHost</key><string>http://api.example.com</string>"),
            // A small list is still configuration: twenty links.
            dataSet(20, name: "App/Resources/mirrors.json"),
        ],
        negatives: [
            // A bundled catalogue (a podcast directory, radio stations, a food database's sources): data the app
            // shows, not where it configures its networking.
            dataSet(21), dataSet(3000),
            // A URL in prose, or under a key that names no endpoint.
            [
                "App/Resources/About.json":
                    #"{"description": "Data from http://openfoodfacts.example.org, thanks!", "credits": ["http://example.org/icons"]}"#
            ],
            plist("<key>NSHumanReadableCopyright</key><string>http://example.com</string>"),
        ]),
    RuleFixture(
        rule: "hardcoded-secret",
        positives: [
            swift("let key = \"\"\"\n-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\n\"\"\""),
            // PostHog's personal API keys (phx_) are secrets, unlike its project keys.
            swift("let posthogAPIKey = \"phx_rXGHx9vDmyEvyRxPziYtdVIv0ahEv8A9uLWFcCi1WcU\""),
        ],
        negatives: [
            // A PEM parser's armor lines are constants, not keys.
            swift(
                "final class Parser {\n private static let pemHeader = \"-----BEGIN PRIVATE KEY-----\"\n private static let pemFooter = \"-----END PRIVATE KEY-----\"\n}"
            ),
            objc("static NSString *const kHeader = @\"-----BEGIN RSA PRIVATE KEY-----\\n\";"),
            // PostHog's project key is public by design (Element X); a per-build Firebase configuration (Home Assistant).
            swift("let posthogAPIKey = \"phc_rXGHx9vDmyEvyRxPziYtdVIv0ahEv8A9uLWFcCi1WcU\""),
            objc("static NSString *const kPosthogAPIKey = @\"phc_rXGHx9vDmyEvyRxPziYtdVIv0ahEv8A9uLWFcCi1WcU\";"),
            plist(
                "<key>API_KEY</key><string>AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW</string>",
                name: "App/Resources/GoogleService-Info-Release.plist"),
        ]),
    RuleFixture(
        rule: "trust-all-certificates",
        positives: [
            // A password answer first, then the server's trust accepted unevaluated.
            swift(
                "func urlSession(_ s: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {\n switch challenge.protectionSpace.authenticationMethod {\n case NSURLAuthenticationMethodHTTPBasic:\n  completionHandler(.useCredential, request.credential)\n case NSURLAuthenticationMethodServerTrust:\n  completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!))\n default:\n  completionHandler(.performDefaultHandling, nil)\n }\n}"
            )
        ],
        negatives: [
            // The password answer is not the trust's: the trust is evaluated before it is accepted.
            swift(
                "func urlSession(_ s: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {\n switch challenge.protectionSpace.authenticationMethod {\n case NSURLAuthenticationMethodHTTPBasic:\n  completionHandler(.useCredential, webdavRequest.credential)\n case NSURLAuthenticationMethodServerTrust:\n  guard let trust = challenge.protectionSpace.serverTrust, SecTrustEvaluateWithError(trust, nil) else {\n   completionHandler(.cancelAuthenticationChallenge, nil)\n   return\n  }\n  completionHandler(.useCredential, URLCredential(trust: trust))\n default:\n  completionHandler(.performDefaultHandling, nil)\n }\n}"
            )
        ]),
    RuleFixture(
        rule: "oauth-in-webview",
        positives: [
            // A login flow's endpoint, named so, loaded in a web view (the constant is defined in another file).
            objc(
                "- (void)viewDidLoad\n{\n NSString *urlString = [NSString stringWithFormat:@\"%@%@\", _serverUrl, kNCAuthTokenFlowEndpoint];\n NSURL *url = [NSURL URLWithString:urlString];\n NSMutableURLRequest *request = [[NSMutableURLRequest alloc] initWithURL:url];\n [self->_webView loadRequest:request];\n}"
            ),
            swift(
                "func show() {\n let url = server.appendingPathComponent(loginEndpoint)\n webView.load(URLRequest(url: url))\n}"
            ),
        ],
        negatives: [
            objc(
                "- (void)viewDidLoad\n{\n NSURL *url = [NSURL URLWithString:[_serverUrl stringByAppendingString:kNCHelpEndpoint]];\n [self->_webView loadRequest:[NSURLRequest requestWithURL:url]];\n}"
            ),
            swift(
                "func show() {\n let url = server.appendingPathComponent(logoutEndpoint)\n webView.load(URLRequest(url: url))\n}"
            ),
        ]),
    RuleFixture(
        rule: "non-constant-time-compare",
        positives: [
            // The entered PIN against the kept one, under the same name.
            swift(
                "var pin: String? { keychain.pin }\nfunc unlock(with pin: String) -> Bool { isEnabled && pin == self.pin }"
            ),
            swift("func unlock(_ passcode: String) { if passcode == AppLockManager.shared.passcode { open() } }"),
            swift("func replace(_ user: User) { guard user.state.pin == evaluatedPolicy.pin else { return } }"),
            swift("func authorised(_ credentials: Credentials) -> Bool { credentials.password == password }"),
            // `old` is what the user typed; `stored` makes it a check.
            swift("func change(_ oldPin: String) { if oldPin != storedPin { fail() } }"),
            // A hard-coded secret.
            swift("func unlock(_ pin: String) -> Bool { pin == \"1234\" }"),
            swift("func unlock(_ passcode: String) -> Bool { \"0000\" == passcode }"),
            objc("- (BOOL)unlock:(NSString *)pin { return [pin isEqualToString:self.pin]; }"),
            objc("- (BOOL)unlock:(NSString *)passcode { return [passcode isEqualToString:@\"1234\"]; }"),
        ],
        negatives: [
            // The second entry against the first, during setup.
            swift("func confirm(_ pin: String) { guard pin == firstPin else { return } }"),
            swift("func confirm(_ passcode: String) { if self.passcodeFromFirstStep == passcode { save() } }"),
            // Policy: the password must differ from the user name.
            swift("func validate(_ password: String) { guard password != username else { return } }"),
            // UI identity, error codes, menu titles, table rows.
            swift("func next(_ textField: UITextField) { if textField == textFieldPassword { submit() } }"),
            objc("- (void)done { if (ret == RET_WRONG_PASSWORD) { [self retry]; } }"),
            objc("- (void)failed { if (errorCode == HTTP_ERR_LOGIN_INCORRECT_PASSWORD) { [self ask]; } }"),
            objc("- (void)tap:(NSString *)title { if ([S_RESET_PASSWORD isEqualToString:title]) { [self reset]; } }"),
            objc(
                "- (void)select:(NSIndexPath *)indexPath { if (indexPath.row == CELL_CLEAR_PASSWORD) { [self clear]; } }"
            ),
            // Structural equality in an `==` implementation.
            swift("static func == (lhs: Account, rhs: Account) -> Bool { lhs.password == rhs.password }"),
            objc(
                "- (BOOL)isEqualToAccount:(Account *)other { return [self.password isEqualToString:other.password]; }"),
            // Empty checks and field kinds are not hard-coded secrets.
            swift("func empty(_ pin: String) -> Bool { pin == \"\" }"),
            swift("func kind(_ field: Field) -> Bool { field.type == \"password\" }"),
        ]),
    RuleFixture(
        rule: "trust-all-certificates",
        positives: [
            // A host check is not an evaluation of the certificate.
            swift(
                "func urlSession(_ s: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {\n if challenge.protectionSpace.host == baseHost { completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!)) } }"
            ),
            objc(
                "- (void)URLSession:(NSURLSession *)s didReceiveChallenge:(NSURLAuthenticationChallenge *)challenge completionHandler:(void (^)(NSURLSessionAuthChallengeDisposition, NSURLCredential *))completionHandler {\n if ([challenge.protectionSpace.host isEqualToString:self.baseHost]) { completionHandler(NSURLSessionAuthChallengeUseCredential, [NSURLCredential credentialForTrust:challenge.protectionSpace.serverTrust]); }\n}"
            ),
            // A policy that does not pin (no pinning mode, or no pinned certificates) accepts anything so.
            objc(
                "static AFSecurityPolicy *Policy(void) {\n AFSecurityPolicy *policy = [AFSecurityPolicy policyWithPinningMode:AFSSLPinningModeNone];\n policy.allowInvalidCertificates = YES;\n [policy setPinnedCertificates:certs];\n return policy;\n}"
            ),
            objc(
                "static AFSecurityPolicy *Policy(void) {\n AFSecurityPolicy *policy = [AFSecurityPolicy policyWithPinningMode:AFSSLPinningModePublicKey];\n policy.allowInvalidCertificates = YES;\n return policy;\n}"
            ),
            swift(
                "func policy() -> AFSecurityPolicy {\n let policy = AFSecurityPolicy(pinningMode: .none)\n policy.allowInvalidCertificates = true\n return policy }"
            ),
            // A setting answers before the evaluation runs.
            objc(
                "- (NSURLSessionAuthChallengeDisposition)challenge:(NSURLAuthenticationChallenge *)challenge credential:(NSURLCredential **)credential {\n if (self.allowInvalidCert) return NSURLSessionAuthChallengeUseCredential;\n *credential = [NSURLCredential credentialForTrust:challenge.protectionSpace.serverTrust];\n BOOL valid = ServerTrustIsValid(challenge.protectionSpace.serverTrust);\n return valid ? NSURLSessionAuthChallengeUseCredential : NSURLSessionAuthChallengeCancelAuthenticationChallenge;\n}"
            ),
        ],
        negatives: [
            // A self-signed server's certificate pinned by its public key (Seafile): AFNetworking accepts only a chain
            // that holds a pinned key.
            objc(
                "static AFSecurityPolicy *PolicyFromCert(SecCertificateRef cert) {\n AFSecurityPolicy *policy = [AFSecurityPolicy policyWithPinningMode:AFSSLPinningModePublicKey];\n policy.allowInvalidCertificates = YES;\n policy.validatesDomainName = NO;\n [policy setPinnedCertificates:[NSSet setWithArray:certificates]];\n return policy;\n}"
            ),
            swift(
                "func policy(_ pinned: Set<Data>) -> AFSecurityPolicy {\n let policy = AFSecurityPolicy(pinningMode: .certificate)\n policy.pinnedCertificates = pinned\n policy.allowInvalidCertificates = true\n return policy }"
            ),
            objc(
                "- (NSURLSessionAuthChallengeDisposition)challenge:(NSURLAuthenticationChallenge *)challenge credential:(NSURLCredential **)credential {\n *credential = [NSURLCredential credentialForTrust:challenge.protectionSpace.serverTrust];\n BOOL valid = ServerTrustIsValid(challenge.protectionSpace.serverTrust);\n return valid ? NSURLSessionAuthChallengeUseCredential : NSURLSessionAuthChallengeCancelAuthenticationChallenge;\n}"
            ),
            // The app's own pinning check decides before the trust is used.
            swift(
                "func urlSession(_ s: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {\n if CertificateStore.shared.checkTrustedChallenge(challenge) { completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!)) } else { completionHandler(.performDefaultHandling, nil) } }"
            ),
            objc(
                "- (void)URLSession:(NSURLSession *)s didReceiveChallenge:(NSURLAuthenticationChallenge *)challenge completionHandler:(void (^)(NSURLSessionAuthChallengeDisposition, NSURLCredential *))completionHandler {\n if ([[CertificateStore sharedManager] checkTrustedChallenge:challenge]) { completionHandler(NSURLSessionAuthChallengeUseCredential, [NSURLCredential credentialForTrust:challenge.protectionSpace.serverTrust]); } else { completionHandler(NSURLSessionAuthChallengePerformDefaultHandling, nil); }\n}"
            ),
        ]),
    RuleFixture(
        rule: "secret-in-log",
        positives: [
            swift("func joined(_ roomAccessToken: String) { print(\"joined with \\(roomAccessToken)\") }"),
            // The token of a session, a user or an account is a credential.
            swift("func joined(_ room: Room) { print(\"joined with \\(session.token)\") }"),
            swift("func start(_ room: Room) { let token = account.token\n print(\"starting with \\(token)\") }"),
            objc("- (void)joined:(Room *)room { NSLog(@\"joined with %@\", [session token]); }"),
            objc(
                "- (void)m {\n NSData *key = [RLMRealm keyForURL:url encryptionKey:self.encryptionKey];\n NSLog(@\"key %@\", key);\n}"
            ),
        ],
        negatives: [
            // A room token names a conversation; it is not a credential.
            swift("func joined(_ roomToken: String) { print(\"joined room \\(roomToken)\") }"),
            objc("- (void)joined:(NSString *)roomToken { NSLog(@\"joined room %@\", roomToken); }"),
            // The token of a room is its identifier too, read from the room or through a variable.
            swift("func joined(_ room: Room) { print(\"joined room \\(room.token)\") }"),
            swift(
                "func start(_ room: Room) { guard let roomToken = room.token else { return }\n print(\"chat for \\(roomToken)\") }"
            ),
            swift("func start() { let current = self.currentConversation.token\n print(\"opening \\(current)\") }"),
            objc("- (void)joined:(Room *)room { NSLog(@\"joined room %@\", [room token]); }"),
            objc("- (void)joined { NSLog(@\"joined room %@\", self.room.token); }"),
            // `encryptionKey:` labels a nil argument: the result is a schema version.
            objc(
                "- (void)m {\n uint64_t version = [RLMRealm schemaVersionAtURL:url encryptionKey:nil error:&error];\n NSLog(@\"schema %llu\", version);\n}"
            ),
        ]),
    RuleFixture(
        rule: "secret-in-user-defaults",
        positives: [
            // A secret-named property's setter stores its new value (under a key that does not say so).
            swift(
                "final class Settings {\n var accessToken: String? {\n  get { UserDefaults.standard.string(forKey: \"a\") }\n  set { UserDefaults.standard.set(newValue, forKey: \"a\") }\n }\n}"
            ),
            // An app's own property wrapper over UserDefaults.
            swift(
                "enum Preferences {\n @UserDefault(\"password\", defaultValue: \"\") public static var password: String\n}"
            ),
            swift(
                "final class Model {\n @UserDefaultsBacked(key: \"password\", defaultValue: \"\")\n var serverPassword: String\n}"
            ),
        ],
        negatives: [
            // The setter of a property whose name is not a secret's.
            swift(
                "final class Settings {\n var theme: String? {\n  get { UserDefaults.standard.string(forKey: \"a\") }\n  set { UserDefaults.standard.set(newValue, forKey: \"a\") }\n }\n}"
            ),
            swift(
                "enum Preferences {\n @UserDefault(\"username\", defaultValue: \"\") public static var username: String\n}"
            ),
            swift(
                "enum Preferences {\n @UserDefault(\"ignoreSSL\", defaultValue: false) static var ignoreSSL: Bool\n}"),
            swift(
                "final class Model {\n @UserDefaultsBacked(key: \"alwaysSendCreds\", defaultValue: false)\n var alwaysSendCreds: Bool\n}"
            ),
        ]),
    RuleFixture(
        rule: "keychain-not-this-device-only",
        positives: [
            // KeychainSwift's default is accessibleWhenUnlocked.
            swift("import KeychainSwift\nfunc save(_ token: String) { keychain.set(token, forKey: \"token\") }"),
            swift(
                "import KeychainSwift\nfunc save(_ pin: String, user: User) { KeychainSwift().set(pin, forKey: \"\\(user.id)-pin\") }"
            ),
            swift(
                "import KeychainSwift\nvar token: String { get { \"\" } set { keychain.set(newValue, forKey: \"\\(id)-accessToken\") } }"
            ),
            // UICKeyChainStore's default is AfterFirstUnlock.
            objc(
                "@import UICKeyChainStore;\n- (void)setToken:(NSString *)token forAccountId:(NSString *)accountId\n{\n [_keychain setString:token forKey:accountId];\n}"
            ),
            objc(
                "@import UICKeyChainStore;\n- (void)setKey:(NSData *)privateKey\n{\n [_keychain setData:privateKey forKey:@\"pn-private-key\"];\n}"
            ),
            swift(
                "import UICKeyChainStore\nfunc save(_ token: String) { keychain.setString(token, forKey: \"token\") }"),
        ],
        negatives: [
            swift(
                "import KeychainSwift\nfunc save(_ token: String) { keychain.set(token, forKey: \"token\", withAccess: .accessibleWhenUnlockedThisDeviceOnly) }"
            ),
            // Not KeychainSwift: an app's own wrapper is judged where it builds its query.
            swift("func save(_ token: String) { keychain.set(token, forKey: \"token\") }"),
            swift("import KeychainSwift\nfunc save(_ theme: String) { keychain.set(theme, forKey: \"theme\") }"),
            // UICKeyChainStore with a ThisDeviceOnly accessibility, and a non-secret value.
            objc(
                "@import UICKeyChainStore;\n- (instancetype)init\n{\n _keychain = [UICKeyChainStore keyChainStoreWithService:@\"s\"];\n _keychain.accessibility = UICKeyChainStoreAccessibilityWhenUnlockedThisDeviceOnly;\n return self;\n}\n- (void)setToken:(NSString *)token\n{\n [_keychain setString:token forKey:@\"token\"];\n}"
            ),
            objc(
                "@import UICKeyChainStore;\n- (void)setTheme:(NSString *)theme\n{\n [_keychain setString:theme forKey:@\"theme\"];\n}"
            ),
            // A public key, whatever its parameter is called: the key names it.
            objc(
                "@import UICKeyChainStore;\n- (void)setPushPublicKey:(NSData *)privateKey\n{\n [_keychain setData:privateKey forKey:kNCPNPublicKey];\n}"
            ),
        ]),
    RuleFixture(
        rule: "secret-in-file",
        positives: [
            swift(
                "func save(_ realm: Realm) {\n let block = Block()\n block.token = session.token\n realm.add(block)\n}"
            ),
            objc(
                "- (void)save:(RLMRealm *)realm {\n Block *block = [[Block alloc] init];\n block.token = [session token];\n [realm addObject:block];\n}"
            ),
            // A secret-named Core Data attribute, set on the result of a generic insert (Mastodon) and in an updater.
            swift(
                "import CoreData\nfinal public class Account: NSManagedObject {\n @NSManaged public private(set) var userAccessToken: String\n public static func insert(into context: NSManagedObjectContext, property: Property) -> Account {\n  let account: Account = context.insertObject()\n  account.userAccessToken = property.userAccessToken\n  return account\n }\n}"
            ),
            swift(
                "import CoreData\nfinal class Account: NSManagedObject {\n @NSManaged var clientSecret: String\n func update(clientSecret: String) {\n  if self.clientSecret != clientSecret { self.clientSecret = clientSecret }\n }\n}"
            ),
            // The entity is declared in its own file; the object comes from a fetch this file does not type.
            [
                "App/Subscription.swift":
                    "import CoreData\nfinal class Subscription: NSManagedObject {\n @NSManaged var endpoint: String\n @NSManaged var userToken: String?\n}",
                "App/Subscribe.swift":
                    "import CoreData\nfunc save(_ context: NSManagedObjectContext, id: NSManagedObjectID, authorization: Authorization) {\n guard let subscription = context.object(with: id) as? Subscription else { return }\n subscription.userToken = authorization.accessToken\n}",
            ],
            // Objective-C: the attribute is @dynamic in the entity's implementation.
            [
                "App/Account.m": "#import \"Account.h\"\n@implementation Account\n@dynamic username, password;\n@end",
                "App/Login.m":
                    "#import <CoreData/CoreData.h>\n- (void)save {\n Account *account = [self.store currentAccount];\n account.password = self.passwordField.text;\n}",
            ],
        ],
        negatives: [
            // A value type's initialiser sets its own stored properties, even beside an entity with that attribute.
            swift(
                "import CoreData\nfinal class Account: NSManagedObject {\n @NSManaged var clientSecret: String\n}\nextension Account {\n struct Property {\n  let clientSecret: String\n  init(clientSecret: String) {\n   self.clientSecret = clientSecret\n  }\n }\n}"
            ),
            // No entity of the project has a secret attribute of that name: a form's field, not a column.
            [
                "App/Subscription.swift":
                    "import CoreData\nfinal class Subscription: NSManagedObject {\n @NSManaged var endpoint: String\n @NSManaged var serverKey: String\n}",
                "App/Form.swift":
                    "import CoreData\nfunc fill(_ form: LoginForm) {\n form.password = passwordField.text\n}",
            ],
            [
                "App/Account.m": "#import \"Account.h\"\n@implementation Account\n@dynamic username, avatarURL;\n@end",
                "App/Login.m":
                    "#import <CoreData/CoreData.h>\n- (void)fill {\n self.form.password = self.passwordField.text;\n}",
            ],
            // A message of a room keeps the room's token: which conversation it belongs to.
            swift(
                "func save(_ realm: Realm) {\n let message = Message()\n message.token = self.room.token\n realm.add(message)\n}"
            ),
            objc(
                "- (void)save:(RLMRealm *)realm {\n Message *message = [[Message alloc] init];\n message.token = [self.room token];\n [realm addObject:message];\n}"
            ),
        ]),
    RuleFixture(
        rule: "insecure-random-for-secret",
        positives: [
            // SAML's credential token, fetched with the login result, is a credential.
            swift("final class SAMLViewController {\n let credentialToken = String.random(17)\n}"),
            objc("- (void)start {\n NSString *credentialToken = [NSString stringWithFormat:@\"%u\", arc4random()];\n}"),
        ],
        negatives: [
            // A token that registers a handler with a socket manager is a dictionary key, not a secret.
            swift("final class MainViewController {\n let socketHandlerToken = String.random(5)\n}"),
            objc("- (void)start {\n NSString *listenerToken = [NSString stringWithFormat:@\"%u\", arc4random()];\n}"),
        ]),
    RuleFixture(
        rule: "faceid-usage-description-missing",
        positives: [
            // A preprocessed Info.plist (INFOPLIST_PREPROCESS) is still read: here it has no usage description.
            objc("LAContext *context = [[LAContext alloc] init];").merging(
                plist(
                    "<key>CFBundleURLTypes</key><array><dict><key>CFBundleURLSchemes</key><array>\n<string>app</string>\n#ifdef INTUNE\n<string>app-intunemam</string>\n#endif\n</array></dict></array>"
                )
            ) { $1 }
        ],
        negatives: [
            // KeePassium's Info.plist: `#ifdef` lines between its elements, the usage description after them.
            swift("import LocalAuthentication\nlet context = LAContext()").merging(
                plist(
                    "<key>CFBundleURLTypes</key><array><dict><key>CFBundleURLSchemes</key><array>\n<string>app</string>\n#ifdef INTUNE\n<string>app-intunemam</string>\n#endif\n</array></dict></array>\n<key>NSFaceIDUsageDescription</key><string>Unlock your database</string>"
                )
            ) { $1 }
        ]),
    RuleFixture(
        rule: "keychain-accessibility-missing",
        positives: [
            // A C dictionary from key and value arrays, with no accessibility among the keys (Seafile's identities).
            objc(
                "static CFDataRef persistentRefForIdentity(SecIdentityRef identity)\n{\n CFTypeRef persistent_ref = NULL;\n const void *keys[] = { kSecReturnPersistentRef, kSecValueRef };\n const void *values[] = { kCFBooleanTrue, identity };\n CFDictionaryRef dict = CFDictionaryCreate(NULL, keys, values, 2, NULL, NULL);\n OSStatus status = SecItemAdd(dict, &persistent_ref);\n return status == errSecSuccess ? (CFDataRef)persistent_ref : NULL;\n}"
            )
        ],
        negatives: [
            objc(
                "static CFDataRef persistentRefForIdentity(SecIdentityRef identity)\n{\n CFTypeRef persistent_ref = NULL;\n const void *keys[] = { kSecReturnPersistentRef, kSecValueRef, kSecAttrAccessible };\n const void *values[] = { kCFBooleanTrue, identity, kSecAttrAccessibleWhenUnlockedThisDeviceOnly };\n CFDictionaryRef dict = CFDictionaryCreate(NULL, keys, values, 3, NULL, NULL);\n OSStatus status = SecItemAdd(dict, &persistent_ref);\n return status == errSecSuccess ? (CFDataRef)persistent_ref : NULL;\n}"
            )
        ]),
    RuleFixture(
        rule: "secret-in-user-defaults",
        positives: [
            // The key is a local constant whose literal names a token (Home Assistant's widget authenticity token).
            swift(
                "var widgetAuthenticityToken: String {\n let key = \"widgetAuthenticityToken\"\n let value = makeValue()\n UserDefaults.standard.set(value, forKey: key)\n return value\n}"
            ),
            objc(
                "- (void)remember:(NSString *)value\n{\n NSString *key = @\"authToken\";\n [[NSUserDefaults standardUserDefaults] setObject:value forKey:key];\n}"
            ),
        ],
        negatives: [
            swift(
                "var theme: String {\n let key = \"theme\"\n let value = makeValue()\n UserDefaults.standard.set(value, forKey: key)\n return value\n}"
            ),
            objc(
                "- (void)remember:(NSString *)value\n{\n NSString *key = @\"lastTab\";\n [[NSUserDefaults standardUserDefaults] setObject:value forKey:key];\n}"
            ),
        ]),
    RuleFixture(
        rule: "non-constant-time-compare",
        positives: [
            // A PIN's code against the stored one (Element X's app lock).
            swift(
                "func unlock(with pinCode: String) -> Bool {\n guard pinCode == keychainController.pinCode() else { return false }\n return true\n}"
            ),
            objc(
                "- (BOOL)unlock:(NSString *)pinCode\n{\n return [pinCode isEqualToString:[self.keychain pinCode]];\n}"),
        ],
        negatives: [
            swift("func valid(_ pinCode: String) -> Bool {\n pinCode.count == pinCodeLength\n}"),
            objc("- (BOOL)valid:(NSString *)pinCode\n{\n return pinCode.length == self.pinCodeLength;\n}"),
        ]),
    RuleFixture(
        rule: "ats-insecure-exception",
        positives: [
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict></dict>"
            )
        ],
        negatives: [
            // Tor's onion services are encrypted and authenticated by the circuit (Mastodon's exception).
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>onion</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/><key>NSIncludesSubdomains</key><true/></dict></dict></dict>"
            )
        ]),
    RuleFixture(
        rule: "cleartext-http",
        positives: [],
        negatives: [
            swift("let mirror = URL(string: \"http://mastodonxyzabcdefghijklmnopqrstuvwxyz234567abcdefghi.onion/\")!")
        ]),
    RuleFixture(
        rule: "keychain-not-this-device-only",
        positives: [
            // A client identity (its private key) under a migrating class.
            swift(
                "func storeIdentity(_ identity: SecIdentity, id: String) {\n let query: [String: Any] = [\n  kSecValueRef as String: identity,\n  kSecAttrLabel as String: id,\n  kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,\n ]\n SecItemAdd(query as CFDictionary, nil)\n}"
            ),
            objc(
                "- (void)storeIdentity:(SecIdentityRef)identity\n{\n NSDictionary *query = @{(__bridge id)kSecValueRef: (__bridge id)identity, (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAfterFirstUnlock};\n SecItemAdd((__bridge CFDictionaryRef)query, NULL);\n}"
            ),
        ],
        negatives: [
            // The intermediate certificates of that identity: public material (Home Assistant).
            swift(
                "func storeIntermediateCertificates(_ certs: [SecCertificate], for id: String) {\n let der = certs.compactMap { SecCertificateCopyData($0) as Data? }\n guard let serialized = try? PropertyListSerialization.data(fromPropertyList: der, format: .binary, options: 0) else { return }\n let query: [String: Any] = [\n  kSecClass as String: kSecClassGenericPassword,\n  kSecAttrAccount as String: id,\n  kSecValueData as String: serialized,\n  kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,\n ]\n SecItemAdd(query as CFDictionary, nil)\n}"
            ),
            objc(
                "- (void)storeChain:(NSArray *)certificates\n{\n NSMutableArray *der = [NSMutableArray array];\n for (id certificate in certificates) { [der addObject:(__bridge_transfer NSData *)SecCertificateCopyData((__bridge SecCertificateRef)certificate)]; }\n NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecValueData: [NSKeyedArchiver archivedDataWithRootObject:der requiringSecureCoding:YES error:nil], (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAfterFirstUnlock};\n SecItemAdd((__bridge CFDictionaryRef)query, NULL);\n}"
            ),
        ]),
    RuleFixture(
        rule: "password-field-without-content-type",
        positives: [
            // A password field subclass that turns secure entry on for itself.
            swift(
                "class PasswordTextField: UITextField {\n override init(frame: CGRect) {\n  super.init(frame: frame)\n  self.isSecureTextEntry = true\n }\n}"
            ),
            objc(
                "@implementation PasswordTextField\n- (instancetype)initWithFrame:(CGRect)frame\n{\n self = [super initWithFrame:frame];\n self.secureTextEntry = YES;\n return self;\n}\n@end"
            ),
        ],
        negatives: [
            // A secure field used only as a canvas that screenshots leave blank (ownCloud's confidential views).
            swift(
                "class SecureTextField: UITextField {\n override init(frame: CGRect) {\n  super.init(frame: .zero)\n  self.isSecureTextEntry = true\n }\n var secureContainerView: UIView {\n  subviews.first { type(of: $0).description().contains(\"CanvasView\") } ?? UIView()\n }\n}"
            ),
            objc(
                "@implementation SecureCanvasField\n- (instancetype)initWithFrame:(CGRect)frame\n{\n self = [super initWithFrame:frame];\n self.secureTextEntry = YES;\n return self;\n}\n- (UIView *)canvas\n{\n return self.subviews.firstObject;\n}\n@end"
            ),
        ]),
    RuleFixture(
        rule: "cleartext-http",
        positives: [
            // The redirect of an authorization request: the code would travel to it in cleartext.
            swift(
                "let request = AuthRequest(clientID: id, redirectURI: \"http://example.com/callback\", scope: scope)"),
            objc(
                "NSDictionary *query = @{@\"client_id\": clientID, @\"redirect_uri\": @\"http://example.com/callback\"};"
            ),
        ],
        negatives: [
            // The redirect_uri of a refresh-token grant, which the token endpoint ignores (ProtonVPN).
            swift(
                "static func withRefreshToken(_ token: String) -> Params {\n Params(grantType: \"refresh_token\", refreshToken: token, redirectURI: \"http://example.com\")\n}"
            ),
            objc(
                "NSDictionary *body = @{@\"grant_type\": @\"refresh_token\", @\"refresh_token\": token, @\"redirect_uri\": @\"http://example.com\"};"
            ),
        ]),
    RuleFixture(
        rule: "keychain-not-this-device-only",
        positives: [
            // ownCloud's OCKeychain always writes AfterFirstUnlock (the app lock's passcode).
            swift(
                "var passcode: String? {\n set(newPasscode) {\n  if let passcode = newPasscode {\n   _ = keychain?.write(passcode.data(using: .utf8), toKeychainItemForAccount: keychainAccount, path: keychainPasscodePath)\n  }\n }\n}"
            ),
            objc(
                "- (void)savePassword:(NSString *)password\n{\n [self.keychain writeData:[password dataUsingEncoding:NSUTF8StringEncoding] toKeychainItemForAccount:self.account path:@\"credentials\"];\n}"
            ),
        ],
        negatives: [
            // What it keeps there is not a secret: when the app went to the background.
            swift(
                "func remember(_ date: Date) {\n let data = try? NSKeyedArchiver.archivedData(withRootObject: date, requiringSecureCoding: true)\n _ = keychain?.write(data, toKeychainItemForAccount: keychainAccount, path: keychainLockedDatePath)\n}"
            ),
            objc(
                "- (void)rememberDate:(NSDate *)date\n{\n [self.keychain writeObject:date toKeychainItemForAccount:self.account path:@\"lockedDate\"];\n}"
            ),
        ]),
    RuleFixture(
        rule: "oauth-in-webview",
        positives: [
            // The URL of a sign-in model (Home Assistant's onboarding login page).
            swift("func refresh() {\n webView.load(URLRequest(url: authDetails.url))\n}"),
            objc(
                "- (void)refresh\n{\n [self.webView loadRequest:[NSURLRequest requestWithURL:self.loginPage.url]];\n}"),
        ],
        negatives: [
            swift("func refresh() {\n webView.load(URLRequest(url: authorProfile.url))\n}"),
            objc("- (void)refresh\n{\n [self.webView loadRequest:[NSURLRequest requestWithURL:self.helpPage.url]];\n}"),
        ]),
    RuleFixture(
        rule: "keychain-not-this-device-only",
        positives: [
            // A store assigned in the initialiser (Element X's restoration token).
            swift(
                "import KeychainAccess\nfinal class KeychainController {\n private let restorationTokenKeychain: Keychain\n init(service: String) {\n  restorationTokenKeychain = Keychain(service: service)\n }\n func save(_ tokenData: Data, username: String) throws {\n  try restorationTokenKeychain.set(tokenData, key: username)\n }\n}"
            ),
            // set(_:key:) judges the store as the subscript does: made in another file, or inline.
            [
                "App/Stores.swift":
                    "import KeychainAccess\nenum Stores {\n static let keychain = Keychain(service: \"app\")\n}",
                "App/Session.swift":
                    "import KeychainAccess\nfunc save(_ refreshToken: String) throws {\n try Stores.keychain.set(refreshToken, key: \"session\")\n}",
            ],
            swift(
                "import KeychainAccess\nfunc save(_ refreshToken: String) throws {\n try Keychain(service: \"app\").set(refreshToken, key: \"session\")\n}"
            ),
            // A Thread network's active operational dataset holds its network key (Home Assistant's Matter
            // commissioning).
            swift(
                "import KeychainAccess\nfinal class Settings {\n let keychain = Keychain(service: \"app\")\n var lastActiveOperationalDataset: String? {\n  get { keychain[\"dataset\"] }\n  set { keychain[\"dataset\"] = newValue }\n }\n}"
            ),
            // An encoded Codable record whose type, in another file, stores a token (Mastodon's authentications).
            [
                "App/Account.swift":
                    "struct Account: Codable, Hashable {\n let id: String\n public private(set) var userAccessToken: String\n}",
                "App/AccountStore.swift":
                    "import KeychainAccess\nfinal class AccountStore {\n private static let keychain = Keychain(service: \"accounts\")\n var accounts: [Account] = []\n func persist() {\n  for account in accounts {\n   Self.keychain[account.id] = try? JSONEncoder().encode(account).base64EncodedString()\n  }\n }\n}",
            ],
        ],
        negatives: [
            // The record's type reads its token from the Keychain (a computed property is not encoded), or the
            // record encoded is another type than the one that stores a token.
            [
                "App/Account.swift":
                    "struct Account: Codable {\n let id: String\n var accessToken: String? { Keychain(service: \"t\")[id] }\n}",
                "App/AccountStore.swift":
                    "import KeychainAccess\nfinal class AccountStore {\n private static let keychain = Keychain(service: \"accounts\")\n var accounts: [Account] = []\n func persist() {\n  for account in accounts {\n   Self.keychain[account.id] = try? JSONEncoder().encode(account).base64EncodedString()\n  }\n }\n}",
            ],
            [
                "App/Account.swift": "struct Account: Codable {\n let id: String\n let refreshToken: String\n}",
                "App/Layout.swift":
                    "import KeychainAccess\nstruct Layout: Codable {\n let columns: Int\n}\nlet keychain = Keychain(service: \"layout\")\nfunc save(_ layout: Layout) {\n keychain[\"layout\"] = try? JSONEncoder().encode(layout).base64EncodedString()\n}",
            ],
            // The network's extended PAN ID is broadcast in its beacons: an identifier, not a credential.
            swift(
                "import KeychainAccess\nfinal class Settings {\n let keychain = Keychain(service: \"app\")\n var lastExtendedPANID: String? {\n  get { keychain[\"panid\"] }\n  set { keychain[\"panid\"] = newValue }\n }\n}"
            ),
            // The store of that name names its accessibility where it is made, or the write's chain does.
            [
                "App/Stores.swift":
                    "import KeychainAccess\nenum Stores {\n static let keychain = Keychain(service: \"app\").accessibility(.whenUnlockedThisDeviceOnly)\n}",
                "App/Session.swift":
                    "import KeychainAccess\nfunc save(_ refreshToken: String) throws {\n try Stores.keychain.set(refreshToken, key: \"session\")\n}",
            ],
            swift(
                "import KeychainAccess\nlet keychain = Keychain(service: \"app\")\nfunc save(_ refreshToken: String) throws {\n try keychain.accessibility(.whenUnlockedThisDeviceOnly).set(refreshToken, key: \"session\")\n}"
            ),
        ]),
    RuleFixture(
        rule: "oauth-without-pkce",
        positives: [
            // Query items named by constants (KeePassium's Google Drive sign-in).
            swift(
                "func authURL() -> URL {\n var c = URLComponents()\n c.queryItems = [\n URLQueryItem(name: GoogleDriveAPI.Keys.clientID, value: GoogleDriveAPI.clientID),\n URLQueryItem(name: GoogleDriveAPI.Keys.responseType, value: \"code\"),\n URLQueryItem(name: GoogleDriveAPI.Keys.redirectURI, value: GoogleDriveAPI.authRedirectURI)]\n return c.url! }"
            ),
            objc(
                "- (NSURL *)authURL {\n NSURLComponents *c = [[NSURLComponents alloc] init];\n c.queryItems = @[[NSURLQueryItem queryItemWithName:kClientID value:self.clientID], [NSURLQueryItem queryItemWithName:kResponseType value:@\"code\"]];\n return c.URL;\n}"
            ),
        ],
        negatives: [
            swift(
                "func authURL(_ challenge: String, _ state: String) -> URL {\n var c = URLComponents()\n c.queryItems = [\n URLQueryItem(name: Keys.responseType, value: \"code\"),\n URLQueryItem(name: Keys.codeChallenge, value: challenge),\n URLQueryItem(name: Keys.codeChallengeMethod, value: \"S256\"),\n URLQueryItem(name: Keys.state, value: state)]\n return c.url! }"
            ),
            objc(
                "- (NSURL *)authURL {\n NSURLComponents *c = [[NSURLComponents alloc] init];\n c.queryItems = @[[NSURLQueryItem queryItemWithName:kResponseType value:@\"code\"], [NSURLQueryItem queryItemWithName:kCodeChallenge value:self.challenge], [NSURLQueryItem queryItemWithName:kState value:self.state]];\n return c.URL;\n}"
            ),
            // A constant that is not named after a parameter names nothing.
            swift(
                "func searchURL() -> URL {\n var c = URLComponents()\n c.queryItems = [URLQueryItem(name: Keys.kind, value: \"code\")]\n return c.url! }"
            ),
        ]),
    RuleFixture(
        rule: "oauth-without-state",
        positives: [
            swift(
                "func authURL(_ challenge: String) -> URL {\n var c = URLComponents()\n c.queryItems = [\n URLQueryItem(name: Keys.responseType, value: \"code\"),\n URLQueryItem(name: Keys.codeChallenge, value: challenge)]\n return c.url! }"
            ),
            objc(
                "- (NSURL *)authURL {\n NSURLComponents *c = [[NSURLComponents alloc] init];\n c.queryItems = @[[NSURLQueryItem queryItemWithName:kResponseType value:@\"code\"], [NSURLQueryItem queryItemWithName:kCodeChallenge value:self.challenge]];\n return c.URL;\n}"
            ),
        ],
        negatives: [
            swift(
                "func authURL(_ challenge: String, _ state: String) -> URL {\n var c = URLComponents()\n c.queryItems = [\n URLQueryItem(name: Keys.responseType, value: \"code\"),\n URLQueryItem(name: Keys.codeChallenge, value: challenge),\n URLQueryItem(name: Keys.state, value: state)]\n return c.url! }"
            ),
            objc(
                "- (NSURL *)authURL {\n NSURLComponents *c = [[NSURLComponents alloc] init];\n c.queryItems = @[[NSURLQueryItem queryItemWithName:kResponseType value:@\"code\"], [NSURLQueryItem queryItemWithName:kCodeChallenge value:self.challenge], [NSURLQueryItem queryItemWithName:kState value:self.state]];\n return c.URL;\n}"
            ),
        ]),
    RuleFixture(
        rule: "insecure-random-for-secret",
        positives: [
            // RFC 9562 §8 (RFC 4122 §6 before it): a UUID is unique, not hard to guess; it MUST NOT be a security capability.
            swift("func start() {\n let state = UUID().uuidString\n open(state)\n}"),
            swift(
                "func start() {\n let codeVerifier = \"\\(UUID().uuidString)-\\(UUID().uuidString)\"\n open(codeVerifier)\n}"
            ),
            swift("func item() -> URLQueryItem { URLQueryItem(name: \"nonce\", value: UUID().uuidString) }"),
            swift(
                "func url() -> String { \"https://id.example.com/authorize?client_id=app&state=\\(UUID().uuidString)\" }"
            ),
            objc("- (void)start {\n NSString *nonce = [[NSUUID UUID] UUIDString];\n [self open:nonce];\n}"),
            swift("func form() -> [String: String] { [\"csrfToken\": UUID().uuidString] }"),
        ],
        negatives: [
            // Where only uniqueness matters: identifiers, cache keys, salts, a device's or a page's token.
            swift(
                "func start() {\n let requestID = UUID().uuidString\n let cacheKey = UUID().uuidString\n use(requestID, cacheKey)\n}"
            ),
            swift("func start() {\n let salt = UUID().uuidString\n use(salt)\n}"),
            swift(
                "func url(_ state: String) -> String { \"https://x.example.com/?request_id=\\(UUID().uuidString)&state=\\(state)\" }"
            ),
            objc("- (void)start {\n NSString *deviceToken = [[NSUUID UUID] UUIDString];\n [self use:deviceToken];\n}"),
            // A generation or resolver marker an app calls a token (Home Assistant).
            swift(
                "final class Player {\n private var connectionToken = UUID()\n func tearDown() { connectionToken = UUID() }\n}"
            ),
            swift("func wait() {\n let token = UUID().uuidString\n pendingResolvers[token] = resolver\n}"),
        ]),
    // A property set in one method and read in another.
    RuleFixture(
        rule: "secret-in-user-defaults",
        positives: [
            // Thread credentials by name: the active operational dataset, the network key.
            objc(
                "- (void)save:(NSString *)dataset {\n [[NSUserDefaults standardUserDefaults] setObject:dataset forKey:@\"activeOperationalDataset\"];\n}"
            ),
            swift("func save(_ key: String) {\n UserDefaults.standard.set(key, forKey: \"threadNetworkKey\")\n}"),
            // A parameter of a Codable type that stores a refresh token, encoded.
            [
                "App/Session.swift": "struct Session: Codable {\n var refreshToken: String\n var expiresAt: Date\n}",
                "App/Save.swift":
                    "func save(_ session: Session) throws {\n UserDefaults.standard.set(try JSONEncoder().encode(session), forKey: \"session\")\n}",
            ],
            swift(
                "final class Connection {\n var info: [String: String] = [:]\n func setToken(_ token: String) {\n info[\"token\"] = token\n save()\n }\n func save() { UserDefaults.standard.set(info, forKey: \"account\") }\n}"
            ),
            swift(
                "final class Connection {\n private var account: Account?\n func signedIn(password: String) { self.account = Account(password: password) }\n func save() { UserDefaults.standard.set(self.account?.dictionary, forKey: \"account\") }\n}"
            ),
            objc(
                "@implementation Connection\n- (void)setToken:(NSString *)token {\n [_info setObject:token forKey:@\"token\"];\n [self save];\n}\n- (void)save {\n [[NSUserDefaults standardUserDefaults] setObject:_info forKey:@\"account\"];\n}\n@end"
            ),
        ],
        negatives: [
            // A Thread network's name and extended PAN ID are in its beacons.
            objc(
                "- (void)save:(NSString *)panID {\n [[NSUserDefaults standardUserDefaults] setObject:panID forKey:@\"extendedPANID\"];\n}"
            ),
            swift("func save(_ name: String) {\n UserDefaults.standard.set(name, forKey: \"threadNetworkName\")\n}"),
            // A member type of the record (`Session.ID`) is not the record; a generic constraint is no
            // conformance; a static constant is not encoded.
            [
                "App/Session.swift":
                    "struct Session: Codable {\n var refreshToken: String\n struct ID: Codable { let raw: String }\n}",
                "App/Save.swift":
                    "func save(_ id: Session.ID) throws {\n UserDefaults.standard.set(try JSONEncoder().encode(id), forKey: \"session\")\n}",
            ],
            [
                "App/Box.swift":
                    "struct Box<T: Codable> {\n var token: String\n}\nstruct Wrapper: Encodable {\n static let token = \"x\"\n let count: Int\n}",
                "App/Save.swift":
                    "func save(_ box: Box, _ wrapper: Wrapper) throws {\n UserDefaults.standard.set(try JSONEncoder().encode(box), forKey: \"box\")\n UserDefaults.standard.set(try JSONEncoder().encode(wrapper), forKey: \"wrapper\")\n}",
            ],
            // The Codable type encoded stores nothing secret (a token count is a number about tokens).
            [
                "App/Session.swift": "struct Session: Codable {\n var refreshToken: String\n}",
                "App/Save.swift":
                    "struct Usage: Codable {\n let tokenCount: Int\n}\nfunc save(_ usage: Usage) throws {\n UserDefaults.standard.set(try JSONEncoder().encode(usage), forKey: \"usage\")\n}",
            ],
            // What the property holds is not a secret.
            swift(
                "final class Connection {\n var info: [String: String] = [:]\n func setTheme(_ theme: String) {\n info[\"theme\"] = theme\n save()\n }\n func save() { UserDefaults.standard.set(info, forKey: \"account\") }\n}"
            ),
            // A local of the same name in another method, and the same member on another object, are not the property.
            swift(
                "final class Connection {\n var info: [String: String] = [:]\n func check(_ password: String) { let info = [\"p\": password]\n send(info) }\n func copy(_ token: String) { session.info = [\"t\": token] }\n func save() { UserDefaults.standard.set(info, forKey: \"account\") }\n}"
            ),
            objc(
                "@implementation Connection\n- (void)setTheme:(NSString *)theme {\n [_info setObject:theme forKey:@\"theme\"];\n}\n- (void)save {\n [[NSUserDefaults standardUserDefaults] setObject:_info forKey:@\"account\"];\n}\n@end"
            ),
        ]),
    RuleFixture(
        rule: "secret-in-log",
        positives: [
            // A plain logging library's logger, declared in another file (Home Assistant's XCGLogger).
            [
                "App/Environment.swift":
                    "import XCGLogger\npublic class AppEnvironment {\n public var Log: XCGLogger = {\n  XCGLogger(identifier: \"app\")\n }()\n}",
                "App/Webhook.swift":
                    "func encrypt(_ secret: [UInt8], json: String) -> Data? {\n guard let sealed = seal(json, secret) else {\n  Current.Log.error(\"Unable to encrypt the payload! Secret: \\(secret)\")\n  return nil\n }\n return sealed\n}",
            ],
            // A logging macro of the app's header, used in another file (Seafile's Warning).
            [
                "App/Debug.h":
                    "#if DEBUG\n#define Debug(fmt, args...) NSLog(@\"#%d %s:\" fmt, __LINE__, __FUNCTION__, ##args)\n#else\n#define Debug(fmt, args...) do{}while(0)\n#endif\n#define Warning(fmt, args...) NSLog(@\"#%d %s:[WARNING]\" fmt, __LINE__, __FUNCTION__, ##args)",
                "App/Connection.m":
                    "#import \"Debug.h\"\n- (void)failed:(NSError *)error\n{\n Warning(\"token=%@, error: %@\", self.token, error);\n}",
            ],
            swift(
                "final class Login {\n var entered = \"\"\n func submit() { entered = passwordField.text ?? \"\" }\n func debug() { print(\"entered \\(entered)\") }\n}"
            ),
            objc(
                "@implementation Login\n- (void)submit {\n _entered = self.passwordField.text;\n}\n- (void)debug {\n NSLog(@\"entered %@\", _entered);\n}\n@end"
            ),
        ],
        negatives: [
            // A plain logger given what is derived from secrets (a hash, a comparison), and os.Logger, which keeps
            // an interpolation private unless it is marked .public.
            [
                "App/Environment.swift":
                    "import XCGLogger\npublic class AppEnvironment {\n public var Log: XCGLogger = {\n  XCGLogger(identifier: \"app\")\n }()\n}",
                "App/Tokens.swift":
                    "func check(_ token: String, parsed: Credentials?, password: String) {\n Current.Log.error(\"Token \\(token.hash) was rejected, hasPassword: \\(parsed?.password != nil)\")\n}",
            ],
            swift(
                "import os\nlet logger = Logger(subsystem: \"app\", category: \"auth\")\nfunc failed(_ token: String) {\n logger.error(\"Refresh failed for \\(token)\")\n}"
            ),
            // The debug-only macro; a macro that does not log; a logging macro given no secret.
            [
                "App/Debug.h":
                    "#if DEBUG\n#define Debug(fmt, args...) NSLog(@\"#%d %s:\" fmt, __LINE__, __FUNCTION__, ##args)\n#else\n#define Debug(fmt, args...) do{}while(0)\n#endif\n#define Track(fmt, args...) [Analytics event:[NSString stringWithFormat:@fmt, ##args]]",
                "App/Connection.m":
                    "#import \"Debug.h\"\n- (void)save:(NSString *)password\n{\n Debug(\"save password %@\", password);\n Track(\"saved %@\", password);\n}",
            ],
            [
                "App/Debug.h": "#define Warning(fmt, args...) NSLog(@\"[WARNING]\" fmt, ##args)",
                "App/Connection.m": "- (void)failed:(NSError *)error\n{\n Warning(\"request failed: %@\", error);\n}",
            ],
            // A property named as an identifier is one (Nextcloud Talk's peer id, made from a signaling session id).
            swift(
                "final class Peer {\n let peerId: String\n init(sessionId: String) { self.peerId = sessionId }\n func log() { print(\"peer \\(peerId)\") }\n}"
            ),
            objc(
                "@implementation Peer\n- (instancetype)initWithSessionId:(NSString *)sessionId {\n _peerId = sessionId;\n return self;\n}\n- (void)log {\n NSLog(@\"peer %@\", _peerId);\n}\n@end"
            ),
        ]),
    RuleFixture(
        rule: "insecure-random-for-secret",
        positives: [
            swift(
                "final class Auth {\n let value = String.random(8)\n func start() { request(nonce: value) }\n}"
            )
        ],
        negatives: [
            // A handler's token kept in a property, passed where a `token:` label takes it (Rocket.Chat).
            swift(
                "final class Main {\n let socketHandlerToken = String.random(5)\n func appear() { SocketManager.addConnectionHandler(token: socketHandlerToken, handler: self) }\n}"
            )
        ]),
    // Properties after review: cycles are followed whatever is asked first; parameters and other types' properties of the
    // same name are not the property.
    RuleFixture(
        rule: "secret-in-log",
        positives: [
            swift(
                "final class Cache {\n var a = \"\"\n var b = \"\"\n func one(token: String) { b = token }\n func two() { b = a }\n func three() { a = b }\n func logB() { print(b) }\n func logA() { print(a) }\n}"
            ),
            // `if let info = info` in the method that writes `self.info`.
            swift(
                "final class Store {\n var info: [String: String]?\n func set(_ token: String) {\n if let info = info { use(info) }\n self.info = [\"t\": token]\n }\n func log() { print(info ?? [:]) }\n}"
            ),
        ],
        negatives: [
            swift(
                "final class Client {\n var header = \"\"\n func authorize(accessToken: String) { header = \"Bearer \\(accessToken)\" }\n func debug(header: String) { print(header) }\n func each(_ items: [String]) { items.forEach { header in print(header) } }\n}"
            ),
            swift(
                "final class Builder {\n var headers: [String: String] = [:]\n func sign(_ headers: inout [String: String], token: String) { headers[\"Authorization\"] = \"Bearer \\(token)\" }\n func dump() { print(headers) }\n}"
            ),
            swift(
                "final class LoginViewModel {\n var message = \"\"\n func fail(password: String) { message = \"bad \\(password)\" }\n}\nfinal class BannerView {\n var message = \"\"\n func show() { print(message) }\n}"
            ),
            objc(
                "@implementation Client\n- (void)authorize:(NSString *)token {\n _header = token;\n}\n- (void)debug:(NSString *)_header {\n NSLog(@\"%@\", _header);\n}\n@end"
            ),
        ]),
    RuleFixture(
        rule: "insecure-random-for-secret",
        positives: [
            swift(
                "func verifierItem() -> URLQueryItem { URLQueryItem(name: Keys.codeVerifier, value: String(arc4random())) }"
            ),
            swift("func url() -> String { \"https://id.example.com/authorize?a=1&state=\\(UUID().uuidString)\" }"),
        ],
        negatives: [
            // A UUID made into something else (an identifiable value, a map pin) is that value's identity.
            swift(
                "func make() {\n let state = ViewState(id: UUID(), items: [])\n let pin = MapPin(id: UUID(), lat: 1)\n let challenge = Challenge(id: UUID().uuidString, title: \"10k steps\")\n use(state, pin, challenge)\n}"
            ),
            swift(
                "func chain() {\n let requestID = UUID().uuidString\n let request = Request(id: requestID)\n let session = Client(request: request).start()\n let nonce = session.nextNonce()\n use(nonce)\n}"
            ),
            objc(
                "- (void)make {\n Thing *state = [Thing thingWithID:[[NSUUID UUID] UUIDString]];\n [self use:state];\n}"
            ),
            // `appstate=` is not `state=`.
            swift("func url() -> String { \"https://x.example.com/?appstate=\\(UUID().uuidString)\" }"),
        ]),
    RuleFixture(
        rule: "trust-all-certificates",
        positives: [
            // A switch as the file's first tokens (nothing before it to name the policy) is judged, not a crash.
            objc("allowInvalidCertificates = YES;"),
            // A pinned policy does not vouch for another, unpinned one in the same function.
            objc(
                "static void Configure(AFHTTPSessionManager *a, AFHTTPSessionManager *b, NSSet *certs) {\n AFSecurityPolicy *pinned = [AFSecurityPolicy policyWithPinningMode:AFSSLPinningModePublicKey];\n pinned.pinnedCertificates = certs;\n a.securityPolicy = pinned;\n AFSecurityPolicy *open = [AFSecurityPolicy policyWithPinningMode:AFSSLPinningModeNone];\n open.allowInvalidCertificates = YES;\n b.securityPolicy = open;\n}"
            ),
        ],
        negatives: []),
    RuleFixture(
        rule: "ats-arbitrary-loads",
        positives: [
            // Read only because the preprocessed Info.plist is (a list dropped as unparseable would say nothing).
            plist(
                "<key>CFBundleURLSchemes</key><array>\n#ifdef INTUNE\n<string>app-intunemam</string>\n#endif\n</array>\n<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict>"
            )
        ],
        negatives: [
            plist(
                "<key>CFBundleURLSchemes</key><array>\n#ifdef INTUNE\n<string>app-intunemam</string>\n#endif\n</array>\n<key>NSAppTransportSecurity</key><dict><key>NSAllowsLocalNetworking</key><true/></dict>"
            )
        ]),
    // Objective-C: a property written through `self.x` and read through its ivar `_x`, or the other way round.
    RuleFixture(
        rule: "secret-in-user-defaults",
        positives: [
            objc(
                "@implementation Login\n- (void)submit:(NSString *)token {\n _stored = token;\n}\n- (void)save {\n [[NSUserDefaults standardUserDefaults] setObject:self.stored forKey:@\"s\"];\n}\n@end"
            ),
            objc(
                "@implementation Login\n- (void)submit:(NSString *)token {\n self.stored = token;\n}\n- (void)save {\n [[NSUserDefaults standardUserDefaults] setObject:_stored forKey:@\"s\"];\n}\n@end"
            ),
        ],
        negatives: [
            objc(
                "@implementation Login\n- (void)submit:(NSString *)token {\n other.stored = token;\n self.stored = self.theme;\n}\n- (void)save {\n [[NSUserDefaults standardUserDefaults] setObject:_stored forKey:@\"s\"];\n}\n@end"
            )
        ]),
    RuleFixture(
        rule: "password-field-without-content-type",
        positives: [
            // A SecureField whose label is a trailing closure, modifiers after it, none a content type.
            swift(
                "var body: some View {\n SecureField(text: $model.password) {\n  Text(\"Password\")\n }\n .focused($focus)\n .submitLabel(.done)\n}"
            )
        ],
        negatives: [
            // The same field with its content type after other modifiers (Element X's login screen).
            swift(
                "var body: some View {\n SecureField(text: $model.password) {\n  Text(\"Password\")\n }\n .focused($focus)\n .textFieldStyle(.roundedBorder)\n .textContentType(.password)\n}"
            )
        ]),
    RuleFixture(
        rule: "keychain-not-this-device-only",
        positives: [
            // KeychainAccess's default accessibility is afterFirstUnlock (Element X's restoration token and PIN).
            swift(
                "import KeychainAccess\nfinal class KeychainController {\n let mainKeychain = Keychain(service: \"app\")\n func setPINCode(_ pinCode: String) throws { try mainKeychain.set(pinCode, key: \"pin\") }\n}"
            ),
            swift(
                "import KeychainAccess\nfinal class Store {\n let keychain = Keychain(service: \"app\")\n func save(_ data: Data, user: String) throws { try keychain.set(data, key: \"\\(user)-refreshToken\") }\n}"
            ),
            // Its subscript (Mastodon's Web Push private key).
            swift(
                "import KeychainAccess\nenum AppSecret {\n static let keychain = Keychain(service: \"app\", accessGroup: group)\n static func reset() -> P256.KeyAgreement.PrivateKey {\n  let privateKey = P256.KeyAgreement.PrivateKey()\n  keychain[notificationKeyName] = privateKey.rawRepresentation.base64EncodedString()\n  return privateKey\n }\n}"
            ),
            // The store is a computed property of another file, reached through a local name; the value is a
            // secret-named property's new value, tested before it is stored (Home Assistant's camera password).
            [
                "App/AppConstants.swift":
                    "import KeychainAccess\npublic enum AppConstants {\n public static var Keychain: KeychainAccess.Keychain {\n  KeychainAccess.Keychain(service: bundleID)\n }\n}",
                "App/CameraServer.swift":
                    "import KeychainAccess\nfinal class CameraServer {\n private let keychain = AppConstants.Keychain\n public var password: String {\n  get { keychain[Self.passwordItem] ?? \"\" }\n  set { keychain[Self.passwordItem] = newValue.isEmpty ? nil : newValue }\n }\n}",
            ],
        ],
        negatives: [
            // The store names its accessibility; a public value; another library's set(_:key:).
            swift(
                "import KeychainAccess\nfinal class KeychainController {\n let mainKeychain = Keychain(service: \"app\").accessibility(.whenUnlockedThisDeviceOnly)\n func setPINCode(_ pinCode: String) throws { try mainKeychain.set(pinCode, key: \"pin\") }\n}"
            ),
            swift(
                "import KeychainAccess\nfinal class KeychainController {\n let keychain = Keychain(service: \"app\")\n func setDomainState(_ state: Data) throws { try keychain.set(state, key: \"biometricState\") }\n}"
            ),
            swift(
                "final class KeychainController {\n let keychain = OtherStore()\n func setPINCode(_ pinCode: String) throws { try keychain.set(pinCode, key: \"pin\") }\n}"
            ),
            // A wrapper made in another file, which sets the accessibility there (ProtonVPN's KeychainActor).
            swift(
                "import KeychainAccess\nfinal class AuthKeychain {\n private let keychain = KeychainActor()\n func store(_ credentials: Data) async throws { try await keychain.set(credentials, key: \"authCredentials\") }\n}"
            ),
            // The subscript of a store that names its accessibility, here or in the file that makes it; a device
            // identifier under the default; a secret-named property's value only read.
            swift(
                "import KeychainAccess\nenum AppSecret {\n static let keychain = Keychain(service: \"app\").accessibility(.afterFirstUnlockThisDeviceOnly)\n static func save(_ privateKey: Data) { keychain[keyName] = privateKey.base64EncodedString() }\n}"
            ),
            [
                "App/AppConstants.swift":
                    "import KeychainAccess\npublic enum AppConstants {\n public static var Keychain: KeychainAccess.Keychain {\n  KeychainAccess.Keychain(service: bundleID).accessibility(.whenUnlockedThisDeviceOnly)\n }\n}",
                "App/CameraServer.swift":
                    "import KeychainAccess\nfinal class CameraServer {\n private let keychain = AppConstants.Keychain\n public var password: String {\n  get { keychain[Self.passwordItem] ?? \"\" }\n  set { keychain[Self.passwordItem] = newValue.isEmpty ? nil : newValue }\n }\n}",
            ],
            swift(
                "import KeychainAccess\nfinal class Settings {\n let keychain = Keychain(service: \"app\")\n var deviceID: String {\n  get { keychain[\"deviceID\"] ?? \"\" }\n  set { keychain[\"deviceID\"] = newValue }\n }\n var password: String { keychain[\"password\"] ?? \"\" }\n}"
            ),
        ]),
    RuleFixture(
        rule: "oauth-without-pkce",
        positives: [
            // An endpoint enum's query items as implicit `.init(name:value:)` (Ice Cubes' Mastodon sign-in).
            swift(
                "enum Oauth {\n case authorize(clientId: String)\n func queryItems() -> [URLQueryItem]? {\n  switch self {\n  case let .authorize(clientId):\n   [\n    .init(name: \"response_type\", value: \"code\"),\n    .init(name: \"client_id\", value: clientId),\n    .init(name: \"state\", value: state),\n   ]\n  }\n }\n}"
            )
        ],
        negatives: [
            swift(
                "enum Oauth {\n case authorize(clientId: String)\n func queryItems() -> [URLQueryItem]? {\n  switch self {\n  case let .authorize(clientId):\n   [\n    .init(name: \"response_type\", value: \"code\"),\n    .init(name: \"client_id\", value: clientId),\n    .init(name: \"code_challenge\", value: challenge),\n    .init(name: \"code_challenge_method\", value: \"S256\"),\n    .init(name: \"state\", value: state),\n   ]\n  }\n }\n}"
            )
        ]),
    RuleFixture(
        rule: "oauth-without-state",
        positives: [
            swift(
                "enum Oauth {\n case authorize(clientId: String)\n func queryItems() -> [URLQueryItem]? {\n  switch self {\n  case let .authorize(clientId):\n   [\n    .init(name: \"response_type\", value: \"code\"),\n    .init(name: \"client_id\", value: clientId),\n    .init(name: \"code_challenge\", value: challenge),\n    .init(name: \"code_challenge_method\", value: \"S256\"),\n   ]\n  }\n }\n}"
            )
        ],
        negatives: [
            swift(
                "enum Oauth {\n case authorize(clientId: String)\n func queryItems() -> [URLQueryItem]? {\n  switch self {\n  case let .authorize(clientId):\n   [\n    .init(name: \"response_type\", value: \"code\"),\n    .init(name: \"client_id\", value: clientId),\n    .init(name: \"code_challenge\", value: challenge),\n    .init(name: \"code_challenge_method\", value: \"S256\"),\n    .init(name: \"state\", value: state),\n   ]\n  }\n }\n}"
            )
        ]),
    RuleFixture(
        rule: "secret-in-user-defaults",
        positives: [
            // An app's storage class whose setter forwards to UserDefaults (another file), given a dictionary that a helper filled with the token (Seafile).
            [
                "Pod/Storage.m":
                    "@interface Storage ()\n@property NSUserDefaults *storage;\n@end\n@implementation Storage\n- (void)setObject:(id)value forKey:(NSString *)defaultName\n{\n    [_storage setObject:value forKey:defaultName];\n}\n@end",
                "Pod/Connection.m":
                    "@implementation Connection\n- (void)setToken:(NSString *)token forUser:(NSString *)username\n{\n    [Utils dict:_info setObject:username forKey:@\"username\"];\n    [Utils dict:_info setObject:token forKey:@\"token\"];\n}\n- (void)saveAccountInfo\n{\n    [Storage.sharedObject setObject:_info forKey:self.accountIdentifier];\n}\n@end",
            ],
            // The Swift form of a dictionary filled with a secret in one method and saved whole in another.
            swift(
                "final class Session {\n var info: [String: String] = [:]\n func save(token: String) {\n  info[\"token\"] = token\n }\n func persist() {\n  UserDefaults.standard.set(info, forKey: \"account\")\n }\n}"
            ),
        ],
        negatives: [
            // Sign-out removes the secrets before saving what is left; the settings dictionary holds none.
            [
                "Pod/Storage.m":
                    "@interface Storage ()\n@property NSUserDefaults *storage;\n@end\n@implementation Storage\n- (void)setObject:(id)value forKey:(NSString *)defaultName\n{\n    [_storage setObject:value forKey:defaultName];\n}\n@end",
                "Pod/Connection.m":
                    "@implementation Connection\n- (void)setToken:(NSString *)token forUser:(NSString *)username\n{\n    [Utils dict:_info setObject:token forKey:@\"token\"];\n}\n- (void)logout\n{\n    [_info removeObjectForKey:@\"token\"];\n    [Storage.sharedObject setObject:_info forKey:self.accountIdentifier];\n}\n- (void)saveSettings\n{\n    [Storage.sharedObject setObject:_settings forKey:self.settingsKey];\n}\n@end",
            ],
            // The class's setter keeps values in memory, not in UserDefaults.
            [
                "Pod/Storage.m":
                    "@interface Storage ()\n@property NSMutableDictionary *cache;\n@end\n@implementation Storage\n- (void)setObject:(id)value forKey:(NSString *)defaultName\n{\n    [_cache setObject:value forKey:defaultName];\n}\n@end",
                "Pod/Connection.m":
                    "@implementation Connection\n- (void)setToken:(NSString *)token forUser:(NSString *)username\n{\n    [Utils dict:_info setObject:username forKey:@\"username\"];\n    [Utils dict:_info setObject:token forKey:@\"token\"];\n}\n- (void)saveAccountInfo\n{\n    [Storage.sharedObject setObject:_info forKey:self.accountIdentifier];\n}\n@end",
            ],
            swift(
                "final class Session {\n var info: [String: String] = [:]\n func save(token: String) {\n  info[\"token\"] = token\n }\n func signOut() {\n  info.removeValue(forKey: \"token\")\n  UserDefaults.standard.set(info, forKey: \"account\")\n }\n}"
            ),
        ]),
    RuleFixture(
        rule: "keychain-not-this-device-only",
        positives: [
            // A synchronizable item syncs through iCloud Keychain: it can never be ThisDeviceOnly.
            swift(
                "import KeychainSwift\nenum TranslationKey {\n static let keychain = KeychainSwift()\n static func write(value: String) {\n  keychain.synchronizable = true\n  keychain.set(value, forKey: \"DeepL\")\n }\n}"
            ),
            swift(
                "import KeychainAccess\nlet keychain = Keychain(service: \"app\").synchronizable(true)"
            ),
            swift(
                "func save(_ data: Data) {\n let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrSynchronizable as String: kCFBooleanTrue!, kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked, kSecValueData as String: data]\n SecItemAdd(query as CFDictionary, nil)\n}"
            ),
            objc(
                "- (void)save:(NSData *)data\n{\n NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecAttrSynchronizable: (__bridge id)kCFBooleanTrue, (__bridge id)kSecValueData: data};\n SecItemAdd((__bridge CFDictionaryRef)query, NULL);\n}"
            ),
        ],
        negatives: [
            // Switched on a store made anew on every use, or only to read: nothing is stored synchronizable here.
            swift(
                "import KeychainSwift\nenum TranslationKey {\n static var keychain: KeychainSwift { KeychainSwift() }\n static func read() -> String? {\n  keychain.synchronizable = true\n  return keychain.get(\"DeepL\")\n }\n}"
            ),
            swift(
                "func save(_ data: Data) {\n var query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecValueData: data]\n query[kSecAttrSynchronizable] = false\n query[kSecAttrAccessible] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly\n SecItemAdd(query as CFDictionary, nil)\n}"
            ),
            objc(
                "- (NSArray *)all\n{\n NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecAttrSynchronizable: (__bridge id)kSecAttrSynchronizableAny};\n CFTypeRef result = NULL;\n SecItemCopyMatching((__bridge CFDictionaryRef)query, &result);\n return (__bridge_transfer NSArray *)result;\n}"
            ),
        ]),
    RuleFixture(
        rule: "non-constant-time-compare",
        positives: [
            // A token that exists to prove a request authentic (Home Assistant's widget links; `Current` is its environment).
            swift(
                "extension URLComponents {\n func isAuthentic() -> Bool {\n  queryItems?.contains { $0.value == Current.settingsStore.widgetAuthenticityToken } ?? false\n }\n}"
            ),
            objc(
                "- (BOOL)isAuthentic:(NSString *)value\n{\n return [value isEqualToString:self.widgetAuthenticityToken];\n}"
            ),
            // A verifier made from the password, checked against the kept one (Seafile's library magic).
            objc(
                "- (void)check:(NSString *)password\n{\n NSString *magic = [NSData passwordMagic:password repo:self.repoId];\n if ([magic isEqualToString:repo.magic]) { [self unlock]; }\n}"
            ),
            swift(
                "func check(password: String) -> Bool {\n let magic = derive(password, salt: repo.salt)\n return magic == repo.magic\n}"
            ),
        ],
        negatives: [
            // An access token compared to pick an account is a lookup, not an authenticity check.
            swift(
                "func isCurrent(_ account: Account) -> Bool {\n account.accessToken == Current.session.accessToken\n}"
            ),
            // A value made from the password compared as a change check, or a toolbar's items rebuilt from a password segment.
            objc(
                "- (void)check:(NSString *)password\n{\n NSString *title = [password uppercaseString];\n if ([title isEqualToString:self.cachedTitle]) { [self reload]; }\n}"
            ),
            swift(
                "func update() {\n var items = [copyPasswordSegment]\n items.append(generatePasswordSegment)\n if toolbar.items != items { toolbar.items = items }\n}"
            ),
        ]),
    RuleFixture(
        rule: "password-field-without-content-type",
        positives: [
            // An app's factory of a secure text field row (ownCloud), a show-password toggle, a password cell's conditional secure entry (KeePassium).
            swift(
                "func viewDidLoad() {\n passwordRow = StaticTableViewRow(secureTextFieldWithAction: { _, _, _ in }, placeholder: \"Password\", identifier: \"password\")\n}"
            ),
            swift(
                "final class Composer {\n var showPassword = false {\n  didSet { passwordField.isSecureTextEntry = !showPassword }\n }\n}"
            ),
            swift(
                "final class PasswordEntryFieldCell: UITableViewCell {\n func configure(_ field: Field) {\n  textField.isSecureTextEntry = field.isProtected && settings.hidesProtectedFields\n }\n}"
            ),
            objc(
                "- (void)toggle\n{\n self.passwordField.secureTextEntry = !showPassword;\n}"
            ),
        ],
        negatives: [
            swift(
                "func viewDidLoad() {\n passwordRow = StaticTableViewRow(secureTextFieldWithAction: { _, _, _ in }, placeholder: \"Password\", identifier: \"password\")\n passwordRow?.textField?.textContentType = .password\n}"
            ),
            swift(
                "final class Composer {\n var showPassword = false {\n  didSet { passwordField.isSecureTextEntry = !showPassword }\n }\n func viewDidLoad() { passwordField.textContentType = .newPassword }\n}"
            ),
            // Outside a password cell a condition is not a password field's; `false` never is.
            swift(
                "final class NoteCell: UITableViewCell {\n func configure(_ field: Field) {\n  textField.isSecureTextEntry = field.isProtected\n }\n}"
            ),
        ]),
    RuleFixture(
        rule: "token-in-url",
        positives: [
            // A value named as an API key sent under a parameter that does not say so (Element X's MapTiler style URL).
            swift(
                "func styleURL() -> URL? {\n guard let apiKey else { return nil }\n var url = baseURL\n url.append(queryItems: [URLQueryItem(name: \"key\", value: apiKey)])\n return url\n}"
            ),
            objc(
                "- (NSURL *)styleURL\n{\n NSURLComponents *components = [NSURLComponents componentsWithURL:self.baseURL resolvingAgainstBaseURL:NO];\n components.queryItems = @[[NSURLQueryItem queryItemWithName:@\"key\" value:self.apiKey]];\n return components.URL;\n}"
            ),
        ],
        negatives: [
            // A non-secret value, or the key sent in a form body.
            swift(
                "func search() -> URL? {\n var url = baseURL\n url.append(queryItems: [URLQueryItem(name: \"q\", value: searchText)])\n return url\n}"
            ),
            swift(
                "func request() -> URLRequest {\n var components = URLComponents()\n components.queryItems = [URLQueryItem(name: \"key\", value: apiKey)]\n var request = URLRequest(url: endpoint)\n request.httpBody = components.percentEncodedQuery?.data(using: .utf8)\n return request\n}"
            ),
        ]),
    RuleFixture(
        rule: "insecure-random-for-secret",
        positives: [
            // What a capability-named property's getter returns is its value (Home Assistant's widget authenticity token).
            swift(
                "final class SettingsStore {\n var widgetAuthenticityToken: String {\n  if let existing = prefs.string(forKey: \"widgetAuthenticityToken\") {\n   return existing\n  } else {\n   let string = UUID().uuidString\n   return string\n  }\n }\n}"
            ),
            objc(
                "- (NSString *)authenticityToken\n{\n NSString *value = [[NSUUID UUID] UUIDString];\n return value;\n}"
            ),
        ],
        negatives: [
            // An identifier's getter: only uniqueness matters.
            swift(
                "final class SettingsStore {\n var requestIdentifier: String {\n  let string = UUID().uuidString\n  return string\n }\n}"
            ),
            objc(
                "- (NSString *)requestIdentifier\n{\n return [[NSUUID UUID] UUIDString];\n}"
            ),
        ]),
    RuleFixture(
        rule: "trust-all-certificates",
        positives: [
            // An evaluation the condition skips whenever the host matches (Seafile's SSO connection).
            objc(
                "-(void)connection:(NSURLConnection *)connection willSendRequestForAuthenticationChallenge:(NSURLAuthenticationChallenge *)challenge {\n    if ([challenge.protectionSpace.authenticationMethod isEqualToString:NSURLAuthenticationMethodServerTrust]) {\n        NSURL* baseURL = [NSURL URLWithString:self.shibbolethUrl];\n        if ([challenge.protectionSpace.host isEqualToString:baseURL.host] || SeafServerTrustIsValid(challenge.protectionSpace.serverTrust)) {\n            [challenge.sender useCredential:[NSURLCredential credentialForTrust:challenge.protectionSpace.serverTrust] forAuthenticationChallenge:challenge];\n        }\n    }\n}"
            ),
            swift(
                "func urlSession(_ s: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {\n guard let trust = challenge.protectionSpace.serverTrust else { return completionHandler(.performDefaultHandling, nil) }\n if challenge.protectionSpace.host == baseURL.host || SecTrustEvaluateWithError(trust, nil) {\n  completionHandler(.useCredential, URLCredential(trust: trust))\n }\n}"
            ),
        ],
        negatives: [
            // A negated evaluation in a disjunction rejects: it counts.
            objc(
                "-(void)other:(NSURLAuthenticationChallenge *)challenge {\n    SecTrustRef trust = challenge.protectionSpace.serverTrust;\n    if (trust == NULL || !SecTrustEvaluateWithError(trust, NULL)) {\n        [challenge.sender cancelAuthenticationChallenge:challenge];\n        return;\n    }\n    [challenge.sender useCredential:[NSURLCredential credentialForTrust:trust] forAuthenticationChallenge:challenge];\n}"
            ),
            swift(
                "func urlSession(_ s: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {\n guard let trust = challenge.protectionSpace.serverTrust else { return completionHandler(.performDefaultHandling, nil) }\n if challenge.protectionSpace.host != baseURL.host || !SecTrustEvaluateWithError(trust, nil) {\n  return completionHandler(.cancelAuthenticationChallenge, nil)\n }\n completionHandler(.useCredential, URLCredential(trust: trust))\n}"
            ),
        ]),
    RuleFixture(
        rule: "faceid-usage-description-missing",
        positives: [
            // An extension that compiles the app's Face ID prompt, with an Info.plist of its own that lacks the key (Seafile's share, action and document picker extensions).
            [
                "Project.xcodeproj/project.pbxproj":
                    "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n\t\tB1 /* Lock.m in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.m */; };\n\t\tB2 /* Lock.m in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.m */; };\n\t\tF1 /* Lock.m */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.c.objc; name = \"Lock.m\"; path = \"Common/Lock.m\"; sourceTree = \"<group>\"; };\n\t\tP1 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B1 /* Lock.m in Sources */, ); };\n\t\tP2 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B2 /* Lock.m in Sources */, ); };\n\t\tC1 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = \"App/Info.plist\"; }; name = Release; };\n\t\tC2 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = \"$(SRCROOT)/Share/Info.plist\"; }; name = Release; };\n\t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Release */, ); };\n\t\tL2 = {isa = XCConfigurationList; buildConfigurations = (C2 /* Release */, ); };\n\t\tT1 /* App */ = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1 /* Sources */, ); name = App; productType = \"com.apple.product-type.application\"; };\n\t\tT2 /* Share */ = {isa = PBXNativeTarget; buildConfigurationList = L2; buildPhases = (P2 /* Sources */, ); name = Share; productType = \"com.apple.product-type.app-extension\"; };\n\t};\n\trootObject = R1;\n}\n",
                "App/Info.plist":
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSFaceIDUsageDescription</key><string>Unlock the app</string>\n</dict>\n</plist>\n",
                "Share/Info.plist":
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>\n</dict>\n</plist>\n",
                "Common/Lock.m":
                    "- (void)unlock\n{\n LAContext *context = [[LAContext alloc] init];\n [context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@\"Unlock\" reply:^(BOOL success, NSError *error) {\n  dispatch_async(dispatch_get_main_queue(), ^{ [self finish:success]; });\n }];\n}",
            ],
            [
                "Project.xcodeproj/project.pbxproj":
                    "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n\t\tB1 /* Lock.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.swift */; };\n\t\tB2 /* Lock.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.swift */; };\n\t\tF1 /* Lock.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; name = \"Lock.swift\"; path = \"Common/Lock.swift\"; sourceTree = \"<group>\"; };\n\t\tP1 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B1 /* Lock.swift in Sources */, ); };\n\t\tP2 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B2 /* Lock.swift in Sources */, ); };\n\t\tC1 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = \"App/Info.plist\"; }; name = Release; };\n\t\tC2 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = \"$(SRCROOT)/Share/Info.plist\"; }; name = Release; };\n\t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Release */, ); };\n\t\tL2 = {isa = XCConfigurationList; buildConfigurations = (C2 /* Release */, ); };\n\t\tT1 /* App */ = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1 /* Sources */, ); name = App; productType = \"com.apple.product-type.application\"; };\n\t\tT2 /* Share */ = {isa = PBXNativeTarget; buildConfigurationList = L2; buildPhases = (P2 /* Sources */, ); name = Share; productType = \"com.apple.product-type.app-extension\"; };\n\t};\n\trootObject = R1;\n}\n",
                "App/Info.plist":
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSFaceIDUsageDescription</key><string>Unlock the app</string>\n</dict>\n</plist>\n",
                "Share/Info.plist":
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>\n</dict>\n</plist>\n",
                "Common/Lock.swift":
                    "import LocalAuthentication\nfunc unlock() {\n LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: \"Unlock\") { success, _ in finish(success) }\n}",
            ],
        ],
        negatives: [
            // The extension declares it; a framework's Info.plist is not read for it; a file that only asks whether biometry exists prompts for nothing.
            [
                "Project.xcodeproj/project.pbxproj":
                    "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n\t\tB1 /* Lock.m in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.m */; };\n\t\tB2 /* Lock.m in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.m */; };\n\t\tF1 /* Lock.m */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.c.objc; name = \"Lock.m\"; path = \"Common/Lock.m\"; sourceTree = \"<group>\"; };\n\t\tP1 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B1 /* Lock.m in Sources */, ); };\n\t\tP2 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B2 /* Lock.m in Sources */, ); };\n\t\tC1 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = \"App/Info.plist\"; }; name = Release; };\n\t\tC2 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = \"$(SRCROOT)/Share/Info.plist\"; }; name = Release; };\n\t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Release */, ); };\n\t\tL2 = {isa = XCConfigurationList; buildConfigurations = (C2 /* Release */, ); };\n\t\tT1 /* App */ = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1 /* Sources */, ); name = App; productType = \"com.apple.product-type.application\"; };\n\t\tT2 /* Share */ = {isa = PBXNativeTarget; buildConfigurationList = L2; buildPhases = (P2 /* Sources */, ); name = Share; productType = \"com.apple.product-type.app-extension\"; };\n\t};\n\trootObject = R1;\n}\n",
                "App/Info.plist":
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSFaceIDUsageDescription</key><string>Unlock the app</string>\n</dict>\n</plist>\n",
                "Share/Info.plist":
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSExtension</key><dict/><key>NSFaceIDUsageDescription</key><string>Unlock</string>\n</dict>\n</plist>\n",
                "Common/Lock.m":
                    "- (void)unlock\n{\n LAContext *context = [[LAContext alloc] init];\n [context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@\"Unlock\" reply:^(BOOL success, NSError *error) {\n  NSDictionary *query = @{(__bridge id)kSecUseAuthenticationContext: context};\n  [self readWith:query];\n }];\n}",
            ],
            [
                "Project.xcodeproj/project.pbxproj":
                    "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n\t\tB1 /* Lock.m in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.m */; };\n\t\tB2 /* Lock.m in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.m */; };\n\t\tF1 /* Lock.m */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.c.objc; name = \"Lock.m\"; path = \"Common/Lock.m\"; sourceTree = \"<group>\"; };\n\t\tP1 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B1 /* Lock.m in Sources */, ); };\n\t\tP2 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B2 /* Lock.m in Sources */, ); };\n\t\tC1 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = \"App/Info.plist\"; }; name = Release; };\n\t\tC2 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = \"$(SRCROOT)/Share/Info.plist\"; }; name = Release; };\n\t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Release */, ); };\n\t\tL2 = {isa = XCConfigurationList; buildConfigurations = (C2 /* Release */, ); };\n\t\tT1 /* App */ = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1 /* Sources */, ); name = App; productType = \"com.apple.product-type.application\"; };\n\t\tT2 /* Share */ = {isa = PBXNativeTarget; buildConfigurationList = L2; buildPhases = (P2 /* Sources */, ); name = Share; productType = \"com.apple.product-type.framework\"; };\n\t};\n\trootObject = R1;\n}\n",
                "App/Info.plist":
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSFaceIDUsageDescription</key><string>Unlock the app</string>\n</dict>\n</plist>\n",
                "Share/Info.plist":
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>\n</dict>\n</plist>\n",
                "Common/Lock.m":
                    "- (void)unlock\n{\n LAContext *context = [[LAContext alloc] init];\n [context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@\"Unlock\" reply:^(BOOL success, NSError *error) {\n  NSDictionary *query = @{(__bridge id)kSecUseAuthenticationContext: context};\n  [self readWith:query];\n }];\n}",
            ],
            [
                "Project.xcodeproj/project.pbxproj":
                    "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n\t\tB1 /* Lock.m in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.m */; };\n\t\tB2 /* Lock.m in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.m */; };\n\t\tF1 /* Lock.m */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.c.objc; name = \"Lock.m\"; path = \"Common/Lock.m\"; sourceTree = \"<group>\"; };\n\t\tP1 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B1 /* Lock.m in Sources */, ); };\n\t\tP2 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B2 /* Lock.m in Sources */, ); };\n\t\tC1 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = \"App/Info.plist\"; }; name = Release; };\n\t\tC2 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = \"$(SRCROOT)/Share/Info.plist\"; }; name = Release; };\n\t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Release */, ); };\n\t\tL2 = {isa = XCConfigurationList; buildConfigurations = (C2 /* Release */, ); };\n\t\tT1 /* App */ = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1 /* Sources */, ); name = App; productType = \"com.apple.product-type.application\"; };\n\t\tT2 /* Share */ = {isa = PBXNativeTarget; buildConfigurationList = L2; buildPhases = (P2 /* Sources */, ); name = Share; productType = \"com.apple.product-type.app-extension\"; };\n\t};\n\trootObject = R1;\n}\n",
                "App/Info.plist":
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSFaceIDUsageDescription</key><string>Unlock the app</string>\n</dict>\n</plist>\n",
                "Share/Info.plist":
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>\n</dict>\n</plist>\n",
                "Common/Lock.m":
                    "- (BOOL)available\n{\n LAContext *context = [[LAContext alloc] init];\n return [context canEvaluatePolicy:LAPolicyDeviceOwnerAuthentication error:nil];\n}",
            ],
        ]),
    RuleFixture(
        rule: "hardcoded-secret",
        positives: [
            // Hard-coded crypto inputs: an IV bound to a constant (KeePassium's Salsa20), a key literal, a PBKDF2 salt and a zero IV.
            swift(
                "func make(key: SecureBytes) -> Cipher {\n let salsa20InitialVector = SecureBytes.from(\n  [0xE8, 0x30, 0x09, 0x4B, 0x97, 0x20, 0x5D, 0x2A],\n  encrypt: false\n )\n return Salsa20(key: key.sha256, iv: salsa20InitialVector)\n}"
            ),
            swift(
                "func seal(_ message: Data) throws -> Data? {\n try AES.GCM.seal(message, using: SymmetricKey(data: Data(\"0123456789abcdef0123456789abcdef\".utf8))).combined\n}"
            ),
            objc(
                "static const uint8_t kSalt[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};\n- (void)derive:(NSString *)password into:(uint8_t *)derived\n{\n CCKeyDerivationPBKDF(kCCPBKDF2, password.UTF8String, password.length, kSalt, sizeof(kSalt), kCCPRFHmacAlgSHA256, 10000, derived, 32);\n}"
            ),
            objc(
                "- (void)encrypt:(NSData *)data\n{\n char iv[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};\n CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, self.key.bytes, kCCKeySizeAES256, iv, data.bytes, data.length, out, outLength, &moved);\n}"
            ),
        ],
        negatives: [
            // Keys, nonces and IVs made at run time; a literal that is the plaintext; a store's key name.
            swift(
                "func seal(_ message: Data, key: SymmetricKey) throws -> Data? {\n let nonce = AES.GCM.Nonce()\n return try AES.GCM.seal(message, using: key, nonce: nonce).combined\n}"
            ),
            swift(
                "func send() throws -> Data {\n try encrypt(data: \"hello\", key: userKey)\n}"
            ),
            swift(
                "func save(_ token: String) throws {\n try keychain.set(token, key: \"session\")\n}"
            ),
            objc(
                "- (void)encrypt:(NSData *)data\n{\n uint8_t iv[16];\n SecRandomCopyBytes(kSecRandomDefault, 16, iv);\n CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, self.key.bytes, kCCKeySizeAES256, iv, data.bytes, data.length, out, outLength, &moved);\n}"
            ),
        ]),
    RuleFixture(
        rule: "secret-in-user-defaults",
        positives: [
            // A dictionary loaded and copied into the property that holds the token holds it too (Seafile's migration).
            objc(
                "@implementation Connection\n- (void)setToken:(NSString *)token\n{\n    [_info setObject:token forKey:@\"token\"];\n}\n- (void)migrate:(NSString *)url\n{\n    NSDictionary *ainfo = [[NSUserDefaults standardUserDefaults] objectForKey:url];\n    if (ainfo) {\n        _info = [ainfo mutableCopy];\n        [[NSUserDefaults standardUserDefaults] setObject:ainfo forKey:@\"account\"];\n    }\n}\n@end"
            )
        ],
        negatives: [
            // Copied into a property that holds nothing secret.
            objc(
                "@implementation Connection\n- (void)setToken:(NSString *)token\n{\n    [_info setObject:token forKey:@\"token\"];\n}\n- (void)migrate:(NSString *)url\n{\n    NSDictionary *ainfo = [[NSUserDefaults standardUserDefaults] objectForKey:url];\n    if (ainfo) {\n        _settings = [ainfo mutableCopy];\n        [[NSUserDefaults standardUserDefaults] setObject:ainfo forKey:@\"account\"];\n    }\n}\n@end"
            )
        ]),
    RuleFixture(
        rule: "keychain-not-this-device-only",
        positives: [
            // A secret two calls away in another file (Ice Cubes' DeepL key: apiKey → writeNewValue → write(value:)).
            [
                "App/Env/DeepLHandler.swift":
                    "import KeychainSwift\nenum DeepLHandler {\n private static let key = \"DeepL\"\n private static var keychain: KeychainSwift { KeychainSwift() }\n static func write(value: String) {\n  keychain.set(value, forKey: key)\n }\n}",
                "App/Settings/TranslationView.swift":
                    "struct TranslationView: View {\n @State var apiKey = \"\"\n @State var languageCode = \"\"\n func save() { writeNewValue(value: apiKey) }\n private func writeNewValue(value: String) { DeepLHandler.write(value: value) }\n}",
            ],
            // A Keychain extension stores under a caller's secret-named key (ProtonVPN's widget private key).
            [
                "App/Widget/DeepLinkGenerator.swift":
                    "import KeychainAccess\nclass DeepLinkGenerator {\n private func store(_ key: Data) throws { try Env.widgetKeychain.setKey(key, Env.privateDataKey) }\n}\nenum Env {\n static let privateDataKey = \"app.widget.private_key\"\n static let publicDataKey = \"app.widget.public_key\"\n static let widgetKeychain = Keychain(service: \"app.widget\")\n}\nfileprivate extension Keychain {\n func setKey(_ secKey: Data, _ key: String) throws { try set(secKey, key: key) }\n}"
            ],
            // A Codable record holding a token, written through a protocol's set(_:key:) (Home Assistant).
            [
                "App/Persistence.swift":
                    "import KeychainAccess\npublic protocol ServerKeychain { func set(_ value: Data, key: String) throws }\nextension Keychain: ServerKeychain {\n public func set(_ value: Data, key: String) throws {\n  try set(value, key: key, ignoringAttributeSynchronizable: true)\n }\n}\npublic extension ServerKeychain {\n func set(serverInfo: ServerInfo, key: String, encoder: JSONEncoder) {\n  try? set(encoder.encode(serverInfo), key: key)\n }\n}",
                "App/ServerInfo.swift": "public struct ServerInfo: Codable { var accessToken: String }",
                "App/ServerManager.swift":
                    "import KeychainAccess\nfinal class ServerManager {\n let keychain = Keychain(service: \"io.app.servers\")\n}",
            ],
        ],
        negatives: [
            // The caller passes no secret, or a public key's name.
            [
                "App/Env/DeepLHandler.swift":
                    "import KeychainSwift\nenum DeepLHandler {\n private static let key = \"DeepL\"\n private static var keychain: KeychainSwift { KeychainSwift() }\n static func write(value: String) {\n  keychain.set(value, forKey: key)\n }\n}",
                "App/Settings/TranslationView.swift":
                    "struct TranslationView: View {\n @State var apiKey = \"\"\n @State var languageCode = \"\"\n func save() { writeNewValue(value: languageCode) }\n private func writeNewValue(value: String) { DeepLHandler.write(value: value) }\n}",
            ],
            [
                "App/Widget/DeepLinkGenerator.swift":
                    "import KeychainAccess\nclass DeepLinkGenerator {\n private func store(_ key: Data) throws { try Env.widgetKeychain.setKey(key, Env.publicDataKey) }\n}\nenum Env {\n static let privateDataKey = \"app.widget.private_key\"\n static let publicDataKey = \"app.widget.public_key\"\n static let widgetKeychain = Keychain(service: \"app.widget\")\n}\nfileprivate extension Keychain {\n func setKey(_ secKey: Data, _ key: String) throws { try set(secKey, key: key) }\n}"
            ],
            // A secret given to a write(value:) of another type (a store, not the handler) is not given to this one.
            [
                "App/Env/ThemeStore.swift":
                    "import KeychainSwift\nenum ThemeStore {\n static var keychain: KeychainSwift { KeychainSwift() }\n static func write(value: String) { keychain.set(value, forKey: \"theme\") }\n}",
                "App/Settings/View.swift":
                    "struct View {\n var apiKey = \"\"\n func save() { DeepLHandler.write(value: apiKey) }\n}",
            ],
            // A Bool parameter is no secret, whatever key a caller names.
            [
                "App/Flags.swift":
                    "import KeychainSwift\nenum FlagHandler {\n static var keychain: KeychainSwift { KeychainSwift() }\n static func write(enabled: Bool, key: String) { keychain.set(enabled, forKey: key) }\n}",
                "App/Caller.swift": "func f() { FlagHandler.write(enabled: true, key: \"access_token\") }",
            ],
            // The record holds no secret; or every store has an accessibility.
            [
                "App/Persistence.swift":
                    "import KeychainAccess\npublic protocol ServerKeychain { func set(_ value: Data, key: String) throws }\nextension Keychain: ServerKeychain {\n public func set(_ value: Data, key: String) throws {\n  try set(value, key: key, ignoringAttributeSynchronizable: true)\n }\n}\npublic extension ServerKeychain {\n func set(serverInfo: ServerInfo, key: String, encoder: JSONEncoder) {\n  try? set(encoder.encode(serverInfo), key: key)\n }\n}",
                "App/ServerInfo.swift": "public struct ServerInfo: Codable { var name: String }",
                "App/ServerManager.swift":
                    "import KeychainAccess\nfinal class ServerManager {\n let keychain = Keychain(service: \"io.app.servers\")\n}",
            ],
            [
                "App/Persistence.swift":
                    "import KeychainAccess\npublic protocol ServerKeychain { func set(_ value: Data, key: String) throws }\nextension Keychain: ServerKeychain {\n public func set(_ value: Data, key: String) throws {\n  try set(value, key: key, ignoringAttributeSynchronizable: true)\n }\n}\npublic extension ServerKeychain {\n func set(serverInfo: ServerInfo, key: String, encoder: JSONEncoder) {\n  try? set(encoder.encode(serverInfo), key: key)\n }\n}",
                "App/ServerInfo.swift": "public struct ServerInfo: Codable { var accessToken: String }",
                "App/ServerManager.swift":
                    "import KeychainAccess\nfinal class ServerManager {\n let keychain = Keychain(service: \"io.app.servers\").accessibility(.whenUnlockedThisDeviceOnly)\n}",
            ],
        ]),
    RuleFixture(
        rule: "secret-in-log",
        positives: [
            // The URL the app is opened with, logged two calls from onOpenURL, in a project whose links carry a
            // secret it checks (Home Assistant's widget token).
            [
                "App/App.swift":
                    "struct MyApp: App {\n var body: some Scene { WindowGroup { ContentView().onOpenURL { handleIncoming(url: $0) } } }\n private func handleIncoming(url: URL) {\n  coordinator.done { IncomingURLHandler(coordinator: $0).handle(url: url) }\n }\n}",
                "App/IncomingURLHandler.swift":
                    "struct IncomingURLHandler {\n func handle(url: URL) -> Bool {\n  Current.Log.verbose(\"Received URL: \\(url)\")\n  return true\n }\n}",
                "App/Environment.swift":
                    "import XCGLogger\npublic class AppEnvironment {\n public var Log: XCGLogger = {\n  XCGLogger(identifier: \"app\")\n }()\n}",
                "App/Links.swift":
                    "extension URLComponents {\n mutating func popWidgetToken() -> Bool {\n  guard let index = queryItems?.firstIndex(where: { $0.name == \"auth\" && $0.value == Current.settings.widgetAuthenticityToken }) else { return false }\n  queryItems?.remove(at: index)\n  return true\n }\n}",
            ],
            [
                "App/App.swift":
                    "struct MyApp: App {\n var body: some Scene { WindowGroup { ContentView().onOpenURL { handleIncoming(url: $0) } } }\n private func handleIncoming(url: URL) {\n  coordinator.done { IncomingURLHandler(coordinator: $0).handle(url: url) }\n }\n}",
                "App/IncomingURLHandler.swift":
                    "struct IncomingURLHandler {\n func handle(url: URL) -> Bool {\n  print(\"Received URL: \\(url)\")\n  return true\n }\n}",
                "App/Links.swift":
                    "extension URLComponents {\n mutating func popWidgetToken() -> Bool {\n  guard let index = queryItems?.firstIndex(where: { $0.name == \"auth\" && $0.value == Current.settings.widgetAuthenticityToken }) else { return false }\n  queryItems?.remove(at: index)\n  return true\n }\n}",
            ],
            [
                "App/AppDelegate.swift":
                    "func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {\n print(\"opened \\(url.absoluteString)\")\n return true\n}",
                "App/Links.swift":
                    "extension URLComponents {\n mutating func popWidgetToken() -> Bool {\n  guard let index = queryItems?.firstIndex(where: { $0.name == \"auth\" && $0.value == Current.settings.widgetAuthenticityToken }) else { return false }\n  queryItems?.remove(at: index)\n  return true\n }\n}",
            ],
            [
                "App/AppDelegate.m":
                    "- (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options\n{\n    NSLog(@\"Opened %@\", url);\n    return YES;\n}",
                "App/Links.m":
                    "- (BOOL)popToken:(NSURLComponents *)components\n{\n    for (NSURLQueryItem *item in components.queryItems) {\n        if ([item.value isEqualToString:self.widgetToken]) { return YES; }\n    }\n    return NO;\n}",
            ],
            // XCGLogger's verbose and severe write the message as it is.
            [
                "App/Environment.swift":
                    "import XCGLogger\npublic class AppEnvironment {\n public var Log: XCGLogger = {\n  XCGLogger(identifier: \"app\")\n }()\n}",
                "App/Login.swift":
                    "func signIn(password: String) {\n Current.Log.verbose(\"signing in with \\(password)\")\n}",
            ],
        ],
        negatives: [
            // Links that carry no secret; a URL's host; a handle(url:) of another type.
            [
                "App/App.swift":
                    "struct MyApp: App {\n var body: some Scene { WindowGroup { ContentView().onOpenURL { handleIncoming(url: $0) } } }\n private func handleIncoming(url: URL) {\n  coordinator.done { IncomingURLHandler(coordinator: $0).handle(url: url) }\n }\n}",
                "App/IncomingURLHandler.swift":
                    "struct IncomingURLHandler {\n func handle(url: URL) -> Bool {\n  print(\"Received URL: \\(url)\")\n  return true\n }\n}",
            ],
            [
                "App/App.swift":
                    "struct MyApp: App {\n var body: some Scene { WindowGroup { ContentView().onOpenURL { handleIncoming(url: $0) } } }\n private func handleIncoming(url: URL) {\n  coordinator.done { IncomingURLHandler(coordinator: $0).handle(url: url) }\n }\n}",
                "App/IncomingURLHandler.swift":
                    "struct IncomingURLHandler {\n func handle(url: URL) -> Bool {\n  print(\"Received link for \\(url.host ?? \"\")\")\n  return true\n }\n}",
                "App/Links.m":
                    "- (BOOL)popToken:(NSURLComponents *)components\n{\n    for (NSURLQueryItem *item in components.queryItems) {\n        if ([item.value isEqualToString:self.widgetToken]) { return YES; }\n    }\n    return NO;\n}",
            ],
            [
                "App/App.swift":
                    "struct MyApp: App {\n var body: some Scene { WindowGroup { ContentView().onOpenURL { handleIncoming(url: $0) } } }\n private func handleIncoming(url: URL) {\n  coordinator.done { IncomingURLHandler(coordinator: $0).handle(url: url) }\n }\n}",
                "App/Links.m":
                    "- (BOOL)popToken:(NSURLComponents *)components\n{\n    for (NSURLQueryItem *item in components.queryItems) {\n        if ([item.value isEqualToString:self.widgetToken]) { return YES; }\n    }\n    return NO;\n}",
                "App/Downloader.swift":
                    "struct Downloader {\n func handle(url: URL) { print(\"downloading \\(url)\") }\n}",
            ],
            [
                "App/AppDelegate.m":
                    "- (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options\n{\n    NSLog(@\"Opened %@\", url);\n    return YES;\n}"
            ],
            [
                "App/AppDelegate.m":
                    "- (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options\n{\n    NSLog(@\"Opened %@\", url.host);\n    return YES;\n}",
                "App/Links.m":
                    "- (BOOL)popToken:(NSURLComponents *)components\n{\n    for (NSURLQueryItem *item in components.queryItems) {\n        if ([item.value isEqualToString:self.widgetToken]) { return YES; }\n    }\n    return NO;\n}",
            ],
            [
                "App/Environment.swift":
                    "import XCGLogger\npublic class AppEnvironment {\n public var Log: XCGLogger = {\n  XCGLogger(identifier: \"app\")\n }()\n}",
                "App/Login.swift": "func signIn(user: String) {\n Current.Log.verbose(\"signing in \\(user)\")\n}",
            ],
            // An outgoing URL opened by an app method of that name; a bookmark passed in a closure inside onOpenURL's.
            [
                "App/Help.m": "- (void)openURL:(NSURL *)url\n{\n    NSLog(@\"Opening help page %@\", url);\n}",
                "App/Links.m":
                    "- (BOOL)popToken:(NSURLComponents *)components\n{\n    for (NSURLQueryItem *item in components.queryItems) {\n        if ([item.value isEqualToString:self.widgetToken]) { return YES; }\n    }\n    return NO;\n}",
            ],
            [
                "App/App.swift":
                    "struct MyApp: App {\n var body: some Scene { WindowGroup { ContentView().onOpenURL { router.route($0); bookmarks.forEach { history.record(page: $0) } } } }\n}",
                "App/History.swift": "struct History {\n func record(page: URL) { print(\"visited \\(page)\") }\n}",
                "App/Links.m":
                    "- (BOOL)popToken:(NSURLComponents *)components\n{\n    for (NSURLQueryItem *item in components.queryItems) {\n        if ([item.value isEqualToString:self.widgetToken]) { return YES; }\n    }\n    return NO;\n}",
            ],
        ]),
    RuleFixture(
        rule: "secret-in-user-defaults",
        positives: [
            // Every key of the standard defaults copied into the app group's, where the project writes a secret
            // to the defaults (Seafile's migration).
            [
                "App/Global.m":
                    "- (void)migrate\n{\n    NSUserDefaults *oldDef = [NSUserDefaults standardUserDefaults];\n    NSUserDefaults *newDef = [[NSUserDefaults alloc] initWithSuiteName:SUITE];\n    for (NSString *key in oldDef.dictionaryRepresentation) {\n        [newDef setObject:[oldDef objectForKey:key] forKey:key];\n    }\n}",
                "App/Account.m":
                    "- (void)save\n{\n    // warden:ignore secret-in-user-defaults legacy, migrated\n    [[NSUserDefaults standardUserDefaults] setObject:self.password forKey:@\"pw\"];\n}",
            ],
            [
                "App/Migration.swift":
                    "func migrate(into suite: UserDefaults) {\n for (key, value) in UserDefaults.standard.dictionaryRepresentation() {\n  suite.set(value, forKey: key)\n }\n}",
                "App/Session.swift":
                    "func save(token: String) {\n // warden:ignore secret-in-user-defaults legacy, migrated\n UserDefaults.standard.set(token, forKey: \"t\")\n}",
            ],
            // A caller's secret, written by a helper (value is the helper's parameter).
            [
                "App/Store.swift":
                    "enum SessionStore {\n static func save(token value: String) { UserDefaults.standard.set(value, forKey: \"v\") }\n}",
                "App/Login.swift": "func finish(session: Session) { SessionStore.save(token: session.accessToken) }",
            ],
        ],
        negatives: [
            // The same copies in projects that write no secret to the defaults; a copy of a plain dictionary.
            [
                "App/Global.m":
                    "- (void)migrate\n{\n    NSUserDefaults *oldDef = [NSUserDefaults standardUserDefaults];\n    NSUserDefaults *newDef = [[NSUserDefaults alloc] initWithSuiteName:SUITE];\n    for (NSString *key in oldDef.dictionaryRepresentation) {\n        [newDef setObject:[oldDef objectForKey:key] forKey:key];\n    }\n}"
            ],
            [
                "App/Migration.swift":
                    "func migrate(into suite: UserDefaults) {\n for (key, value) in UserDefaults.standard.dictionaryRepresentation() {\n  suite.set(value, forKey: key)\n }\n}"
            ],
            // (The project's own secret write is suppressed here, so that the negative has no finding; it still
            // counts as a secret in the defaults.)
            [
                "App/Migration.swift":
                    "func migrate(_ settings: [String: Any], into suite: UserDefaults) {\n for (key, value) in settings {\n  suite.set(value, forKey: key)\n }\n}",
                "App/Session.swift":
                    "func save(token: String) {\n // warden:ignore secret-in-user-defaults a legacy store, migrated in 2.0\n UserDefaults.standard.set(token, forKey: \"t\")\n}",
            ],
            [
                "App/Store.swift":
                    "enum SessionStore {\n static func save(token value: String) { UserDefaults.standard.set(value, forKey: \"v\") }\n}",
                "App/Login.swift": "func finish(session: Session) { SessionStore.save(token: session.userName) }",
            ],
            // Only the theme keys copied; a secret only a test passes; a parameter rebound before the write; a
            // caller's unlabelled secret that fills another slot than the written one; another manager's save.
            [
                "App/Migration.swift":
                    "func migrate(into suite: UserDefaults) {\n for (key, value) in UserDefaults.standard.dictionaryRepresentation() where key.hasPrefix(\"theme.\") {\n  suite.set(value, forKey: key)\n }\n}",
                "App/Session.swift":
                    "func save(token: String) {\n // warden:ignore secret-in-user-defaults legacy, migrated\n UserDefaults.standard.set(token, forKey: \"t\")\n}",
            ],
            [
                "App/Store.swift":
                    "enum SessionStore {\n static func save(token value: String) { UserDefaults.standard.set(value, forKey: \"v\") }\n}",
                "AppTests/StoreTests.swift":
                    "import XCTest\nfinal class StoreTests: XCTestCase {\n func testSave() { SessionStore.save(token: session.accessToken) }\n}",
            ],
            [
                "App/Migration.swift":
                    "func migrate(into suite: UserDefaults) {\n for (key, value) in UserDefaults.standard.dictionaryRepresentation() {\n  suite.set(value, forKey: key)\n }\n}",
                "AppTests/SessionTests.swift":
                    "import XCTest\nfinal class SessionTests: XCTestCase {\n func testLegacy() { UserDefaults.standard.set(token, forKey: \"t\") }\n}",
            ],
            [
                "App/Store.swift":
                    "enum StateStore {\n static func save(value: String) {\n  let value = value.isEmpty ? \"signedOut\" : \"signedIn\"\n  UserDefaults.standard.set(value, forKey: \"state\")\n }\n}",
                "App/Login.swift": "func finish(session: Session) { StateStore.save(value: session.accessToken) }",
            ],
            [
                "App/Store.swift":
                    "enum PairStore {\n static func put(in suite: String = \"app\", _ name: String, _ secret: String) {\n  UserDefaults.standard.set(name, forKey: \"name\")\n }\n}",
                "App/Login.swift": "func finish(user: User) { PairStore.put(user.name, user.password) }",
            ],
            [
                "App/SettingsManager.swift":
                    "final class SettingsManager {\n func save(value: String) { UserDefaults.standard.set(value, forKey: \"v\") }\n}",
                "App/Login.swift": "func finish(session: Session) { keychainManager.save(value: session.password) }",
            ],
        ]),
]
