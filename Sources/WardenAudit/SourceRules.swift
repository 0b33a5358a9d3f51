/// The rules that read one Swift or Objective-C file.
enum SourceRules {
    static func run(_ scan: FileScan) {
        let tokens = scan.tokens
        var oauthChecked = Set<Int>()
        for index in tokens.indices {
            let token = tokens[index]
            switch token.kind {
            case .identifier:
                identifier(scan, index, token.text, &oauthChecked)
            case .attribute where token.text == "AppStorage" || token.text == "SceneStorage":
                swiftUIStorage(scan, index)
            case .string:
                string(scan, index, token, &oauthChecked)
            case .operator where token.text == "==" || token.text == "!=":
                comparison(scan, index)
            case .operator where token.text == "=":
                assignment(scan, index)
            default:
                break
            }
        }
    }

    // MARK: - Dispatch on identifiers

    static let alwaysClasses: Set<String> = [
        "kSecAttrAccessibleAlways", "kSecAttrAccessibleAlwaysThisDeviceOnly", "accessibleAlways",
        "accessibleAlwaysThisDeviceOnly",
    ]
    static let migratingClasses: Set<String> = [
        "kSecAttrAccessibleWhenUnlocked", "kSecAttrAccessibleAfterFirstUnlock", "accessibleWhenUnlocked",
        "accessibleAfterFirstUnlock", "afterFirstUnlock",
    ]
    static let weakAccessControl: Set<String> = [
        "biometryAny", "touchIDAny", "kSecAccessControlBiometryAny", "kSecAccessControlTouchIDAny", "userPresence",
        "kSecAccessControlUserPresence",
    ]
    static let logFunctions: Set<String> = ["print", "debugPrint", "NSLog", "dump", "os_log", "NSLogv"]
    static let loggerMethods: Set<String> = [
        "debug", "info", "notice", "error", "warning", "fault", "critical", "trace", "log",
    ]

    /// What an identifier can trigger; one dictionary lookup per identifier keeps the scan fast.
    enum Trigger {
        case alwaysClass, alwaysWrapper, migratingClass, whenUnlocked, weakAccessControl, unprotectedFile,
            fileProtectionNone, uiWebView, defaultsWrite, fileWrite, objcDefaults, webLoad, queryItem, jwtDecode,
            split, useCredential, disabledEvaluator, insecureFlag, evaluatePolicy, localAuthentication,
            signInWithApple, credentialState, revocationObserver, passkeys, secureField, secureTextEntry, logFunction,
            loggerMethod
    }

    static let triggers: [String: Trigger] = {
        var table: [String: Trigger] = [:]
        for name in alwaysClasses { table[name] = .alwaysClass }
        for name in migratingClasses { table[name] = .migratingClass }
        for name in weakAccessControl { table[name] = .weakAccessControl }
        for name in logFunctions { table[name] = .logFunction }
        for name in loggerMethods { table[name] = .loggerMethod }
        for name in ["always", "alwaysThisDeviceOnly"] { table[name] = .alwaysWrapper }
        for name in ["set", "setValue", "setObject", "setString", "setData"] { table[name] = .defaultsWrite }
        for name in [
            "write", "writeToFile", "writeToURL", "createFile", "archiveRootObject", "sqlite3_bind_text",
            "sqlite3_bind_blob",
        ] {
            table[name] = .fileWrite
        }
        for name in ["load", "loadRequest", "SFSafariViewController"] { table[name] = .webLoad }
        for name in ["components", "split"] { table[name] = .split }
        for name in ["DisabledTrustEvaluator", "DisabledEvaluator", "disableEvaluation"] {
            table[name] = .disabledEvaluator
        }
        for name in ["allowInvalidCertificates", "validatesDomainName"] { table[name] = .insecureFlag }
        for name in ["getCredentialState", "AppleIDCredentialMonitor"] { table[name] = .credentialState }
        for name in ["ASAuthorizationPlatformPublicKeyCredentialProvider", "PasskeyRequests"] {
            table[name] = .passkeys
        }
        for name in ["isSecureTextEntry", "secureTextEntry"] { table[name] = .secureTextEntry }
        table["whenUnlocked"] = .whenUnlocked
        table["noFileProtection"] = .unprotectedFile
        table["NSFileProtectionNone"] = .unprotectedFile
        table["none"] = .fileProtectionNone
        table["UIWebView"] = .uiWebView
        table["UIWebViewDelegate"] = .uiWebView
        table["NSUserDefaults"] = .objcDefaults
        table["URLQueryItem"] = .queryItem
        table["decode"] = .jwtDecode
        table["useCredential"] = .useCredential
        table["evaluatePolicy"] = .evaluatePolicy
        table["LAContext"] = .localAuthentication
        table["ASAuthorizationAppleIDProvider"] = .signInWithApple
        table["credentialRevokedNotification"] = .revocationObserver
        table["SecureField"] = .secureField
        return table
    }()

