/// Secrets in preferences: UserDefaults (and NSUserDefaults), iCloud key-value storage, `@AppStorage` and
/// `@SceneStorage`.
struct PreferencesRules: Rule {
    static let userDefaults = RuleInfo(
        id: "secret-in-user-defaults", severity: .error, name: "Secret in UserDefaults",
        message: "A secret is written to UserDefaults, an unencrypted plist in the app container and its backups",
        fix: "Store secrets in the Keychain (Warden's KeychainStore / CredentialStore).",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])
    static let swiftUIStorage = RuleInfo(
        id: "secret-in-swiftui-storage", severity: .error, name: "Secret in @AppStorage/@SceneStorage",
        message: "A secret is kept in @AppStorage/@SceneStorage, which persist unencrypted (UserDefaults, scene state)",
        fix: "Keep secrets in the Keychain; hold only non-secret state in @AppStorage/@SceneStorage.",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])
    static let iCloudKeyValueStore = RuleInfo(
        id: "secret-in-icloud-kvs", severity: .error, name: "Secret in iCloud key-value storage",
        message: "A secret is written to NSUbiquitousKeyValueStore, synced to iCloud and every device of the account",
        fix: "Keep secrets in the device's Keychain with a ThisDeviceOnly class.",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0002"])

    var reports: [RuleInfo] { [Self.userDefaults, Self.swiftUIStorage, Self.iCloudKeyValueStore] }

    /// Apps' own property wrappers over UserDefaults (`@UserDefault("password", defaultValue: "")`).
    static let defaultsWrappers: Set<String> = [
        "UserDefault", "UserDefaults", "UserDefaultURL", "UserDefaultsBacked", "UserDefaultsStorage",
        "UserDefaultsBacking",
        "UserDefaultWrapper", "UserDefaultsWrapper", "UserDefaultsProperty", "StoredInDefaults",
    ]

    /// Declared types whose values are never secrets.
    static let plainTypes: Set<String> = ["Bool", "Int", "Double", "Float", "Date", "TimeInterval", "CGFloat"]

    static let setters: Set<String> = ["set", "setValue", "setObject", "setString", "setData", "setBool", "setURL"]

    var triggers: Triggers {
        Triggers(identifiers: Self.setters, attributes: Self.defaultsWrappers.union(["AppStorage", "SceneStorage"]))
    }

    func check(_ scan: FileScan, at index: Int) {
        let token = scan.tokens[index]
        if token.kind == .attribute {
            swiftUIStorage(
                scan, index, Self.defaultsWrappers.contains(token.text) ? Self.userDefaults : Self.swiftUIStorage)
        } else if scan.file.language == .objectiveC, !scan.isSymbol(index - 1, ".") {
            objectiveC(scan, index)
        } else {
            swift(scan, index)
        }
    }

    /// Which store a receiver chain names, if it is one of these.
    static func store(_ receiver: [String]) -> RuleInfo? {
        let joined = receiver.joined(separator: ".")
        func has(_ word: String) -> Bool { FastText.contains(joined, word, caseInsensitive: true) }
        if has("ubiquitous") || has("kvstore") || has("keyvaluestore") {
            return iCloudKeyValueStore
        }
        if has("defaults") || joined.lowercased().hasSuffix("standard") || has("suite") {
            return userDefaults
        }
        return nil
    }

    /// `UserDefaults.standard.set(value, forKey: key)`: a secret value, or a secret-named key with a value that
    /// is not a literal.
    func swift(_ scan: FileScan, _ index: Int) {
        guard scan.isSymbol(index - 1, "."), let call = scan.file.call(at: index), let key = call.argument("forKey"),
            let rule = Self.store(scan.resolvedReceiver(of: index))
        else { return }
        guard let value = call.arguments.first(where: { $0.label == nil })?.range, !scan.isLiteral(value) else {
            return
        }
        report(scan, index, rule, value: value, key: key)
    }

    /// `[[NSUserDefaults standardUserDefaults] setObject:token forKey:@"token"]`.
    func objectiveC(_ scan: FileScan, _ index: Int) {
        guard let message = scan.message(at: index), message.parts.first?.index == index,
            let key = message.argument("forKey"), let value = message.parts.first?.argument, !scan.isLiteral(value)
        else { return }
        let receiver = message.receiver.filter { scan.tokens[$0].kind == .identifier }.map { scan.tokens[$0].text }
        let resolved = receiver.count == 1 ? (scan.aliases[receiver[0]].map { [$0] } ?? receiver) : receiver
        let declared = receiver.count == 1 && Self.declaresDefaults(scan, receiver[0])
        guard
            let rule = Self.store(resolved)
                ?? (receiver.contains("NSUserDefaults") || declared ? Self.userDefaults : nil)
        else {
            // `[Storage.shared setObject:info forKey:k]`: a class of the app whose own setter writes to UserDefaults
            // (``wrapperFlag(_:)``, raised by the file that defines it).
            guard let type = receiver.first, type.first?.isUppercase == true,
                let text = scan.keyedWriteMessage(
                    Self.userDefaults, at: index, value: value, key: key, "is written to UserDefaults through \(type)")
            else { return }
            scan.report(Self.userDefaults, at: index, text, if: Self.wrapperFlag(type))
            return
        }
        if rule.id == Self.userDefaults.id, let wrapper = Self.forwardingClass(scan, index, value: value) {
            scan.facts.flags.insert(Self.wrapperFlag(wrapper))
        }
        report(scan, index, rule, value: value, key: key)
    }

    /// The flag a file raises when its class `name` forwards what it is given to UserDefaults.
    static func wrapperFlag(_ name: String) -> String { "defaultsWrapper:" + name }

    /// Whether the file declares `name` (or the property whose ivar it is) as `NSUserDefaults *`.
    static func declaresDefaults(_ scan: FileScan, _ name: String) -> Bool {
        let property = name.hasPrefix("_") ? String(name.dropFirst()) : name
        guard let defaults = scan.file.names.name(of: "NSUserDefaults") else { return false }
        return scan.memo("declaresDefaults:" + property) {
            let tokens = scan.tokens
            for index in tokens.indices.dropLast(2) where tokens[index].name == defaults {
                guard scan.isSymbol(index + 1, "*") else { continue }
                let declared = tokens[index + 2].text
                if declared == property || declared == "_" + property { return true }
            }
            return false
        }
    }

    /// The class whose setter the write at `index` is, when it stores the setter's own parameter `value`
    /// (`@implementation Storage ... - (void)setObject:(id)value forKey:(NSString *)key { [_defaults setObject:value
    /// forKey:key]; }`).
    static func forwardingClass(_ scan: FileScan, _ index: Int, value: Range<Int>) -> String? {
        guard value.count == 1, scan.tokens[value.lowerBound].kind == .identifier else { return nil }
        var body = Int(scan.file.enclosingBrace[index])
        while body >= 0, scan.file.enclosingBrace[body] >= 0 { body = Int(scan.file.enclosingBrace[body]) }
        guard body > 0 else { return nil }
        // The method head: `- (void)setObject:(id)value forKey:(NSString *)key {`, the parameter after a `)`.
        var position = body - 1
        var setter = false
        var parameter = false
        while position >= 0, body - position < 48, !(scan.isSymbol(position, "-") || scan.isSymbol(position, "+")) {
            if scan.text(position).hasPrefix("set"), scan.isSymbol(position + 1, ":") { setter = true }
            if scan.text(position) == scan.text(value.lowerBound), scan.isSymbol(position - 1, ")") { parameter = true }
            position -= 1
        }
        guard setter, parameter else { return nil }
        while position >= 0 {
            let token = scan.tokens[position]
            if token.kind == .keyword, token.text == "@end" { return nil }
            if token.kind == .keyword, token.text == "@implementation", position + 1 < scan.tokens.count {
                return scan.text(position + 1)
            }
            position -= 1
        }
        return nil
    }

    private func report(_ scan: FileScan, _ index: Int, _ rule: RuleInfo, value: Range<Int>, key: Range<Int>) {
        let store = rule.id == Self.userDefaults.id ? "UserDefaults" : "iCloud key-value storage"
        if let source = Self.copiedDefaults(scan, value: value, key: key) {
            // Every key of one defaults copied into another: a secret if the project writes any to the defaults.
            scan.report(
                rule, at: index,
                "Every value of '\(source)' is copied to \(store), the secrets the project writes to UserDefaults included",
                if: FileScan.findingFlag(Self.userDefaults.id))
            return
        }
        scan.reportKeyedWrite(rule, at: index, value: value, key: key, "is written to \(store)")
    }

    /// The defaults a write copies whole: `for (NSString *key in old.dictionaryRepresentation) { [suite
    /// setObject:[old objectForKey:key] forKey:key]; }`, `for (key, value) in old.dictionaryRepresentation() {
    /// suite.set(value, forKey: key) }`. The source's name, or nil.
    static func copiedDefaults(_ scan: FileScan, value: Range<Int>, key: Range<Int>) -> String? {
        guard key.count == 1, scan.tokens[key.lowerBound].kind == .identifier else { return nil }
        let name = scan.tokens[key.lowerBound].text
        // The loop whose head names the key: `for ( ... key ... in <source>.dictionaryRepresentation ... ) {`.
        var open = Int(scan.file.enclosingBrace[key.lowerBound])
        while open >= 0 {
            var position = open - 1
            var head: [Int] = []
            while position >= 0, open - position < 48, !scan.isSymbol(position, "{"), !scan.isSymbol(position, "}"),
                !scan.isSymbol(position, ";")
            {
                head.append(position)
                if scan.tokens[position].kind == .keyword, scan.tokens[position].text == "for" { break }
                position -= 1
            }
            // `for (key, value) in d.dictionaryRepresentation() where key.hasPrefix("theme.")` copies only some.
            if position >= 0, scan.text(position) == "for", !head.contains(where: { scan.text($0) == "where" }),
                let representation = head.first(where: { scan.text($0) == "dictionaryRepresentation" }),
                head.contains(where: { scan.text($0) == name && $0 < representation })
            {
                let source =
                    scan.text(representation - 1) == "." ? scan.text(representation - 2) : scan.text(representation - 1)
                // The value is the loop's own value, or a read of the key from the source.
                let read = value.contains { scan.text($0) == name } && value.contains { scan.text($0) == source }
                let own = value.count == 1 && head.contains { scan.text($0) == scan.text(value.lowerBound) }
                return read || own ? source : nil
            }
            open = Int(scan.file.enclosingBrace[open])
        }
        return nil
    }

    /// `@AppStorage("token") var token`, or an app's `@UserDefault("password", ...) static var password`: a secret
    /// key or property name.
    func swiftUIStorage(_ scan: FileScan, _ index: Int, _ rule: RuleInfo) {
        guard scan.isSymbol(index + 1, "("), scan.file.partner[index + 1] > index + 1 else { return }
        let close = Int(scan.file.partner[index + 1])
        let keySecret = ((index + 2)..<close).contains {
            scan.tokens[$0].kind == .string && scan.isSecret(scan.tokens[$0].text)
        }
        var position = close + 1
        while position < scan.tokens.count, scan.tokens[position].kind == .keyword,
            scan.tokens[position].text != "var"
        {
            position += 1
        }
        let variable = scan.text(position) == "var" ? scan.text(position + 1) : ""
        // `var alwaysSendCreds: Bool`: a flag or a number is no secret, whatever its name.
        if scan.isSymbol(position + 2, ":"), Self.plainTypes.contains(scan.text(position + 3)) { return }
        guard keySecret || scan.isSecret(variable) else { return }
        if rule.id == Self.userDefaults.id {
            scan.report(rule, at: index, "@\(scan.tokens[index].text) keeps the secret '\(variable)' in UserDefaults")
        } else {
            scan.report(rule, at: index)
        }
    }
}
