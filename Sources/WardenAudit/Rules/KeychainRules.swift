/// Keychain accessibility classes and access control: `Always` classes, classes without `ThisDeviceOnly`, weak
/// access control flags, and items added with no accessibility class at all.
struct KeychainRules: Rule {
    static let accessibleAlways = RuleInfo(
        id: "keychain-accessible-always", severity: .error, name: "Keychain item readable while locked",
        message: "Keychain item uses an 'Always' accessibility class: readable while the device is locked",
        fix:
            "Use kSecAttrAccessibleWhenUnlockedThisDeviceOnly (AfterFirstUnlockThisDeviceOnly only for background refresh).",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])
    static let notThisDeviceOnly = RuleInfo(
        id: "keychain-not-this-device-only", severity: .warning, name: "Keychain item migrates to other devices",
        message: "Keychain accessibility class without ThisDeviceOnly: the item travels in backups to other devices",
        fix: "Use the ThisDeviceOnly variant (kSecAttrAccessibleWhenUnlockedThisDeviceOnly) for tokens and keys.",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])
    static let accessibilityMissing = RuleInfo(
        id: "keychain-accessibility-missing", severity: .warning, name: "Keychain item without an accessibility class",
        message:
            "SecItemAdd without kSecAttrAccessible: the item gets kSecAttrAccessibleWhenUnlocked and travels in backups",
        fix: "Set kSecAttrAccessible to kSecAttrAccessibleWhenUnlockedThisDeviceOnly (or use Warden's KeychainStore).",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])
    static let weakAccessControl = RuleInfo(
        id: "keychain-weak-access-control", severity: .warning, name: "Weak Keychain access control",
        message: "Access control .biometryAny/.userPresence survives new enrollments or falls back to the passcode",
        fix: "Use .biometryCurrentSet for high-value items.", masvs: ["MASVS-AUTH-2"],
        maswe: ["MASWE-0021", "MASWE-0022"])

    var reports: [RuleInfo] {
        [Self.accessibleAlways, Self.notThisDeviceOnly, Self.accessibilityMissing, Self.weakAccessControl]
    }

    static let alwaysClasses: Set<String> = [
        "kSecAttrAccessibleAlways", "kSecAttrAccessibleAlwaysThisDeviceOnly", "accessibleAlways",
        "accessibleAlwaysThisDeviceOnly",
    ]
    static let migratingClasses: Set<String> = [
        "kSecAttrAccessibleWhenUnlocked", "kSecAttrAccessibleAfterFirstUnlock", "accessibleWhenUnlocked",
        "accessibleAfterFirstUnlock", "afterFirstUnlock",
    ]
    static let weakFlags: Set<String> = [
        "biometryAny", "touchIDAny", "kSecAccessControlBiometryAny", "kSecAccessControlTouchIDAny", "userPresence",
        "kSecAccessControlUserPresence",
    ]
    /// Wrapper spellings that need an accessibility context (`.always` is also a UIKit mode).
    static let wrapperAlways: Set<String> = ["always", "alwaysThisDeviceOnly"]

    var triggers: Triggers {
        Triggers(
            identifiers: Self.alwaysClasses.union(Self.migratingClasses).union(Self.weakFlags).union(Self.wrapperAlways)
                .union([
                    "whenUnlocked", "SecItemAdd", "set", "setString", "setData", "write", "writeData", "writeObject",
                    "synchronizable", "kSecAttrSynchronizable",
                ]))
    }

    func check(_ scan: FileScan, at index: Int) {
        let name = scan.tokens[index].text
        // kSecAttrAccessibleAlways, `.accessibleAlways`, `Accessibility.afterFirstUnlock`,
        // `SecAccessControlCreateFlags.biometryAny`; not `Self.accessibleAlways` (a constant of that name).
        let receiver = scan.isSymbol(index - 1, ".") ? scan.text(index - 2) : ""
        let qualified =
            name.hasPrefix("kSec") || scan.isImplicitMember(index)
            || (scan.isSymbol(index - 1, ".")
                && ["ccessib", "AccessControl", "Flags", "Keychain"].contains {
                    FastText.contains(receiver, $0, caseInsensitive: false)
                })
        if Self.alwaysClasses.contains(name) {
            if qualified { scan.report(Self.accessibleAlways, at: index, related: Self.itemWrites(scan, index)) }
        } else if Self.migratingClasses.contains(name) {
            if qualified, !Self.storesCertificatesOnly(scan, index) {
                scan.report(Self.notThisDeviceOnly, at: index, related: Self.itemWrites(scan, index))
            }
        } else if Self.weakFlags.contains(name) {
            if qualified { scan.report(Self.weakAccessControl, at: index) }
        } else if Self.wrapperAlways.contains(name) {
            if Self.keychainContext(scan, index) { scan.report(Self.accessibleAlways, at: index) }
        } else if name == "whenUnlocked" {
            if Self.keychainContext(scan, index) { scan.report(Self.notThisDeviceOnly, at: index) }
        } else if name == "SecItemAdd" {
            itemAdd(scan, index)
        } else if name == "set" {
            keychainSwiftDefault(scan, index)
            keychainAccessDefault(scan, index)
        } else if name == "setString" || name == "setData" {
            uicKeyChainStoreDefault(scan, index)
        } else if name == "synchronizable" || name == "kSecAttrSynchronizable" {
            synchronizable(scan, index)
        } else {
            ocKeychainWrite(scan, index)
        }
    }

    /// UICKeyChainStore's `[keychain setString:token forKey:key]` (or Swift's `keychain.setString(token, forKey:)`)
    /// in a file that never sets an accessibility: the store's default is
    /// `UICKeyChainStoreAccessibilityAfterFirstUnlock` (set in its `commonInit`), which migrates to a new device.
    /// Only in a file that imports UICKeyChainStore, on a receiver named as a keychain, with a secret value or key.
    func uicKeyChainStoreDefault(_ scan: FileScan, _ index: Int) {
        guard scan.imports("UICKeyChainStore") else { return }
        let whole = 0..<scan.tokens.count
        let configured = scan.memo("uickeychainstore-accessibility") {
            scan.any(in: whole) {
                scan.tokens[$0].kind == .identifier
                    && (scan.tokens[$0].text.hasPrefix("UICKeyChainStoreAccessibility")
                        || scan.tokens[$0].text == "setAccessibility")
            }
        }
        guard !configured else { return }
        let value: Range<Int>
        let key: Range<Int>
        let receiver: [String]
        if scan.file.language == .swift {
            guard scan.isSymbol(index - 1, "."), let call = scan.file.call(at: index),
                let first = call.arguments.first(where: { $0.label == nil })?.range,
                let forKey = call.argument("forKey")
            else { return }
            (value, key, receiver) = (first, forKey, scan.resolvedReceiver(of: index))
        } else {
            guard let message = scan.message(at: index), message.parts.first?.index == index,
                let forKey = message.argument("forKey"), let first = message.parts.first?.argument
            else { return }
            let names = message.receiver.filter { scan.tokens[$0].kind == .identifier }.map { scan.tokens[$0].text }
            (value, key, receiver) = (first, forKey, names)
        }
        // A key that names a public key says what is stored, whatever the value's variable is called
        // (`[_keychain setData:privateKey forKey:kPushPublicKey]` in a setter of the public key).
        let publicKey = key.contains { position in
            let words = SecretNames.words(scan.tokens[position].text)
            return words.contains("public") && words.contains("key")
        }
        guard !scan.isLiteral(value), !publicKey,
            receiver.contains(where: { SecretNames.words($0).contains("keychain") || $0 == "UICKeyChainStore" })
        else { return }
        Self.reportDefaulted(
            scan, at: index, value: value, key: key,
            Self.defaulted(
                "UICKeyChainStore", "AfterFirstUnlock",
                fix: "set accessibility to UICKeyChainStoreAccessibilityWhenUnlockedThisDeviceOnly"))
    }

    /// KeychainSwift's `keychain.set(value, forKey:)` without `withAccess:` stores with the library's default,
    /// `.accessibleWhenUnlocked` (KeychainSwiftAccessOptions.defaultOption), which migrates to a new device.
    /// Only in a file that imports KeychainSwift, on a receiver named as a keychain, with a secret value.
    func keychainSwiftDefault(_ scan: FileScan, _ index: Int) {
        guard scan.file.language == .swift, scan.isSymbol(index - 1, "."), scan.imports("KeychainSwift"),
            let call = scan.file.call(at: index), call.argument("forKey") != nil, call.argument("withAccess") == nil,
            let value = call.arguments.first(where: { $0.label == nil })?.range, let key = call.argument("forKey"),
            scan.resolvedReceiver(of: index).contains(where: {
                SecretNames.words($0).contains("keychain") || $0 == "KeychainSwift"
            })
        else { return }
        // A secret value, or a value under a secret-named key (`set(newValue, forKey: "\(id)-accessToken")`).
        Self.reportDefaulted(
            scan, at: index, value: value, key: key,
            Self.defaulted(
                "KeychainSwift", "accessibleWhenUnlocked", fix: "pass withAccess: .accessibleWhenUnlockedThisDeviceOnly"
            ))
    }

    /// KeychainAccess's `keychain.set(value, key:)` on a store made without an accessibility stores with the
    /// library's default, `.afterFirstUnlock` (its `Options`), which migrates to a new device. Only in a file that
    /// imports KeychainAccess, on a receiver named as a keychain, with a secret value or key; the store is judged as
    /// the subscript's is (``keychainAccessWrite(_:at:store:value:key:)``).
    func keychainAccessDefault(_ scan: FileScan, _ index: Int) {
        guard scan.file.language == .swift, scan.imports("KeychainAccess"),
            let call = scan.file.call(at: index), let key = call.argument("key"), call.argument("forKey") == nil,
            let value = call.arguments.first(where: { $0.label == nil })?.range, !scan.isLiteral(value)
        else { return }
        // extension Keychain { func setKey(_ k: Key, _ name: String) throws { try set(k.data, key: name) } }: a
        // write to the store the method is called on, whichever it is.
        if !scan.isSymbol(index - 1, ".") || (scan.text(index - 2) == "self" && !scan.isSymbol(index - 3, ".")) {
            guard let type = scan.enclosingType(of: index), type.keyword == "extension", type.name == "Keychain"
            else { return }
            Self.keychainAccessWrite(scan, at: index, store: Self.anyStore, value: value, key: key)
            return
        }
        let receiver = scan.file.receiver(of: index)
        guard let store = receiver.last,
            receiver.contains(where: { SecretNames.words($0).contains("keychain") || $0 == "Keychain" }),
            !receiver.contains("accessibility")  // keychain.accessibility(.whenUnlockedThisDeviceOnly).set(...)
        else { return }
        // Keychain(service: s).set(token, key: k): a store made and used in one expression, with the default.
        if receiver == ["Keychain"], scan.isSymbol(index - 2, ")") {
            Self.reportDefaulted(scan, at: index, value: value, key: key, Self.keychainAccessDefaulted)
            return
        }
        Self.keychainAccessWrite(scan, at: index, store: store, value: value, key: key)
    }

    /// The ownCloud SDK's `OCKeychain`: `write(_:toKeychainItemForAccount:path:)` (`writeData:`/`writeObject:` in
    /// Objective-C) always stores with `kSecAttrAccessibleAfterFirstUnlock` (its `writeData:...` sets it, with no
    /// option), which migrates to a new device. Reported for a secret value or a secret-named path.
    func ocKeychainWrite(_ scan: FileScan, _ index: Int) {
        let value: Range<Int>
        let key: Range<Int>
        if scan.file.language == .swift {
            guard scan.isSymbol(index - 1, "."), let call = scan.file.call(at: index),
                call.argument("toKeychainItemForAccount") != nil, let path = call.argument("path"),
                let first = call.arguments.first(where: { $0.label == nil })?.range
            else { return }
            (value, key) = (first, path)
        } else {
            guard let message = scan.message(at: index), message.parts.first?.index == index,
                message.argument("toKeychainItemForAccount") != nil, let path = message.argument("path"),
                let first = message.parts.first?.argument
            else { return }
            (value, key) = (first, path)
        }
        guard !scan.isLiteral(value) else { return }
        Self.reportDefaulted(
            scan, at: index, value: value, key: key,
            Self.defaulted(
                "ownCloud's OCKeychain", "AfterFirstUnlock",
                fix: "store it with SecItemAdd and kSecAttrAccessibleWhenUnlockedThisDeviceOnly"))
    }

    static let keychainAccessDefaulted = defaulted(
        "KeychainAccess", "afterFirstUnlock", fix: "create the store with .accessibility(.whenUnlockedThisDeviceOnly)")

    /// What a wrapper's default accessibility does to a value stored with it.
    static func defaulted(_ library: String, _ defaultClass: String, fix: String) -> String {
        "is stored by \(library) with its default accessibility, \(defaultClass) (not ThisDeviceOnly): \(fix)"
    }

    /// A wrapper's write with its default accessibility: reported for a secret value, or a value under a secret key.
    static func reportDefaulted(
        _ scan: FileScan, at index: Int, value: Range<Int>, key: Range<Int>, _ predicate: String
    ) {
        scan.reportKeyedWrite(
            notThisDeviceOnly, at: index, value: value, key: key, predicate,
            keyMessage: "A value under a secret-named key " + predicate)
    }

    /// The store name of a write inside `extension Keychain` (to `self`): any store made without an accessibility.
    static let anyStore = "*"

    /// The flags a file raises for a KeychainAccess store it makes under `name`, with or without an accessibility.
    static func storeFlag(_ name: String, configured: Bool) -> String {
        (configured ? "keychainAccessConfigured:" : "keychainAccessDefaulted:") + name
    }

    /// KeychainAccess's subscript, `keychain[key] = value`, on a store made without an accessibility; and the stores
    /// this file makes, for the files that write to them.
    func finish(_ scan: FileScan) {
        guard scan.file.language == .swift, scan.imports("KeychainAccess") else { return }
        Self.recordStores(scan)
        let tokens = scan.tokens
        for index in tokens.indices
        where tokens[index].kind == .identifier && scan.isSymbol(index + 1, "[")
            && SecretNames.words(tokens[index].text).contains("keychain")
        {
            let open = index + 1
            guard scan.file.partner[open] > open else { continue }
            let close = Int(scan.file.partner[open])
            guard scan.isSymbol(close + 1, "=") else { continue }
            let value = scan.flow.valueRange(from: close + 2, stopAtBrace: false)
            guard !value.isEmpty, !scan.isLiteral(value), scan.text(value.lowerBound) != "nil" else { continue }
            Self.keychainAccessWrite(scan, at: index, store: tokens[index].text, value: value, key: (open + 1)..<close)
        }
    }

    /// A write (`set(_:key:)` or the subscript) to the KeychainAccess store this file calls `store`: reported when
    /// the store is made here without an accessibility (`static let keychain = Keychain(service:)`), or, when it is
    /// made in another file the name is bound to (`let keychain = AppConstants.Keychain`, a computed property
    /// returning `Keychain(service:)`), once the project says that store is made so and no store of that name has an
    /// accessibility.
    static func keychainAccessWrite(
        _ scan: FileScan, at index: Int, store name: String, value: Range<Int>, key: Range<Int>
    ) {
        let direct = scan.keyedWriteMessage(
            notThisDeviceOnly, at: index, value: value, key: key, keychainAccessDefaulted,
            keyMessage: "A value under a secret-named key " + keychainAccessDefaulted)
        // A value that carries no secret of its own may be a Codable record that holds one, declared elsewhere,
        // or a parameter a caller gives a secret.
        let record = direct == nil ? scan.encodedRecord(in: value) : nil
        let through =
            direct == nil && record == nil ? scan.throughParameters(value: value, key: key, at: index) : nil
        guard
            let message = direct ?? record.map({ scan.recordMessage($0, keychainAccessDefaulted) })
                ?? through.map({ scan.parameterMessage($0.use, keychainAccessDefaulted) })
        else { return }
        recordStores(scan)
        // The store a Keychain extension writes to is the one it is called on: any the project makes with the
        // default, unless every store has an accessibility.
        if name == anyStore {
            scan.report(
                notThisDeviceOnly, at: index, message, if: storeFlag(anyStore, configured: false),
                and: through?.flag ?? record.map { CodableSecrets.flag($0.type) })
            return
        }
        let flags = scan.facts.flags
        let madeHere = { (store: String) in
            flags.contains(storeFlag(store, configured: false)) || flags.contains(storeFlag(store, configured: true))
        }
        let store =
            madeHere(name) ? name : scan.aliases[name].map { String($0.split(separator: ".").last ?? "") } ?? name
        if flags.contains(storeFlag(store, configured: true)) { return }
        let held = record.map { CodableSecrets.flag($0.type) } ?? through?.flag
        if madeHere(store) {
            if let held {
                scan.report(notThisDeviceOnly, at: index, message, if: held)
            } else {
                scan.report(notThisDeviceOnly, at: index, message)
            }
        } else {
            scan.report(
                notThisDeviceOnly, at: index, message, if: storeFlag(store, configured: false),
                and: held, unless: storeFlag(store, configured: true))
        }
    }

    /// Raises, once per file, the flags of the KeychainAccess stores the file makes: ``storeFlag(_:configured:)`` of
    /// each name a `Keychain(...)` is known by, configured when its chain names an accessibility.
    static func recordStores(_ scan: FileScan) {
        guard scan.once("keychainaccess-stores") else { return }
        let tokens = scan.tokens
        for index in tokens.indices
        where tokens[index].kind == .identifier && tokens[index].text == "Keychain" && scan.isSymbol(index + 1, "(") {
            let chain = scan.flow.valueRange(from: index, stopAtBrace: false)
            let configured = scan.any(in: chain) { tokens[$0].text == "accessibility" }
            for name in storeNames(scan, index) {
                scan.facts.flags.insert(storeFlag(name, configured: configured))
            }
            if !configured { scan.facts.flags.insert(storeFlag(anyStore, configured: false)) }
        }
    }

    /// The names a `Keychain(...)` store at `index` is known by: the variable it is bound to
    /// (`static let keychain = Keychain(service:)`), and the property whose getter returns it
    /// (`static var Keychain: KeychainAccess.Keychain { Keychain(service: id) }`).
    static func storeNames(_ scan: FileScan, _ index: Int) -> [String] {
        var names: [String] = []
        var start = index
        if scan.isSymbol(index - 1, "."), scan.text(index - 2) == "KeychainAccess" { start = index - 2 }
        if scan.isSymbol(start - 1, "="), start >= 2, scan.tokens[start - 2].kind == .identifier {
            if !scan.isSymbol(start - 3, ":") {
                // let keychain = Keychain(...) / mainKeychain = Keychain(...) in an initialiser (Element X)
                names.append(scan.tokens[start - 2].text)
            } else {
                // let keychain: Keychain = Keychain(...)
                for position in stride(from: start - 4, through: max(0, start - 6), by: -1)
                where scan.tokens[position].kind == .identifier && ["let", "var"].contains(scan.text(position - 1)) {
                    names.append(scan.tokens[position].text)
                    break
                }
            }
        }
        // The getter of a property typed as a KeychainAccess store.
        let open = Int(scan.file.enclosingBrace[index])
        if open > 0 {
            var position = open - 1
            var typed = false
            while position >= 0, open - position < 12 {
                if scan.text(position) == "Keychain" { typed = true }
                if scan.text(position) == "var", typed, position + 1 < open,
                    scan.tokens[position + 1].kind == .identifier
                {
                    names.append(scan.tokens[position + 1].text)
                    break
                }
                if scan.tokens[position].kind == .punctuation, ["{", "}", ";", ")"].contains(scan.text(position)) {
                    break
                }
                position -= 1
            }
        }
        return names
    }

    /// The `SecItemAdd` / `SecItemUpdate` calls later in the function that store the accessibility class at `index`:
    /// the call whose inline literal holds it, or the calls passed the query it is put in
    /// (`query[kSecAttrAccessible] = c`, `var query: [CFString: Any] = [..., kSecAttrAccessible: c]`,
    /// `[query setObject:c forKey:kSecAttrAccessible]`, `NSDictionary *query = @{...}`). A finding names them as
    /// related lines: the class is chosen on one line and takes effect where the item is written (WireGuard's
    /// configuration, ten lines apart).
    static func itemWrites(_ scan: FileScan, _ index: Int) -> [Int] {
        let writers: Set<String> = ["SecItemAdd", "SecItemUpdate"]
        // The value, past a bridging cast: `(__bridge id)kSecAttrAccessibleAfterFirstUnlock`.
        var start = index
        if scan.isSymbol(index - 1, ")"), scan.file.partner[index - 1] >= 0 {
            start = Int(scan.file.partner[index - 1])
        }
        var query: String?
        if scan.isSymbol(start - 1, "="), scan.isSymbol(start - 2, "]"),
            case let open = Int(scan.file.partner[start - 2]),
            open >= 1, scan.tokens[open - 1].kind == .identifier
        {
            query = scan.tokens[open - 1].text  // query[kSecAttrAccessible] = c
        } else if scan.isSymbol(start - 1, ":"), scan.text(start - 2) == "setObject",
            let message = scan.message(at: start - 2),
            let receiver = message.receiver.last(where: { scan.tokens[$0].kind == .identifier })
        {
            query = scan.tokens[receiver].text  // [query setObject:c forKey:kSecAttrAccessible]
        } else if let open = [
            scan.enclosingOpener(of: index, "[", limit: 256), scan.enclosingOpener(of: index, "{", limit: 256),
        ]
        .compactMap({ $0 }).max() {
            // An inline literal: SecItemAdd([...] as CFDictionary, nil) / SecItemAdd((__bridge CFDictionaryRef)@{...}).
            var call = scan.enclosingOpener(of: open, "(", limit: 16)
            while let paren = call, !writers.contains(scan.text(paren - 1)) {
                call = scan.enclosingOpener(of: paren, "(", limit: 16)
            }
            if let call { return [call - 1] }
            // let query = [...] / var items: [CFString: Any] = [...] / NSDictionary *query = @{...}
            var equals = open - 1
            if scan.text(equals) == "@" { equals -= 1 }
            guard scan.isSymbol(equals, "=") else { return [] }
            var position = equals - 1
            // The statement's own line: a name on an earlier line is another statement's.
            while position >= max(0, equals - 12), scan.tokens[position].line == scan.tokens[equals].line {
                if scan.tokens[position].kind == .identifier,
                    ["let", "var"].contains(scan.text(position - 1))
                        || scan.isSymbol(position - 1, "*") || position == equals - 1
                {
                    query = scan.tokens[position].text
                    if position != equals - 1 || !scan.isSymbol(position - 1, ":") { break }
                }
                position -= 1
            }
        }
        guard let query else { return [] }
        let scope = scan.scopeRange(of: index)
        var writes: [Int] = []
        for writer in writers {
            // An unbalanced file can give a scope that closes before `index`: then there is nothing after it.
            for position in scan.positions(of: writer, in: (index + 1)..<max(index + 1, scope.upperBound)) {
                guard let call = scan.file.call(at: position) else { continue }
                // SecItemUpdate's first argument is the search, its second what the item becomes.
                let stored =
                    writer == "SecItemUpdate" ? call.arguments.dropFirst().map(\.range) : call.arguments.map(\.range)
                if stored.contains(where: { range in
                    scan.positions(of: query, in: range).contains { !scan.isSymbol($0 - 1, ".") }
                }) {
                    writes.append(position)
                }
            }
        }
        return writes.sorted()
    }

    /// Whether the function around `index` handles certificates and nothing secret: it names `SecCertificate`
    /// (`SecCertificateCopyData`, `[SecCertificate]`) and no identity, private key, password or PKCS #12 bundle.
    /// A certificate chain is public material, which may follow the user to a new device (Home Assistant's
    /// intermediate certificates beside its client identity).
    static func storesCertificatesOnly(_ scan: FileScan, _ index: Int) -> Bool {
        let scope = scan.scopeRange(of: index)
        return scan.memo("certificates-only \(scope.lowerBound)") {
            var certificates = false
            for position in scope where scan.tokens[position].kind == .identifier {
                let text = scan.tokens[position].text
                if text.hasPrefix("SecCertificate") { certificates = true }
                if text.hasPrefix("SecIdentity") || text.hasPrefix("SecKey") || text == "kSecValueRef"
                    || SecretNames.isSecret(text) || FastText.contains(text, "p12", caseInsensitive: true)
                    || FastText.contains(text, "pkcs12", caseInsensitive: true)
                {
                    return false
                }
            }
            return certificates
        }
    }

    /// `.always` / `.whenUnlocked` only in a Keychain wrapper's accessibility context.
    static let synchronized =
        "A synchronizable Keychain item syncs through iCloud Keychain to every device of the account (and cannot be "
        + "ThisDeviceOnly)"

    /// An item stored synchronizable: `kSecAttrSynchronizable: kCFBooleanTrue` (or `true`, `@YES`) in a file that adds
    /// or updates items, KeychainAccess's `.synchronizable(true)`, or a wrapper switched to it before a write in the
    /// same function (KeychainSwift's or UICKeyChainStore's `keychain.synchronizable = true`). Synchronizable items
    /// travel to every device of the iCloud account, so they can never be ThisDeviceOnly.
    func synchronizable(_ scan: FileScan, _ index: Int) {
        let trueValues: Set<String> = ["true", "kCFBooleanTrue", "YES"]
        func isTrue(_ position: Int) -> Bool {
            var position = position
            if scan.text(position) == "@" { position += 1 }
            // (__bridge id)kCFBooleanTrue
            if scan.isSymbol(position, "("), scan.file.partner[position] > position {
                position = Int(scan.file.partner[position]) + 1
            }
            return trueValues.contains(scan.text(position))
        }
        if scan.tokens[index].text == "kSecAttrSynchronizable" {
            // kSecAttrSynchronizable as String: kCFBooleanTrue, query[kSecAttrSynchronizable] = true
            var position = index + 1
            if scan.text(position) == "as" { position += 2 }
            if scan.isSymbol(position, ")") || scan.isSymbol(position, "]") { position += 1 }
            guard scan.isSymbol(position, ":") || scan.isSymbol(position, "="), isTrue(position + 1) else { return }
            let stores = scan.memo("keychain-item-writes") {
                scan.tokens.contains {
                    $0.kind == .identifier && ($0.text == "SecItemAdd" || $0.text == "SecItemUpdate")
                }
            }
            if stores { scan.report(Self.notThisDeviceOnly, at: index, Self.synchronized) }
            return
        }
        guard scan.isSymbol(index - 1, ".") else { return }
        if scan.isSymbol(index + 1, "("), isTrue(index + 2), scan.isSymbol(index + 3, ")") {
            // Keychain(service: s).synchronizable(true)
            guard scan.file.language == .swift, scan.imports("KeychainAccess") else { return }
            scan.report(Self.notThisDeviceOnly, at: index, Self.synchronized)
            return
        }
        // keychain.synchronizable = true, then keychain.set(value, forKey: key) in the same function.
        guard scan.isSymbol(index + 1, "="), isTrue(index + 2), index >= 2,
            SecretNames.words(scan.text(index - 2)).contains("keychain")
        else { return }
        let owner = scan.tokens[index - 2].text
        // `static var keychain: KeychainSwift { KeychainSwift() }` makes a new store on every use: the switch is lost.
        guard !Self.isComputedProperty(scan, owner) else { return }
        let body = Int(scan.file.enclosingBrace[index])
        guard body >= 0, scan.file.partner[body] > body else { return }
        let writes: Set<String> = ["set", "setString", "setData"]
        let writesAfter = scan.any(in: (index + 3)..<Int(scan.file.partner[body])) { position in
            writes.contains(scan.tokens[position].text)
                && (scan.text(position - 2) == owner && scan.isSymbol(position - 1, ".")
                    || scan.text(position - 1) == owner && scan.isSymbol(position - 2, "["))
        }
        if writesAfter { scan.report(Self.notThisDeviceOnly, at: index, Self.synchronized) }
    }

    /// Whether the file declares `name` as a computed property (`var name: Type {`), whose every use is a new value.
    static func isComputedProperty(_ scan: FileScan, _ name: String) -> Bool {
        scan.memo("computed:" + name) {
            let tokens = scan.tokens
            for index in tokens.indices.dropFirst() where tokens[index].text == name && scan.text(index - 1) == "var" {
                guard scan.isSymbol(index + 1, ":") else { continue }
                var position = index + 2
                while position < tokens.count, position < index + 16, tokens[position].line == tokens[index].line {
                    if scan.isSymbol(position, "{") { return true }
                    if scan.isSymbol(position, "=") { break }
                    position += 1
                }
            }
            return false
        }
    }

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

    /// `SecItemAdd(query, nil)` where the query is a dictionary built in this function that never gets
    /// `kSecAttrAccessible` (nor access control, which carries its own class). A query made elsewhere is not
    /// judged.
    func itemAdd(_ scan: FileScan, _ index: Int) {
        guard let call = scan.file.call(at: index), let first = call.arguments.first?.range else { return }
        let scope = scan.scopeRange(of: index)
        // The dictionary: an inline literal, or the variable the first argument names.
        let inline = first.contains { scan.isSymbol($0, "[") || scan.text($0) == "@" && scan.isSymbol($0 + 1, "{") }
        var helper = index..<index
        if !inline {
            let ignored: Set<String> = ["CFDictionary", "CFDictionaryRef", "id", "__bridge"]
            guard
                let variable = first.first(where: {
                    scan.tokens[$0].kind == .identifier && !ignored.contains(scan.tokens[$0].text)
                }),
                let built = builtHere(scan, scan.tokens[variable].text, in: scope, before: index)
            else { return }
            helper = built
        }
        let sets: (Int) -> Bool = { position in
            let text = scan.tokens[position].text
            return scan.tokens[position].kind == .identifier
                && (text.hasPrefix("kSecAttrAccessible") || text == "kSecAttrAccessControl")
        }
        let configured =
            scan.memo("keychain-class \(scope.lowerBound)") { scan.any(in: scope, sets) }
            || (!helper.isEmpty
                && scan.memo("keychain-class-helper \(helper.lowerBound)") { scan.any(in: helper, sets) })
        if !configured { scan.report(Self.accessibilityMissing, at: index) }
    }

    /// Whether `name` is declared in `scope` before `index` as a dictionary literal (`[...]`, `@{...}`,
    /// `NSMutableDictionary`) or from a query-building function of this file (`var query = baseQuery(account: a)`);
    /// nil when it is not, else the body of that function (empty for a literal), whose keys count too.
    ///
    /// The first assignment to `name` in the scope decides; it is found once per scope and name (from the file's
    /// identifier positions), so many `SecItemAdd` calls in one function cost one lookup each, not a rescan.
    func builtHere(_ scan: FileScan, _ name: String, in scope: Range<Int>, before index: Int) -> Range<Int>? {
        guard
            let assignment = scan.memoRange(
                "keychain-query \(scope.lowerBound) \(name)",
                {
                    firstAssignment(scan, name, in: scope)
                }),
            assignment.upperBound < index
        else { return nil }
        let here = index..<index  // a literal: its keys are in this scope
        let next = assignment.upperBound + 1
        if scan.isSymbol(next, "[") {
            // [NSMutableDictionary dictionary] is a message, [kSecClass: ...] a literal.
            if scan.file.language == .objectiveC {
                let literal =
                    ["NSMutableDictionary", "NSDictionary"].contains(scan.text(next + 1))
                    || scan.isSymbol(next + 1, "[")
                return literal ? here : nil
            }
            return here
        }
        if scan.text(next) == "@", scan.isSymbol(next + 1, "{") { return here }
        if ["NSMutableDictionary", "NSDictionary", "Dictionary"].contains(scan.text(next)) { return here }
        // CFDictionaryCreate(NULL, keys, values, n, ...): its key array is a literal of this scope.
        if ["CFDictionaryCreate", "CFDictionaryCreateMutable"].contains(scan.text(next)) { return here }
        // var query = baseQuery(account: a) / self.baseQuery(...): a function of this file that builds queries.
        var callee = next
        if scan.text(callee) == "self", scan.isSymbol(callee + 1, ".") { callee += 2 }
        let name = scan.text(callee)
        if scan.isSymbol(callee + 1, "("), let body = functionBody(scan, named: name),
            scan.memo("keychain-builder \(name)", { scan.any(in: body) { scan.tokens[$0].text == "kSecClass" } })
        {
            return body
        }
        return nil
    }

    /// The first `name = ...` (or `let name: T = ...`, `T *name = ...`) of `scope`: from the name to its `=`.
    private func firstAssignment(_ scan: FileScan, _ name: String, in scope: Range<Int>) -> Range<Int>? {
        for position in scan.positions(of: name, in: scope) {
            let annotated = scan.isSymbol(position + 1, ":") && ["let", "var"].contains(scan.text(position - 1))
            guard scan.isSymbol(position + 1, "=") || annotated else { continue }
            // let query: [String: Any] = [ ... ]   /   NSMutableDictionary *query = [NSMutableDictionary dictionary];
            var cursor = position + 1
            let limit = min(scope.upperBound, position + 24)
            while cursor < limit, !scan.isSymbol(cursor, "=") { cursor += 1 }
            scan.spend(cursor - position)
            guard scan.isSymbol(cursor, "=") else { continue }
            return position..<cursor
        }
        return nil
    }

    /// The body of the function `name` declared in this file (`func name(`).
    func functionBody(_ scan: FileScan, named name: String) -> Range<Int>? {
        scan.memoRange("func \(name)") { findFunctionBody(scan, named: name) }
    }

    private func findFunctionBody(_ scan: FileScan, named name: String) -> Range<Int>? {
        // Names are looked up in the identifier index; a name the lexer reads as a keyword (`open`) is scanned for,
        // once per such name (memoised), so still linear.
        var candidates = Array(scan.positions(of: name, in: scan.tokens.indices))
        if candidates.isEmpty {
            candidates = scan.tokens.indices.filter { scan.tokens[$0].kind == .keyword && scan.tokens[$0].text == name }
            scan.spend(scan.tokens.count)
        }
        for nameIndex in candidates {
            let index = nameIndex - 1
            guard index >= 0, scan.tokens[index].kind == .keyword, scan.tokens[index].text == "func" else { continue }
            var position = index + 2
            while position < min(scan.tokens.count, index + 256), !scan.isSymbol(position, "{") {
                if scan.file.partner[position] > position { position = Int(scan.file.partner[position]) }
                position += 1
            }
            guard position < scan.tokens.count, scan.file.partner[position] > position else { return nil }
            return position..<Int(scan.file.partner[position])
        }
        return nil
    }
}