    static func identifier(_ scan: FileScan, _ index: Int, _ name: String, _ oauthChecked: inout Set<Int>) {
        guard let trigger = triggers[name] else {
            if FastText.contains(name, "leeway", caseInsensitive: true)
                || FastText.contains(name, "skew", caseInsensitive: true)
            {
                leeway(scan, index)
            }
            return
        }
        let tokens = scan.tokens
        let position = (Int(tokens[index].line), Int(tokens[index].column))
        switch trigger {
        case .alwaysClass:
            if name.hasPrefix("kSec") || scan.isSymbol(index - 1, ".") {
                scan.report(Catalogue.keychainAccessibleAlways, at: index)
            }
        case .alwaysWrapper:
            if keychainContext(scan, index) { scan.report(Catalogue.keychainAccessibleAlways, at: index) }
        case .migratingClass:
            if name.hasPrefix("kSec") || scan.isSymbol(index - 1, ".") {
                scan.report(Catalogue.keychainNotThisDeviceOnly, at: index)
            }
        case .whenUnlocked:
            if keychainContext(scan, index) { scan.report(Catalogue.keychainNotThisDeviceOnly, at: index) }
        case .weakAccessControl:
            if name.hasPrefix("kSec") || scan.isSymbol(index - 1, ".") {
                scan.report(Catalogue.keychainWeakAccessControl, at: index)
            }
        case .unprotectedFile:
            // Data.WritingOptions.noFileProtection is used as a member (`.noFileProtection`); NSFileProtectionNone as is.
            if name == "NSFileProtectionNone" || scan.isSymbol(index - 1, ".") {
                scan.report(Catalogue.fileWithoutProtection, at: index)
            }
        case .fileProtectionNone:
            if scan.isSymbol(index - 1, "."), scan.text(index - 2) == "FileProtectionType" {
                scan.report(Catalogue.fileWithoutProtection, at: index)
            }
        case .uiWebView:
            scan.report(Catalogue.uiWebView, at: index)
        case .defaultsWrite:
            defaultsWrite(scan, index)
        case .fileWrite:
            fileWrite(scan, index)
        case .objcDefaults:
            if scan.file.language == .objectiveC { objcDefaultsWrite(scan, index) }
        case .webLoad:
            webViewLoad(scan, index)
        case .queryItem:
            queryItem(scan, index, &oauthChecked)
        case .jwtDecode:
            if scan.isSymbol(index + 1, "("), scan.text(index + 2) == "jwt" { jwtDecision(scan, index) }
        case .split:
            jwtSplit(scan, index)
        case .useCredential:
            trustAll(scan, index)
        case .disabledEvaluator:
            scan.report(Catalogue.trustAllCertificates, at: index)
        case .insecureFlag:
            let value = scan.text(index + 2)
            let disabled = name == "allowInvalidCertificates" ? ["true", "YES"] : ["false", "NO"]
            if scan.isSymbol(index + 1, "="), disabled.contains(value) {
                scan.report(Catalogue.trustAllCertificates, at: index)
            }
        case .evaluatePolicy:
            biometricGate(scan, index)
        case .localAuthentication:
            scan.facts.localAuthentication.append(position)
        case .signInWithApple:
            scan.facts.signInWithApple.append(position)
        case .credentialState:
            scan.facts.checksCredentialState = true
            if name == "AppleIDCredentialMonitor" { scan.facts.observesRevocation = true }
        case .revocationObserver:
            scan.facts.observesRevocation = true
        case .passkeys:
            scan.facts.passkeys.append(position)
        case .secureField:
            if let call = scan.file.call(at: index), !scan.file.chain(after: call.close).contains("textContentType") {
                scan.report(Catalogue.passwordFieldWithoutContentType, at: index)
            }
        case .secureTextEntry:
            secureTextEntry(scan, index)
        case .logFunction:
            log(scan, index, logger: false)
        case .loggerMethod:
            guard scan.isSymbol(index - 1, ".") else { return }
            let receiver = scan.file.receiver(of: index).last ?? ""
            if FastText.contains(receiver, "log", caseInsensitive: true) { log(scan, index, logger: true) }
        }
    }

