/// Fixtures for the dataflow families (a secret, weak randomness, decoded claims or an authorization URL reaching a
/// sink through variables) and the Objective-C spelling of every source rule. Merged with ``baseFixtures`` by rule.
let flowFixtures: [RuleFixture] = [
    RuleFixture(
        rule: "keychain-accessible-always",
        positives: [objc("[keychain setAccessibility:kSecAttrAccessibleAlways];")],
        negatives: [objc("[keychain setAccessibility:kSecAttrAccessibleWhenUnlockedThisDeviceOnly];")]),
    RuleFixture(
        rule: "keychain-not-this-device-only",
        positives: [objc("query[(__bridge id)kSecAttrAccessible] = (__bridge id)kSecAttrAccessibleAfterFirstUnlock;")],
        negatives: [
            objc(
                "query[(__bridge id)kSecAttrAccessible] = (__bridge id)kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly;"
            )
        ]),
    RuleFixture(
        rule: "keychain-accessibility-missing",
        positives: [
            swift(
                "func save(_ data: Data) {\n let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: \"a\", kSecValueData as String: data]\n SecItemAdd(query as CFDictionary, nil) }"
            ),
            swift(
                "func save(_ data: Data) {\n var query = [String: Any]()\n query[kSecClass as String] = kSecClassGenericPassword\n query[kSecValueData as String] = data\n let status = SecItemAdd(query as CFDictionary, nil) }"
            ),
            objc(
                "- (void)save:(NSData *)data {\n NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecValueData: data};\n SecItemAdd((__bridge CFDictionaryRef)query, NULL);\n}"
            ),
        ],
        negatives: [
            swift(
                "func save(_ data: Data) {\n let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data, kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]\n SecItemAdd(query as CFDictionary, nil) }"
            ),
            swift(
                "func save(_ data: Data, access: SecAccessControl) {\n var query = baseQuery()\n query[kSecAttrAccessControl as String] = access\n query[kSecValueData as String] = data\n SecItemAdd(query as CFDictionary, nil) }"
            ),
            objc(
                "- (void)save:(NSData *)data {\n NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecValueData: data, (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly};\n SecItemAdd((__bridge CFDictionaryRef)query, NULL);\n}"
            ),
        ]),
    RuleFixture(
        rule: "keychain-weak-access-control",
        positives: [
            objc(
                "SecAccessControlRef a = SecAccessControlCreateWithFlags(NULL, c, kSecAccessControlBiometryAny, NULL);")
        ],
        negatives: [
            objc(
                "SecAccessControlRef a = SecAccessControlCreateWithFlags(NULL, c, kSecAccessControlBiometryCurrentSet, NULL);"
            ).merging(faceIDPlist) { $1 }
        ]),
    RuleFixture(
        rule: "secret-in-user-defaults",
        positives: [
            swift(
                "func signIn() {\n let entered = passwordField.text ?? \"\"\n let blob = \"user=\\(user);pw=\\(entered)\"\n UserDefaults.standard.set(blob, forKey: \"login\") }"
            ),
            swift(
                "func store(_ response: TokenResponse) {\n let value = response.accessToken\n let defaults = UserDefaults.standard\n defaults.set(value, forKey: \"cache\") }"
            ),
            objc(
                "- (void)remember {\n NSString *secret = self.pinField.text;\n NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];\n [defaults setObject:secret forKey:@\"cache\"];\n}"
            ),
        ],
        negatives: [
            swift(
                "func signIn() {\n let name = usernameField.text ?? \"\"\n let greeting = \"hello \\(name)\"\n UserDefaults.standard.set(greeting, forKey: \"greeting\") }"
            ),
            swift(
                "func store(_ response: TokenResponse) {\n let expiry = response.expiresAt\n UserDefaults.standard.set(expiry, forKey: \"tokenExpiry\") }"
            ),
            objc(
                "- (void)remember {\n NSString *name = self.nameField.text;\n [[NSUserDefaults standardUserDefaults] setObject:name forKey:@\"lastUser\"];\n}"
            ),
        ]),
    RuleFixture(
        rule: "secret-in-icloud-kvs",
        positives: [
            objc("[[NSUbiquitousKeyValueStore defaultStore] setString:self.refreshToken forKey:@\"rt\"];")
        ],
        negatives: [objc("[[NSUbiquitousKeyValueStore defaultStore] setString:self.theme forKey:@\"theme\"];")]),
    RuleFixture(
        rule: "secret-in-file",
        positives: [
            swift(
                "func save(user: String, pass: String, path: String) {\n let blob = \"user=\\(user);pw=\\(pass)\"\n FileManager.default.createFile(atPath: path, contents: Data(blob.utf8)) }"
            ),
            swift(
                "func save(_ creds: Credentials, url: URL) throws {\n let data = try JSONEncoder().encode(creds)\n try data.write(to: url) }"
            ),
            swift(
                "func save(token: String, url: URL) throws {\n let payload = [\"token\": token]\n let data = try PropertyListSerialization.data(fromPropertyList: payload, format: .xml, options: 0)\n try data.write(to: url) }"
            ),
            swift(
                "func save(_ context: NSManagedObjectContext, password: String) {\n let account = Account(context: context)\n account.password = password\n try? context.save() }"
            ),
            swift("func save(_ user: NSManagedObject, p: String) {\n user.setValue(p, forKey: \"password\") }"),
            swift(
                "func save(_ realm: Realm, token: String) {\n let session = Session()\n session.token = token\n try! realm.write { realm.add(session) } }"
            ),
            swift(
                "func save(_ db: YapDatabaseConnection, secret: String) {\n db.readWrite { transaction in transaction.setObject(secret, forKey: \"k\", inCollection: \"auth\") } }"
            ),
            swift(
                "func save(_ db: Database, token: String) throws {\n let doc = MutableDocument()\n doc.setString(token, forKey: \"token\")\n try db.saveDocument(doc) }"
            ),
            swift(
                "func save(_ db: OpaquePointer, _ stmt: OpaquePointer, password: String) {\n sqlite3_bind_text(stmt, 1, password, -1, nil) }"
            ),
            swift(
                "func save(_ db: FMDatabase, pin: String) {\n db.executeUpdate(\"INSERT INTO t VALUES (?)\", withArgumentsIn: [pin]) }"
            ),
            objc(
                "- (void)save:(NSString *)path {\n NSString *blob = [NSString stringWithFormat:@\"pw=%@\", self.password];\n [blob writeToFile:path atomically:YES encoding:NSUTF8StringEncoding error:nil];\n}"
            ),
            objc(
                "- (void)save:(NSString *)path {\n NSData *data = [self.token dataUsingEncoding:NSUTF8StringEncoding];\n [[NSFileManager defaultManager] createFileAtPath:path contents:data attributes:nil];\n}"
            ),
            objc("- (void)save:(NSManagedObject *)user {\n [user setValue:self.password forKey:@\"password\"];\n}"),
            objc("- (void)save {\n [NSKeyedArchiver archiveRootObject:self.credentials toFile:self.path];\n}"),
        ],
        negatives: [
            swift(
                "func save(user: String, path: String) {\n let blob = \"user=\\(user)\"\n FileManager.default.createFile(atPath: path, contents: Data(blob.utf8)) }"
            ),
            swift(
                "func save(_ settings: Settings, url: URL) throws {\n let data = try JSONEncoder().encode(settings)\n try data.write(to: url) }"
            ),
            swift(
                "func save(token: String, url: URL, key: SymmetricKey) throws {\n let sealed = try AES.GCM.seal(Data(token.utf8), using: key)\n try sealed.combined!.write(to: url) }"
            ),
            swift(
                "func save(_ context: NSManagedObjectContext, name: String) {\n let account = Account(context: context)\n account.name = name\n try? context.save() }"
            ),
            swift(
                "func save(token: String) throws {\n let config = Realm.Configuration(encryptionKey: key)\n let realm = try Realm(configuration: config)\n let session = Session()\n session.token = token\n try realm.write { realm.add(session) } }"
            ),
            swift(
                "func save(_ db: FMDatabase, name: String) {\n db.executeUpdate(\"INSERT INTO t VALUES (?)\", withArgumentsIn: [name]) }"
            ),
            objc(
                "- (void)save:(NSString *)path {\n NSString *blob = [NSString stringWithFormat:@\"user=%@\", self.username];\n [blob writeToFile:path atomically:YES encoding:NSUTF8StringEncoding error:nil];\n}"
            ),
            objc("- (void)save:(NSManagedObject *)user {\n [user setValue:self.displayName forKey:@\"name\"];\n}"),
        ]),
    RuleFixture(
        rule: "file-without-protection",
        positives: [objc("[data writeToFile:path options:NSDataWritingFileProtectionNone error:nil];")],
        negatives: [objc("[data writeToFile:path options:NSDataWritingFileProtectionComplete error:nil];")]),
    RuleFixture(
        rule: "hardcoded-secret",
        positives: [
            objc("#define API_SECRET @\"q8Zr2LmX9vKt4WpB7nYc\""),
            objc("static NSString * const kClientSecret = @\"Zx81KqP0vLm3Nb7RtY2w\";"),
        ],
        negatives: [
            objc("#define API_SECRET_KEY @\"apiSecret\""),
            objc("static NSString * const kPasswordKey = @\"password\";"),
            swift(
                "enum Route: String {\n case resetPassword = \"auth/reset_password\"\n case token = \"oauth/token\" }"),
            swift("let pinColor = \"#FF3B30\""),
            swift("let tokenEventName = \"token_refreshed_successfully\""),
        ]),
    RuleFixture(
        rule: "oauth-in-webview",
        positives: [
            swift(
                "func signIn() {\n let url = URL(string: base + \"/oauth/authorize?client_id=\" + clientID)!\n webView.load(URLRequest(url: url)) }"
            ),
            swift(
                "func signIn() {\n var components = URLComponents(string: issuer)!\n components.queryItems = [URLQueryItem(name: \"response_type\", value: \"code\"), URLQueryItem(name: \"client_id\", value: id)]\n let request = URLRequest(url: components.url!)\n webView.load(request) }"
            ),
            swift(
                "func signIn() {\n let url = URL(string: \"https://id.example.com/oauth2/authorize\")!\n let safari = SFSafariViewController(url: url)\n present(safari, animated: true) }"
            ),
            objc(
                "- (void)signIn {\n NSURL *url = [NSURL URLWithString:[base stringByAppendingString:@\"/oauth/authorize?response_type=code\"]];\n [self.webView loadRequest:[NSURLRequest requestWithURL:url]];\n}"
            ),
        ],
        negatives: [
            swift(
                "func help() {\n let url = URL(string: base + \"/help/faq\")!\n webView.load(URLRequest(url: url)) }"),
            swift(
                "func signIn() {\n let url = URL(string: base + \"/oauth/authorize?client_id=\" + clientID)!\n let session = ASWebAuthenticationSession(url: url, callbackURLScheme: \"app\") { _, _ in }\n session.start() }"
            ),
            objc(
                "- (void)help {\n NSURL *url = [NSURL URLWithString:[base stringByAppendingString:@\"/help\"]];\n [self.webView loadRequest:[NSURLRequest requestWithURL:url]];\n}"
            ),
        ]),
    RuleFixture(
        rule: "uiwebview",
        positives: [objc("UIWebView *web = [[UIWebView alloc] initWithFrame:frame];")],
        negatives: [objc("WKWebView *web = [[WKWebView alloc] initWithFrame:frame configuration:c];")]),
    RuleFixture(
        rule: "oauth-without-pkce",
        positives: [
            objc(
                "- (NSArray *)items {\n return @[[NSURLQueryItem queryItemWithName:@\"response_type\" value:@\"code\"], [NSURLQueryItem queryItemWithName:@\"state\" value:state]];\n}"
            )
        ],
        negatives: [
            objc(
                "- (NSArray *)items {\n return @[[NSURLQueryItem queryItemWithName:@\"response_type\" value:@\"code\"], [NSURLQueryItem queryItemWithName:@\"code_challenge\" value:c], [NSURLQueryItem queryItemWithName:@\"state\" value:state]];\n}"
            )
        ]),
    RuleFixture(
        rule: "oauth-pkce-plain",
        positives: [
            objc("NSString *q = @\"response_type=code&code_challenge=abc&code_challenge_method=plain&state=x\";")
        ],
        negatives: [
            objc("NSString *q = @\"response_type=code&code_challenge=abc&code_challenge_method=S256&state=x\";")
        ]),
    RuleFixture(
        rule: "oauth-without-state",
        positives: [objc("NSString *q = @\"response_type=code&code_challenge=abc&code_challenge_method=S256\";")],
        negatives: [
            objc("NSString *q = @\"response_type=code&code_challenge=abc&code_challenge_method=S256&state=x\";")
        ]),
    RuleFixture(
        rule: "oauth-implicit-flow",
        positives: [objc("NSString *q = @\"response_type=token&client_id=abc\";")],
        negatives: [objc("NSString *q = @\"response_type=code&client_id=abc&code_challenge=x&state=y\";")]),
    RuleFixture(
        rule: "oauth-password-grant",
        positives: [objc("NSString *body = @\"grant_type=password&username=a&password=b\";")],
        negatives: [objc("NSString *body = @\"grant_type=authorization_code&code=a\";")]),
    RuleFixture(
        rule: "token-in-url",
        positives: [objc("NSURLQueryItem *item = [NSURLQueryItem queryItemWithName:@\"access_token\" value:token];")],
        negatives: [objc("NSURLQueryItem *item = [NSURLQueryItem queryItemWithName:@\"page\" value:page];")]),
    RuleFixture(
        rule: "jwt-unverified-decision",
        positives: [
            swift(
                "func isAdmin(_ idToken: String) -> Bool {\n let segments = idToken.components(separatedBy: \".\")\n let payload = Data(base64Encoded: segments[1]) ?? Data()\n let claims = try? JSONDecoder().decode(Claims.self, from: payload)\n if claims?.role == \"admin\" { return true }\n return false }"
            ),
            objc(
                "- (BOOL)isAdmin:(NSString *)jwt {\n NSArray *parts = [jwt componentsSeparatedByString:@\".\"];\n NSData *data = [[NSData alloc] initWithBase64EncodedString:parts[1] options:0];\n NSDictionary *claims = [NSJSONSerialization JSONObjectWithData:data options:0 error:nil];\n if ([claims[@\"role\"] isEqualToString:@\"admin\"]) { return YES; }\n return NO;\n}"
            ),
        ],
        negatives: [
            swift(
                "func version(_ v: String) -> Int {\n let parts = v.components(separatedBy: \".\")\n let data = Data(base64Encoded: parts[0]) ?? Data()\n if data.isEmpty { return 0 }\n return 1 }"
            ),
            objc(
                "- (BOOL)isAdmin:(NSString *)jwt {\n NSArray *parts = [jwt componentsSeparatedByString:@\".\"];\n if (![self.verifier verify:jwt]) { return NO; }\n NSData *data = [[NSData alloc] initWithBase64EncodedString:parts[1] options:0];\n NSDictionary *claims = [NSJSONSerialization JSONObjectWithData:data options:0 error:nil];\n return [claims[@\"role\"] isEqualToString:@\"admin\"];\n}"
            ),
        ]),
    RuleFixture(
        rule: "iat-positive-leeway",
        positives: [objc("validator.iatLeeway = 60;")],
        negatives: [objc("validator.expLeeway = 60;")]),
    RuleFixture(
        rule: "trust-all-certificates",
        positives: [
            objc(
                "- (void)URLSession:(NSURLSession *)s didReceiveChallenge:(NSURLAuthenticationChallenge *)c completionHandler:(void (^)(NSURLSessionAuthChallengeDisposition, NSURLCredential *))done {\n done(NSURLSessionAuthChallengeUseCredential, [NSURLCredential credentialForTrust:c.protectionSpace.serverTrust]);\n}"
            ),
            objc("[manager.securityPolicy setAllowInvalidCertificates:YES];"),
        ],
        negatives: [
            objc(
                "- (void)URLSession:(NSURLSession *)s didReceiveChallenge:(NSURLAuthenticationChallenge *)c completionHandler:(void (^)(NSURLSessionAuthChallengeDisposition, NSURLCredential *))done {\n SecTrustRef trust = c.protectionSpace.serverTrust;\n if (!SecTrustEvaluateWithError(trust, NULL)) { done(NSURLSessionAuthChallengeCancelAuthenticationChallenge, nil); return; }\n done(NSURLSessionAuthChallengeUseCredential, [NSURLCredential credentialForTrust:trust]);\n}"
            ),
            objc("[manager.securityPolicy setAllowInvalidCertificates:NO];"),
        ]),
    RuleFixture(
        rule: "cleartext-http",
        positives: [],
        negatives: [objc("NSURL *u = [NSURL URLWithString:@\"http://localhost:8080/a\"];")]),
    RuleFixture(
        rule: "biometric-event-gate",
        positives: [
            // An Objective-C wrapper: its callers are not read, so the hand-over itself is the finding.
            objc(
                "- (void)authenticate:(void (^)(BOOL))completion\n{\n [self.context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@\"Unlock\" reply:^(BOOL success, NSError *error) {\n  completion(success);\n }];\n}"
            ).merging(faceIDPlist) { $1 },
            swift(
                "func confirm() {\n context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: \"Confirm\") { success, _ in\n if success { self.showVault() } } }"
            ),
            swift(
                "func unlock() async throws {\n let ok = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: \"Unlock\")\n if ok { showVault() } }"
            ),
            // A wrapper hands the result on; its caller decides access, and is reported there.
            swift(
                "func unlock(completion: @escaping (Bool) -> Void) {\n context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: \"r\", reply: { [weak self] ok, _ in\n completion(ok) }) }\nfunc open() { unlock { ok in if ok { showVault() } } }"
            ),
            [
                "App/Biometrics.swift":
                    "final class Biometrics {\n func authenticate(completion: @escaping (Bool) -> Void) {\n  LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: \"Unlock\") { success, _ in completion(success) }\n }\n}",
                "App/Vault.swift":
                    "func openVault() {\n biometrics.authenticate { granted in\n  guard granted else { return }\n  showVault()\n }\n}",
            ],
            swift(
                "func unlock() async {\n do {\n try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: \"r\")\n showVault()\n } catch { } }"
            ),
            objc(
                "- (void)unlock {\n [self.context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@\"Unlock\" reply:^(BOOL success, NSError *error) {\n if (success) { [self showVault]; }\n }];\n}"
            ),
        ],
        negatives: [
            // The wrapper alone, its result handed on and its caller deciding nothing (it shows it).
            swift(
                "func authenticate(completion: @escaping (Bool) -> Void) {\n LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: \"Unlock\") { success, _ in\n  completion(success)\n }\n}\nfunc show() { authenticate { ok in print(ok) } }"
            ).merging(faceIDPlist) { $1 },
            // A caller's condition on a function that is not such a wrapper (no evaluatePolicy behind it).
            swift(
                "func authenticate(completion: @escaping (Bool) -> Void) { completion(true) }\nfunc open() { authenticate { ok in if ok { showVault() } } }"
            ),
            swift(
                "func check() {\n context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: \"r\") { _, error in\n if let error { self.show(error) } } }"
            ),
            swift(
                "func available() -> Bool {\n var error: NSError?\n return context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) }"
            ),
            objc(
                "- (void)read {\n NSDictionary *q = @{(__bridge id)kSecUseAuthenticationContext: self.context};\n [self.context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@\"r\" reply:^(BOOL success, NSError *error) {\n if (success) { SecItemCopyMatching((__bridge CFDictionaryRef)q, NULL); }\n }];\n}"
            ),
        ]),
    RuleFixture(
        rule: "faceid-usage-description-missing",
        positives: [objc("LAContext *context = [[LAContext alloc] init];")],
        negatives: [objc("LAContext *context = [[LAContext alloc] init];").merging(faceIDPlist) { $1 }]),
    RuleFixture(
        rule: "siwa-without-credential-state",
        positives: [objc("ASAuthorizationAppleIDProvider *provider = [[ASAuthorizationAppleIDProvider alloc] init];")],
        negatives: [
            objc(
                "ASAuthorizationAppleIDProvider *provider = [[ASAuthorizationAppleIDProvider alloc] init];\n[provider getCredentialStateForUserID:userID completion:^(ASAuthorizationAppleIDProviderCredentialState s, NSError *e) {}];\n[[NSNotificationCenter defaultCenter] addObserver:self selector:@selector(revoked:) name:ASAuthorizationAppleIDProviderCredentialRevokedNotification object:nil];"
            )
        ]),
    RuleFixture(
        rule: "passkeys-without-webcredentials",
        positives: [
            objc(
                "ASAuthorizationPlatformPublicKeyCredentialProvider *p = [[ASAuthorizationPlatformPublicKeyCredentialProvider alloc] initWithRelyingPartyIdentifier:@\"example.com\"];"
            )
        ],
        negatives: [
            objc(
                "ASAuthorizationPlatformPublicKeyCredentialProvider *p = [[ASAuthorizationPlatformPublicKeyCredentialProvider alloc] initWithRelyingPartyIdentifier:@\"example.com\"];"
            ).merging(webCredentials) { $1 }
        ]),
    RuleFixture(
        rule: "password-field-without-content-type",
        positives: [
            objc("self.passwordField.secureTextEntry = YES;"), objc("[self.pinField setSecureTextEntry:YES];"),
        ],
        negatives: [
            objc(
                "self.passwordField.secureTextEntry = YES;\nself.passwordField.textContentType = UITextContentTypePassword;"
            ),
            objc("[pinField setSecureTextEntry:YES];\n[pinField setTextContentType:UITextContentTypeOneTimeCode];"),
        ]),
    RuleFixture(
        rule: "non-constant-time-compare",
        positives: [
            swift("func check(_ entered: String) -> Bool { enteredPassword == storedPassword }"),
            swift("func verify(_ data: Data) -> Bool { computedHMAC == receivedHMAC }"),
            swift("func verify() -> Bool { pinHash == storedPinHash }"),
            objc("- (BOOL)check { return [self.enteredPin isEqualToString:self.storedPin]; }"),
            objc("- (BOOL)verify { return [computedSignature isEqualToData:expectedSignature]; }"),
        ],
        negatives: [
            swift("func changed() -> Bool { layoutSignature == cachedLayoutSignature }"),
            swift("func valid() -> Bool { password == confirmPassword }"),
            swift("static func == (lhs: Self, rhs: Self) -> Bool { lhs.signature == rhs.signature }"),
            swift("func empty() -> Bool { password == \"\" }"),
            objc("- (BOOL)same { return [self.password isEqualToString:self.confirmPassword]; }"),
            objc("- (BOOL)changed { return [self.previousDigest isEqualToString:self.currentDigest]; }"),
        ]),
    RuleFixture(
        rule: "insecure-random-for-secret",
        positives: [
            swift("func makeNonce() -> String {\n let nonce = String(format: \"%08x\", arc4random())\n return nonce }"),
            swift(
                "func request() -> URL {\n let value = Int.random(in: 0..<1_000_000)\n return URL(string: \"https://id.example.com/authorize?state=\\(value)\")! }"
            ),
            swift(
                "func request() -> URLQueryItem {\n let s = UUID().uuidString.prefix(8)\n return URLQueryItem(name: \"state\", value: String(s)) }"
            ),
            // A whole UUID too: RFC 9562 §8, a UUID MUST NOT be used as a security capability.
            swift(
                "func request() -> URLQueryItem {\n let s = UUID().uuidString\n return URLQueryItem(name: \"state\", value: s) }"
            ),
            swift(
                "func otp() -> String {\n srand(UInt32(time(nil)))\n let otp = String(rand() % 1_000_000)\n return otp }"
            ),
            swift(
                "func start() {\n let raw = arc4random_uniform(99999)\n let request = AuthRequest(state: String(raw)) }"
            ),
            objc(
                "- (NSString *)nonce {\n NSString *nonce = [NSString stringWithFormat:@\"%u\", arc4random()];\n return nonce;\n}"
            ),
            objc(
                "- (NSDictionary *)params {\n NSString *value = [NSString stringWithFormat:@\"%d\", rand()];\n return @{@\"state\": value};\n}"
            ),
        ],
        negatives: [
            swift(
                "func makeNonce() -> String {\n var bytes = [UInt8](repeating: 0, count: 32)\n _ = SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)\n let nonce = Data(bytes).base64EncodedString()\n return nonce }"
            ),
            swift("func shuffle() {\n let index = Int.random(in: 0..<10)\n let color = colors[index] }"),
            objc(
                "- (NSString *)nonce {\n uint8_t bytes[32];\n arc4random_buf(bytes, sizeof(bytes));\n NSString *nonce = [[NSData dataWithBytes:bytes length:32] base64EncodedStringWithOptions:0];\n return nonce;\n}"
            ),
            objc("- (NSInteger)pick {\n NSInteger index = arc4random_uniform(10);\n return index;\n}"),
        ]),
    RuleFixture(
        rule: "secret-in-log",
        positives: [
            swift(
                "func signIn() {\n let entered = passwordField.text ?? \"\"\n let line = \"login with \\(entered)\"\n print(line) }"
            ),
            swift(
                "func refreshed(_ response: TokenResponse) {\n let value = response.refreshToken\n debugPrint(\"refreshed\", value) }"
            ),
            swift("func dumpSession(_ session: Session) {\n let creds = session.credential\n dump(creds) }"),
            swift("func log(_ token: String) {\n logger.info(\"token \\(token, privacy: .public)\") }"),
            swift("func log(_ token: String) {\n os_log(\"%{public}@\", log: .default, type: .info, token) }"),
            swift("func log(_ password: String) {\n DDLogInfo(\"password \\(password)\") }"),
            objc("- (void)signIn {\n NSString *pw = self.passwordField.text;\n NSLog(@\"signing in with %@\", pw);\n}"),
            objc("- (void)signIn {\n DDLogDebug(@\"token %@\", self.accessToken);\n}"),
        ],
        negatives: [
            swift("func log(_ token: String) {\n logger.info(\"token \\(token)\") }"),
            swift("func log(_ token: String) {\n #if DEBUG\n print(token)\n #endif\n }"),
            swift("func log(_ token: String) {\n print(\"token length \\(token.count)\") }"),
            swift("func log(_ token: String) {\n os_log(\"%{private}@\", log: .default, type: .info, token) }"),
            objc("- (void)signIn {\n NSString *name = self.usernameField.text;\n NSLog(@\"signing in %@\", name);\n}"),
            objc("- (void)signIn {\n NSLog(@\"token length %lu\", (unsigned long)self.accessToken.length);\n}"),
        ]),
    // From real apps (DVIA-v2, Kickstarter): what a reviewer would not act on, next to what they would.
    RuleFixture(
        rule: "secret-in-file",
        positives: [
            swift(
                "func save() {\n let data = NSMutableDictionary()\n guard let password = passwordTextField.text else { return }\n data.setValue(password, forKey: \"password\")\n data.write(toFile: path, atomically: true) }"
            )
        ],
        negatives: [
            objc(
                "- (NSDictionary *)save {\n NSMutableDictionary *data = [NSMutableDictionary dictionary];\n [data setValue:self.passwordField.text forKey:@\"password\"];\n return data;\n}"
            ),
            swift(
                "func save() -> NSDictionary {\n let data = NSMutableDictionary()\n guard let password = passwordTextField.text else { return data }\n data.setValue(password, forKey: \"password\")\n return data }"
            ),
        ]),
    RuleFixture(
        rule: "cleartext-http",
        positives: [],
        negatives: [
            swift("let local = URL(string: \"http://api.ksr.test/v1\")!"),
            swift("let printer = URL(string: \"http://printer.local/status\")!"),
        ]),
    RuleFixture(
        rule: "hardcoded-secret",
        positives: [],
        negatives: [
            swift("fileprivate let CookieUsername = \"admin123\""),
            objc("static NSString *const CookieUsername = @\"admin123\";"),
        ]),
    RuleFixture(
        rule: "ats-insecure-exception",
        positives: [],
        negatives: [
            plist(
                "<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>ksr.test</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict></dict>"
            )
        ]),
    // Sinks and sources the first fixtures did not reach.
    RuleFixture(
        rule: "secret-in-file",
        positives: [
            swift("func save(_ handle: FileHandle, privateKey: String) {\n handle.write(Data(privateKey.utf8)) }"),
            swift(
                "func save(passcode: String, url: URL) throws {\n try passcode.write(to: url, atomically: true, encoding: .utf8) }"
            ),
            objc(
                "- (void)save:(RLMRealm *)realm {\n Session *session = [[Session alloc] init];\n session.token = self.accessToken;\n [realm addObject:session];\n}"
            ),
            objc(
                "- (void)save:(YapDatabaseReadWriteTransaction *)transaction {\n [transaction setObject:self.password forKey:@\"pw\" inCollection:@\"auth\"];\n}"
            ),
            objc(
                "- (void)save {\n CBLMutableDocument *doc = [[CBLMutableDocument alloc] init];\n [doc setString:self.refreshToken forKey:@\"rt\"];\n}"
            ),
            objc(
                "- (void)save {\n NSManagedObject *user = [NSEntityDescription insertNewObjectForEntityForName:@\"User\" inManagedObjectContext:self.context];\n [user setValue:self.pin forKey:@\"pin\"];\n}"
            ),
        ],
        negatives: [
            swift("func save(_ handle: FileHandle, report: String) {\n handle.write(Data(report.utf8)) }"),
            objc(
                "- (void)save:(RLMRealm *)realm {\n Session *session = [[Session alloc] init];\n session.theme = self.theme;\n [realm addObject:session];\n}"
            ),
            objc(
                "- (void)save:(YapDatabaseReadWriteTransaction *)transaction {\n [transaction setObject:self.profile forKey:@\"profile\" inCollection:@\"profiles\"];\n}"
            ),
        ]),
    RuleFixture(
        rule: "insecure-random-for-secret",
        positives: [
            swift(
                "func salt() -> Int {\n let source = GKMersenneTwisterRandomSource(seed: 42)\n let salt = source.nextInt()\n return salt }"
            )
        ],
        negatives: [
            swift(
                "func shuffle() -> Int {\n let source = GKARC4RandomSource()\n let index = source.nextInt(upperBound: 6)\n return index }"
            )
        ]),
    RuleFixture(
        rule: "hardcoded-secret",
        positives: [
            plist("<key>APIClientSecret</key><string>q8Zr2LmX9vKt4WpB7nYc3sDf</string>", name: "App/Config.plist"),
            ["App/Config.json": "{\n  \"client_secret\": \"Zx81KqP0vLm3Nb7RtY2wQe5U\"\n}\n"],
            ["App/Secrets.xcconfig": "API_SECRET = Hx7Lq2Vb9Pz4Kw1Ns8Dm3Rt6\n"],
        ],
        negatives: [
            plist("<key>APIKeyName</key><string>api_key</string>", name: "App/Config.plist"),
            [
                "App/Config.json":
                    "{\n  \"password_reset_url\": \"https://example.com/reset\",\n  \"token_header\": \"Authorization\"\n}\n"
            ],
            ["App/Secrets.xcconfig": "API_SECRET = $(inherited)\nAPI_KEY = YOUR_API_KEY_HERE\n"],
            plist(
                "<key>API_KEY</key><string>AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW</string>",
                name: "App/GoogleService-Info.plist"),
        ]),
    RuleFixture(
        rule: "secret-in-log",
        positives: [
            swift(
                "func log(_ accessToken: String) {\n logger.info(\"user \\(userID, privacy: .public) token \\(accessToken, privacy: .public)\") }"
            )
        ],
        negatives: [
            swift(
                "func log(_ accessToken: String) {\n logger.info(\"user \\(userID, privacy: .public) refreshed \\(accessToken)\") }"
            ),
            swift("func log(_ encryptedToken: String) {\n print(\"stored \\(encryptedToken)\") }"),
            swift("func log() {\n print(\"\\(keychain.getAllKeys().count) items\") }"),
            swift(
                "func log(_ token: String) {\n os_log(\"user %{public}@ token %@\", log: .default, type: .info, userID, token) }"
            ),
            objc(
                "- (void)log {\n os_log_info(OS_LOG_DEFAULT, \"100%% user %{public}@ token %@\", self.userID, self.accessToken);\n}"
            ),
        ]),
    RuleFixture(
        rule: "secret-in-log",
        positives: [
            swift(
                "func log(_ token: String) {\n os_log(\"user %@ token %{public}@\", log: .default, type: .info, userID, token) }"
            ),
            objc(
                "- (void)log {\n os_log_error(OS_LOG_DEFAULT, \"%d%% %{public}s\", 100, self.password.UTF8String);\n}"),
        ],
        negatives: []),
    RuleFixture(
        rule: "oauth-in-webview",
        positives: [],
        negatives: [
            swift(
                "func shop() {\n webView.load(URLRequest(url: URL(string: \"https://shop.example.com/authorized-retailers\")!)) }"
            ),
            swift(
                "func docs() {\n webView.load(URLRequest(url: URL(string: \"https://example.com/docs/oauth/overview\")!)) }"
            ),
        ]),
    RuleFixture(
        rule: "non-constant-time-compare",
        positives: [],
        negatives: [swift("func same() -> Bool { mailSignature == defaultSignature }")]),
]

/// ``baseFixtures``, ``flowFixtures`` and ``realCodeFixtures`` merged by rule.
let ruleFixtures: [RuleFixture] = {
    var merged: [RuleFixture] = []
    let flowFixtures = flowFixtures + realCodeFixtures
    for fixture in baseFixtures {
        let extra = flowFixtures.filter { $0.rule == fixture.rule }
        merged.append(
            RuleFixture(
                rule: fixture.rule, positives: fixture.positives + extra.flatMap(\.positives),
                negatives: fixture.negatives + extra.flatMap(\.negatives)))
    }
    for fixture in flowFixtures where !baseFixtures.contains(where: { $0.rule == fixture.rule }) {
        if let index = merged.firstIndex(where: { $0.rule == fixture.rule }) {
            merged[index] = RuleFixture(
                rule: fixture.rule, positives: merged[index].positives + fixture.positives,
                negatives: merged[index].negatives + fixture.negatives)
        } else {
            merged.append(fixture)
        }
    }
    return merged
}()