    /// `.always` / `.whenUnlocked` only in a Keychain wrapper's accessibility context.
    static func keychainContext(_ scan: FileScan, _ index: Int) -> Bool {
        guard scan.isSymbol(index - 1, ".") else { return false }
        let owner = scan.text(index - 2)
        if ["Accessibility", "KeychainItemAccessibility", "KeychainAccessibility"].contains(owner) { return true }
        // accessibility(.always), accessibility: .always, accessible: .whenUnlocked
        var position = index - 2
        if scan.isSymbol(position, "(") { position -= 1 } else if scan.isSymbol(position, ":") { position -= 1 }
        let word = scan.text(position).lowercased()
        return word.hasPrefix("accessib")
    }

    // MARK: Storage

    static func defaultsWrite(_ scan: FileScan, _ index: Int) {
        guard scan.isSymbol(index - 1, "."), let call = scan.file.call(at: index), let key = call.argument("forKey")
        else { return }
        let receiver = scan.resolvedReceiver(of: index)
        let joined = receiver.joined(separator: ".").lowercased()
        let rule: Rule
        if joined.contains("ubiquitous") || joined.contains("kvstore") || joined.contains("keyvaluestore") {
            rule = Catalogue.secretInICloudKeyValueStore
        } else if joined.contains("defaults") || joined.contains("standard") || joined.contains("suite") {
            rule = Catalogue.secretInUserDefaults
        } else if call.name == "setValue" {
            rule = Catalogue.secretInFile  // KVC on a managed object (Core Data) or other model
        } else {
            return
        }
        let value = call.arguments.first { $0.label == nil }?.range ?? (call.open + 1)..<(call.open + 1)
        let literalValue =
            value.count == 1
            && (scan.tokens[value.lowerBound].kind == .number
                || ["true", "false", "nil"].contains(scan.tokens[value.lowerBound].text))
        if literalValue { return }
        if scan.secretKey(in: key) || !scan.secretValues(in: value).isEmpty { scan.report(rule, at: index) }
    }

    static func objcDefaultsWrite(_ scan: FileScan, _ index: Int) {
        // [[NSUserDefaults standardUserDefaults] setObject:token forKey:@"token"];
        var end = index
        while end < scan.tokens.count, !scan.isSymbol(end, ";") { end += 1 }
        let range = index..<end
        guard
            range.contains(where: { ["setObject", "setValue", "setString"].contains(scan.tokens[$0].text) }),
            range.contains(where: { scan.tokens[$0].text == "forKey" })
        else { return }
        if scan.secretKey(in: range) { scan.report(Catalogue.secretInUserDefaults, at: index) }
    }

    static func fileWrite(_ scan: FileScan, _ index: Int) {
        let name = scan.tokens[index].text
        if scan.file.language == .objectiveC {
            // [token writeToFile:path atomically:YES]
            if name == "writeToFile" || name == "writeToURL", SecretNames.isSecret(scan.text(index - 1)) {
                scan.report(Catalogue.secretInFile, at: index)
            }
            return
        }
        guard let call = scan.file.call(at: index) else { return }
        switch name {
        case "write":
            guard call.argument("to") != nil || call.argument("toFile") != nil || call.argument("toURL") != nil,
                let owner = scan.file.receiver(of: index).last
            else { return }
            if SecretNames.isSecret(owner) { scan.report(Catalogue.secretInFile, at: index) }
        case "createFile":
            if let contents = call.argument("contents"), !scan.secretValues(in: contents).isEmpty {
                scan.report(Catalogue.secretInFile, at: index)
            }
        default:  // archiveRootObject, sqlite3_bind_*
            let all = (call.open + 1)..<call.close
            if !scan.secretValues(in: all).isEmpty { scan.report(Catalogue.secretInFile, at: index) }
        }
    }

    static func swiftUIStorage(_ scan: FileScan, _ index: Int) {
        guard scan.isSymbol(index + 1, "("), scan.file.partner[index + 1] > index + 1 else { return }
        let close = Int(scan.file.partner[index + 1])
        let keySecret = ((index + 2)..<close).contains {
            scan.tokens[$0].kind == .string && SecretNames.isSecret(scan.tokens[$0].text)
        }
        var position = close + 1
        while position < scan.tokens.count, scan.tokens[position].kind == .keyword,
            scan.tokens[position].text != "var"
        {
            position += 1
        }
        let variable = scan.text(position) == "var" ? scan.text(position + 1) : ""
        if keySecret || SecretNames.isSecret(variable) { scan.report(Catalogue.secretInSwiftUIStorage, at: index) }
    }

    // MARK: Sign-in

    static func isAuthorizationName(_ name: String) -> Bool {
        let words = SecretNames.words(name)
        return words.contains {
            ["authorize", "authorization", "oauth", "signin", "login", "auth", "sso"].contains($0)
        }
            && !words.contains("callback") && !words.contains("redirect")
    }

    static func isAuthorizationURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.contains("/authorize") || lower.contains("/oauth") || lower.contains("response_type=")
            || lower.contains("/o/oauth2/")
    }

    static func webViewLoad(_ scan: FileScan, _ index: Int) {
        if scan.file.language == .objectiveC {
            // [self.webView loadRequest:[NSURLRequest requestWithURL:oauthURL]]
            guard scan.text(index - 1).lowercased().contains("webview"),
                let open = scan.enclosingOpener(of: index, "[")
            else { return }
            let range = index..<Int(scan.file.partner[open])
            if range.contains(where: {
                isAuthorizationName(scan.tokens[$0].text)
                    || (scan.tokens[$0].kind == .string && isAuthorizationURL(scan.tokens[$0].text))
            }) {
                scan.report(Catalogue.oauthInWebView, at: index)
            }
            return
        }
        guard let call = scan.file.call(at: index) else { return }
        if scan.tokens[index].text != "SFSafariViewController" {
            let receiver = scan.resolvedReceiver(of: index).joined(separator: ".").lowercased()
            guard receiver.contains("webview") else { return }
        }
        let range = (call.open + 1)..<call.close
        let authorization = range.contains { position in
            let token = scan.tokens[position]
            return (token.kind == .string && isAuthorizationURL(token.text))
                || (token.kind == .identifier && isAuthorizationName(token.text))
        }
        if authorization { scan.report(Catalogue.oauthInWebView, at: index) }
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
            if token.kind == .string, token.text.contains("="), !token.text.contains(" ") {
                // A query string or URL (no spaces): name=value pairs with a value.
                for pair in token.text.split(whereSeparator: { $0 == "&" || $0 == "?" }) {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, !parts[1].isEmpty else { continue }
                    items.append((String(parts[0]), String(parts[1]), position))
                }
            } else if token.kind == .identifier, token.text == "URLQueryItem", let call = scan.file.call(at: position),
                let name = call.argument("name").flatMap(scan.firstString(in:))
            {
                items.append((name, call.argument("value").flatMap(scan.firstString(in:)), position))
            } else if token.kind == .string, scan.isSymbol(position + 1, ":"), position + 2 <= body.upperBound {
                let value = scan.tokens[position + 2].kind == .string ? scan.tokens[position + 2].text : nil
                items.append((token.text, value, position))
            }
        }
        return (body, items)
    }

    static func string(_ scan: FileScan, _ index: Int, _ token: Token, _ oauthChecked: inout Set<Int>) {
        let text = token.text
        let utf8 = text.utf8
        let hasEquals = utf8.contains(UInt8(ascii: "="))
        let hasSpace = utf8.contains(UInt8(ascii: " "))
        if hasEquals, !hasSpace,
            FastText.contains(text, "response_type=", caseInsensitive: true)
                || FastText.contains(text, "grant_type=", caseInsensitive: true)
        {
            oauthRequest(scan, index, &oauthChecked)
        } else if text == "response_type" || text == "grant_type", scan.isSymbol(index + 1, ":") {
            oauthRequest(scan, index, &oauthChecked)  // a ["response_type": "code"] dictionary
        }
        if FastText.hasPrefix(text, "http://", caseInsensitive: true) { cleartext(scan, index, text.lowercased()) }
        if hasEquals, utf8.contains(UInt8(ascii: "?")),
            ["token=", "api_key=", "apikey=", "password=", "client_secret=", "jwt="].contains(where: {
                FastText.contains(text, $0, caseInsensitive: true)
            })
        {
            tokenInURL(scan, index, text.lowercased())
        }
        if utf8.count >= 20, let format = KeyFormats.match(text) {
            scan.report(Catalogue.hardcodedSecret, at: index, "A \(format) is written into the source")
        }
    }

    static func queryItem(_ scan: FileScan, _ index: Int, _ oauthChecked: inout Set<Int>) {
        guard let call = scan.file.call(at: index), let name = call.argument("name").flatMap(scan.firstString(in:))
        else { return }
        if name == "response_type" || name == "grant_type" { oauthRequest(scan, index, &oauthChecked) }
        if tokenParameters.contains(name.lowercased()) {
            let body = scan.file.enclosingFunction(of: index) ?? 0...(scan.tokens.count - 1)
            // URLComponents also builds form bodies; a function that sets httpBody is not putting it in a URL.
            if !scan.file.contains("httpBody", in: body) { scan.report(Catalogue.tokenInURL, at: index) }
        }
    }

    static let tokenParameters: Set<String> = [
        "access_token", "id_token", "token", "refresh_token", "api_key", "apikey", "password", "client_secret",
        "session_id", "jwt",
    ]

    static func tokenInURL(_ scan: FileScan, _ index: Int, _ lower: String) {
        // A query string: parameters after `?`, or a URL.
        guard let question = lower.firstIndex(of: "?") else { return }
        let query = lower[lower.index(after: question)...]
        for pair in query.split(separator: "&") {
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            if tokenParameters.contains(name) {
                scan.report(Catalogue.tokenInURL, at: index)
                return
            }
        }
    }

    static func oauthRequest(_ scan: FileScan, _ index: Int, _ checked: inout Set<Int>) {
        let (body, items) = parameters(scan, around: index)
        guard checked.insert(body.lowerBound).inserted else { return }
        let names = Set(items.map { $0.0 })
        if let grant = items.first(where: { $0.0 == "grant_type" && $0.1 == "password" }) {
            scan.report(Catalogue.oauthPasswordGrant, at: grant.2)
        }
        guard let responseType = items.first(where: { $0.0 == "response_type" }) else { return }
        let value = responseType.1 ?? "code"
        if value.split(separator: " ").contains("token") {
            scan.report(Catalogue.oauthImplicitFlow, at: responseType.2)
            return
        }
        if let method = items.first(where: { $0.0 == "code_challenge_method" }), method.1?.lowercased() == "plain" {
            scan.report(Catalogue.oauthPKCEPlain, at: method.2)
        } else if !names.contains("code_challenge") {
            scan.report(Catalogue.oauthWithoutPKCE, at: responseType.2)
        }
        if !names.contains("state") { scan.report(Catalogue.oauthWithoutState, at: responseType.2) }
    }

    // MARK: Tokens

    static func jwtDecision(_ scan: FileScan, _ index: Int) {
        guard let body = scan.file.enclosingFunction(of: index) else { return }
        if verifies(scan, body) { return }
        // let claims = try decode(jwt: token) ... if/guard claims...
        var position = index - 1
        while position >= 0, scan.tokens[position].kind == .keyword { position -= 1 }
        guard scan.isSymbol(position, "="), scan.tokens.indices.contains(position - 1) else { return }
        let variable = scan.text(position - 1)
        if decides(scan, body, on: variable, after: index) { scan.report(Catalogue.jwtUnverifiedDecision, at: index) }
    }

    static func jwtSplit(_ scan: FileScan, _ index: Int) {
        guard scan.isSymbol(index - 1, "."), let call = scan.file.call(at: index),
            call.arguments.contains(where: {
                scan.tokens[$0.range.lowerBound].kind == .string && scan.tokens[$0.range.lowerBound].text == "."
            }),
            let owner = scan.file.receiver(of: index).last
        else { return }
        let words = SecretNames.words(owner)
        guard words.contains("jwt") || words.contains("token"), let body = scan.file.enclosingFunction(of: index)
        else { return }
        let decodes = body.contains {
            ["base64Encoded", "base64URLDecoded", "base64Decoded"].contains(scan.tokens[$0].text)
        }
        guard decodes, !verifies(scan, body) else { return }
        var position = index - 1
        while position >= 0, !scan.isSymbol(position, "="), scan.tokens[position].line == scan.tokens[index].line {
            position -= 1
        }
        let variable = scan.isSymbol(position, "=") ? scan.text(position - 1) : ""
        let claimsUsed = body.contains {
            scan.tokens[$0].kind == .string
                && ["exp", "sub", "role", "admin", "scope", "iss", "aud", "roles", "groups"].contains(
                    scan.tokens[$0].text)
        }
        if claimsUsed || (!variable.isEmpty && decides(scan, body, on: variable, after: index)) {
            scan.report(Catalogue.jwtUnverifiedDecision, at: index)
        }
    }

    static func verifies(_ scan: FileScan, _ body: ClosedRange<Int>) -> Bool {
        body.contains {
            let text = scan.tokens[$0].text
            return scan.tokens[$0].kind == .identifier
                && (text == "verify" || text == "JWTVerifier" || text == "IDTokenValidator" || text == "validate"
                    || text == "isValidSignature")
        }
    }

    /// Whether `variable` appears in an `if`/`guard`/`switch` condition or a ternary after `start`.
    static func decides(_ scan: FileScan, _ body: ClosedRange<Int>, on variable: String, after start: Int) -> Bool {
        var position = start
        while position < body.upperBound {
            let token = scan.tokens[position]
            if token.kind == .keyword, ["if", "guard", "switch", "while"].contains(token.text) {
                var cursor = position + 1
                while cursor < body.upperBound, !scan.isSymbol(cursor, "{") {
                    if scan.tokens[cursor].kind == .identifier, scan.tokens[cursor].text == variable { return true }
                    cursor += 1
                }
            }
            position += 1
        }
        return false
    }

    static func leeway(_ scan: FileScan, _ index: Int) {
        let name = scan.tokens[index].text
        let words = SecretNames.words(name)
        var issuedAt = words.contains("iat") || (words.contains("issued") && words.contains("at"))
        // .issuedAt(leeway: 60)
        if !issuedAt, scan.isSymbol(index + 1, ":"), let open = scan.enclosingOpener(of: index, "(", limit: 64),
            ["issuedAt", "iat"].contains(scan.text(open - 1))
        {
            issuedAt = true
        }
        guard issuedAt, scan.isSymbol(index + 1, ":") || scan.isSymbol(index + 1, "=") else { return }
        let value = scan.tokens.indices.contains(index + 2) ? scan.tokens[index + 2] : nil
        if let value, value.kind == .number, let number = Double(value.text.replacingOccurrences(of: "_", with: "")),
            number > 0
        {
            scan.report(Catalogue.iatPositiveLeeway, at: index)
        }
    }

    // MARK: Network

    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]
    static let namespaceHosts = ["www.w3.org", "schemas.", "ns.adobe.com", "www.apple.com/dtds", "purl.org", "xmlns."]

    static func cleartext(_ scan: FileScan, _ index: Int, _ lower: String) {
        let rest = lower.dropFirst("http://".count)
        let host = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        let hostOnly = host.hasPrefix("[") ? host : String(host.prefix { $0 != ":" })
        guard !hostOnly.isEmpty, !hostOnly.contains("\u{FFFC}") else { return }
        if loopbackHosts.contains(hostOnly) || hostOnly.hasPrefix("127.") || hostOnly.hasSuffix(".localhost") { return }
        if namespaceHosts.contains(where: { rest.hasPrefix($0) }) { return }
        scan.report(Catalogue.cleartextHTTP, at: index)
    }

    static func trustAll(_ scan: FileScan, _ index: Int) {
        guard let body = scan.file.enclosingFunction(of: index) else { return }
        let createsTrustCredential = body.contains { position in
            scan.tokens[position].text == "URLCredential" && scan.text(position + 2) == "trust"
        }
        guard createsTrustCredential else { return }
        let evaluates = body.contains { position in
            let text = scan.tokens[position].text
            return scan.tokens[position].kind == .identifier
                && (text == "SecTrustEvaluateWithError" || text == "SecTrustEvaluate"
                    || text == "SecTrustEvaluateAsyncWithError" || text == "PinningDelegate"
                    || text == "evaluate")
        }
        if !evaluates { scan.report(Catalogue.trustAllCertificates, at: index) }
    }

    // MARK: Platform

    static let secretReads: Set<String> = [
        "SecItemCopyMatching", "get", "getString", "getData", "string", "data", "object", "read", "load", "fetch",
        "retrieve", "password", "token", "value",
    ]

    static func biometricGate(_ scan: FileScan, _ index: Int) {
        guard let call = scan.file.call(at: index) else { return }
        let function = scan.file.enclosingFunction(of: index) ?? call.open...call.close
        // The Keychain enforcing the policy itself is the right design.
        let boundToKeychain = function.contains { position in
            [
                "kSecUseAuthenticationContext", "kSecAttrAccessControl", "SecAccessControlCreateWithFlags",
                "biometryCurrentSet", "BiometricGate",
            ].contains(scan.tokens[position].text)
        }
        if boundToKeychain { return }
        // The reply closure: the trailing closure or the `reply:` argument.
        var closure: ClosedRange<Int>?
        if scan.isSymbol(call.close + 1, "{"), scan.file.partner[call.close + 1] > call.close + 1 {
            closure = (call.close + 1)...Int(scan.file.partner[call.close + 1])
        } else if let reply = call.argument("reply"), scan.isSymbol(reply.lowerBound, "{") {
            closure = reply.lowerBound...Int(scan.file.partner[reply.lowerBound])
        }
        guard let closure else { return }
        for position in closure {
            let token = scan.tokens[position]
            guard token.kind == .identifier else { continue }
            // A secret read: SecItemCopyMatching, keychain.get("token"), loadToken(), defaults.string(forKey: "pin")
            if token.text == "SecItemCopyMatching" {
                scan.report(Catalogue.biometricEventGate, at: index)
                return
            }
            if scan.isSymbol(position + 1, "("), let inner = scan.file.call(at: position) {
                let readsSecretName =
                    SecretNames.isSecret(token.text)
                    && SecretNames.words(token.text).first.map {
                        ["get", "load", "read", "fetch", "retrieve", "unlock", "decrypt", "show", "reveal"].contains($0)
                    } == true
                let readsSecretKey =
                    secretReads.contains(token.text) && scan.secretKey(in: (inner.open + 1)..<inner.close)
                if readsSecretName || readsSecretKey {
                    scan.report(Catalogue.biometricEventGate, at: index)
                    return
                }
            }
            // isUnlocked = true / authenticated = true
            let words = SecretNames.words(token.text)
            if words.contains(where: { ["unlocked", "authenticated", "authorized", "verified"].contains($0) }),
                scan.isSymbol(position + 1, "="), scan.text(position + 2) == "true"
            {
                scan.report(Catalogue.biometricEventGate, at: index)
                return
            }
        }
    }

    static func secureTextEntry(_ scan: FileScan, _ index: Int) {
        // field.isSecureTextEntry = true  (UIKit) — the same owner needs a textContentType in the file.
        guard scan.isSymbol(index + 1, "="), ["true", "YES"].contains(scan.text(index + 2)) else { return }
        let owner = scan.file.receiver(of: index).last ?? ""
        if !scan.contentTypeOwners.contains(owner) { scan.report(Catalogue.passwordFieldWithoutContentType, at: index) }
    }

    // MARK: Crypto and diagnostics

    static let macWords: Set<String> = ["mac", "hmac", "signature", "sig", "digest", "csrf"]
    static let stateQualifiers: Set<String> = [
        "expected", "returned", "received", "stored", "saved", "sent", "pending", "oauth", "auth", "callback",
        "original", "csrf", "response", "query", "request",
    ]

    static func comparison(_ scan: FileScan, _ index: Int) {
        func operand(_ position: Int, backwards: Bool) -> (name: String, literal: Bool)? {
            guard scan.tokens.indices.contains(position) else { return nil }
            let token = scan.tokens[position]
            switch token.kind {
            case .string, .number: return ("", true)
            case .keyword where ["nil", "true", "false"].contains(token.text): return ("", true)
            case .punctuation where token.text == "." && !backwards: return ("", true)  // implicit member: .active
            case .identifier:
                if backwards { return (token.text, false) }
                // Walk a member chain forward to its last name: a.b.c
                var cursor = position
                while scan.isSymbol(cursor + 1, "."), scan.tokens.indices.contains(cursor + 2),
                    scan.tokens[cursor + 2].kind == .identifier
                {
                    cursor += 2
                }
                if token.text.first?.isUppercase == true, cursor > position { return ("", true) }  // State.idle
                return (scan.tokens[cursor].text, false)
            case .punctuation where token.text == ")" || token.text == "]":
                let open = Int(scan.file.partner[position])
                return open > 0 ? (scan.text(open - 1), false) : nil
            default: return nil
            }
        }
        guard let left = operand(index - 1, backwards: true), let right = operand(index + 1, backwards: false),
            !left.literal, !right.literal,
            [left.name, right.name].contains(where: { name in
                ["state", "mac", "sig", "digest", "csrf"].contains {
                    FastText.contains(name, $0, caseInsensitive: true)
                }
            })
        else { return }
        let leftWords = SecretNames.words(left.name)
        let rightWords = SecretNames.words(right.name)
        let mac = [leftWords, rightWords].contains { $0.last.map(macWords.contains) == true }
        let state =
            [leftWords, rightWords].allSatisfy { $0.last == "state" }
            && (leftWords + rightWords).contains(where: stateQualifiers.contains)
        if mac || state { scan.report(Catalogue.nonConstantTimeCompare, at: index) }
    }

    static let weakRandom: Set<String> = [
        "arc4random", "arc4random_uniform", "rand", "random", "srand", "srandom", "drand48", "lrand48", "srand48",
        "GKRandomSource", "GKMersenneTwisterRandomSource", "GKLinearCongruentialRandomSource", "GKARC4RandomSource",
        "randomElement", "shuffled", "nextInt",
    ]

    static func assignment(_ scan: FileScan, _ index: Int) {
        // NAME (: Type)? = EXPR
        var nameIndex = index - 1
        if scan.tokens.indices.contains(nameIndex), scan.tokens[nameIndex].kind == .identifier,
            scan.tokens[nameIndex].text.first?.isUppercase == true || scan.tokens[nameIndex].text == "String"
        {
            // `let key: String = ...` — step back over a simple type annotation.
            if scan.isSymbol(nameIndex - 1, ":") { nameIndex -= 2 }
        } else if scan.isSymbol(nameIndex, "?") || scan.isSymbol(nameIndex, "!") || scan.isSymbol(nameIndex, "*") {
            nameIndex -= 1
        }
        if scan.file.language == .objectiveC, scan.isSymbol(nameIndex, "*") { nameIndex -= 1 }
        guard scan.tokens.indices.contains(nameIndex), scan.tokens[nameIndex].kind == .identifier,
            scan.tokens.indices.contains(index + 1)
        else { return }
        let name = scan.tokens[nameIndex].text
        let value = scan.expression(from: index + 1)
        if SecretNames.isSecret(name), value.count == 1, scan.tokens[value.lowerBound].kind == .string {
            let literal = scan.tokens[value.lowerBound]
            if !literal.isInterpolated, KeyFormats.looksLikeSecretValue(literal.text) {
                scan.report(Catalogue.hardcodedSecret, at: value.lowerBound)
            }
        }
        if SecretNames.needsSecureRandom(name) {
            let weak = value.first { position in
                let token = scan.tokens[position]
                guard token.kind == .identifier else { return false }
                // Calls only: `random.bytes(count:)` is a parameter named random, not random().
                if weakRandom.contains(token.text) {
                    return scan.isSymbol(position + 1, "(") || token.text.hasPrefix("GK")
                }
                // `seed:` of a random generator (GKMersenneTwisterRandomSource(seed:), SeededGenerator(seed:)), not of
                // a key derivation such as Ed25519PrivateKey(seed:).
                guard token.text == "seed", scan.isSymbol(position + 1, ":"),
                    let open = scan.enclosingOpener(of: position, "(", limit: 64)
                else { return false }
                let callee = scan.text(open - 1)
                return ["random", "generator", "rng"].contains { FastText.contains(callee, $0, caseInsensitive: true) }
            }
            if let weak { scan.report(Catalogue.insecureRandomForSecret, at: weak) }
        }
    }

    static func log(_ scan: FileScan, _ index: Int, logger: Bool) {
        guard let call = scan.file.call(at: index) else { return }
        if scan.file.language == .swift, !logger, scan.isSymbol(index - 1, ".") { return }
        let range = (call.open + 1)..<call.close
        let secrets = scan.secretValues(in: range)
        guard let first = secrets.first else { return }
        if logger {
            // Logger interpolations are private unless marked .public.
            let publicSecret = secrets.contains { position in
                var cursor = position
                while cursor < call.close, scan.tokens[cursor].kind != .interpolationEnd {
                    if scan.tokens[cursor].text == "public", scan.isSymbol(cursor - 1, ".") { return true }
                    cursor += 1
                }
                return false
            }
            if !publicSecret { return }
        } else if scan.tokens[index].text == "os_log" {
            guard let format = scan.firstString(in: range), format.contains("{public}") else { return }
        }
        scan.report(Catalogue.secretInLog, at: first, "'\(scan.tokens[first].text)' is written to the logs")
    }
}
