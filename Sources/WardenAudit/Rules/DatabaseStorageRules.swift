/// Secrets written to databases: Core Data (`setValue(_:forKey:)` and managed-object properties), Realm,
/// YapDatabase, Couchbase Lite and SQLite (the C API, FMDB, GRDB, SQLite.swift), in Swift and Objective-C.
/// They report ``FileStorageRules/secretInFile``: a database is a file in the app container.
struct DatabaseStorageRules: Rule {
    var reports: [RuleInfo] { [] }

    static let keyedSetters: Set<String> = ["setValue", "setObject", "setString", "setData", "setBlob"]
    static let sqlCalls: Set<String> = [
        "executeUpdate", "execute", "executeStatements", "run", "sqlite3_exec", "sqlite3_prepare_v2", "prepare",
        "executeQuery", "insert", "update", "upsert",
    ]
    static let managedObjectMakers: Set<String> = [
        "insertNewObject", "insertNewObjectForEntityForName", "NSManagedObject", "context", "MutableDocument",
        "CBLMutableDocument",
    ]

    var triggers: Triggers {
        Triggers(
            identifiers: Self.keyedSetters.union(Self.sqlCalls).union(Self.managedObjectMakers).union([
                "sqlite3_bind_text", "sqlite3_bind_blob", "add", "addObject", "create", "createObject", "write",
                "saveDocument",
            ]), attributes: ["NSManaged"])
    }

    /// The flag a file raises for each secret-named Core Data attribute it declares.
    static func attributeFlag(_ name: String) -> String { "coreDataAttribute:" + name }

    func check(_ scan: FileScan, at index: Int) {
        let name = scan.tokens[index].text
        if scan.tokens[index].kind == .attribute {
            // @NSManaged public private(set) var userAccessToken: String
            var position = index + 1
            while position < min(index + 16, scan.tokens.count), scan.text(position) != "var" { position += 1 }
            if scan.text(position) == "var", position + 1 < scan.tokens.count,
                scan.tokens[position + 1].kind == .identifier, scan.isSecret(scan.tokens[position + 1].text)
            {
                scan.facts.flags.insert(Self.attributeFlag(scan.tokens[position + 1].text))
            }
            return
        }
        if scan.file.language == .objectiveC, !scan.isSymbol(index - 1, "."), scan.isSymbol(index + 1, ":") {
            objectiveC(scan, index)
            return
        }
        switch name {
        case "sqlite3_bind_text", "sqlite3_bind_blob":
            if let call = scan.file.call(at: index) { flag(scan, index, (call.open + 1)..<call.close, "SQLite") }
        case _ where Self.keyedSetters.contains(name):
            keyedSetter(scan, index)
        case _ where Self.sqlCalls.contains(name):
            sql(scan, index)
        case "add", "create", "write":
            realm(scan, index)
        case _ where Self.managedObjectMakers.contains(name):
            managedObject(scan, index)
        default:
            break
        }
    }

    /// Core Data attributes: a secret-named property declared `@NSManaged` (Swift) or `@dynamic` (Objective-C) is a
    /// column of the store's SQLite file, unencrypted. `object.name = value` of such a name, in a file that uses Core
    /// Data, is reported once some file of the project declares the attribute (an entity has its own file, and the
    /// object at hand is often the result of a generic fetch or insert whose type this file does not show).
    func finish(_ scan: FileScan) {
        let objectiveC = scan.file.language == .objectiveC
        let tokens = scan.tokens
        if objectiveC {
            // @dynamic password, token;
            for index in tokens.indices where tokens[index].kind == .keyword && tokens[index].text == "@dynamic" {
                var position = index + 1
                while position < tokens.count, !scan.isSymbol(position, ";"), position < index + 64 {
                    if tokens[position].kind == .identifier, scan.isSecret(tokens[position].text) {
                        scan.facts.flags.insert(Self.attributeFlag(tokens[position].text))
                    }
                    position += 1
                }
            }
        }
        guard scan.imports("CoreData") || objectiveC && scan.mentions("managed-object", ["NSManagedObject"])
        else { return }
        for index in tokens.indices
        where tokens[index].kind == .identifier && scan.isSymbol(index - 1, ".") && scan.isSymbol(index + 1, "=")
            && scan.isSecret(tokens[index].text)
        {
            let name = tokens[index].text
            // self.token = token in a struct's initialiser: a value type is never a managed object.
            if !objectiveC, scan.text(index - 2) == "self", scan.enclosingType(of: index)?.keyword == "struct" {
                continue
            }
            let value = scan.flow.valueRange(from: index + 2, stopAtBrace: false)
            guard !value.isEmpty, !scan.isLiteral(value), !scan.hashed(value),
                !(value.count == 1 && ["nil", "NULL"].contains(scan.text(value.lowerBound)))
            else { continue }
            let predicate = "is stored in the Core Data attribute '\(name)' (the store's SQLite file, unencrypted)"
            let message =
                scan.secret(in: value).map { scan.message($0, at: index, predicate) }
                ?? "'\(name)', a Core Data attribute, is stored in the store's SQLite file, unencrypted"
            scan.report(FileStorageRules.secretInFile, at: index, message, if: Self.attributeFlag(name))
        }
    }

    private func flag(_ scan: FileScan, _ index: Int, _ range: Range<Int>, _ store: String) {
        guard let origin = scan.secret(in: range), !scan.hashed(range) else { return }
        scan.report(FileStorageRules.secretInFile, at: index, scan.message(origin, at: index, "is stored in \(store)"))
    }

    /// `entity.setValue(token, forKey: "token")` (Core Data KVC), `transaction.setObject(_:forKey:inCollection:)`
    /// (YapDatabase), `document.setString(_:forKey:)` (Couchbase Lite). Preferences are another rule's.
    func keyedSetter(_ scan: FileScan, _ index: Int) {
        guard scan.isSymbol(index - 1, "."), let call = scan.file.call(at: index), let key = call.argument("forKey"),
            let value = call.arguments.first(where: { $0.label == nil })?.range, !scan.isLiteral(value)
        else { return }
        let receiver = scan.resolvedReceiver(of: index)
        if PreferencesRules.store(receiver) != nil { return }
        guard
            let store = keyedStore(
                scan, index, collection: call.argument("inCollection") != nil, receiver: receiver,
                owner: scan.file.receiver(of: index).last)
        else { return }
        scan.reportKeyedWrite(
            FileStorageRules.secretInFile, at: index, value: value, key: key, "is stored in \(store)",
            keyMessage: "A secret is stored in \(store) under a secret key")
    }

    /// The database a keyed setter at `index` writes to (Swift and Objective-C alike): YapDatabase with a
    /// collection, a Couchbase Lite document, Core Data for KVC on anything but a local dictionary (which only
    /// fills it; where it goes reports when it is written); nil for other receivers.
    private func keyedStore(
        _ scan: FileScan, _ index: Int, collection: Bool, receiver: [String], owner: String?
    ) -> String? {
        if collection { return "YapDatabase" }
        if isDocument(scan, index, receiver) { return "Couchbase Lite" }
        guard scan.tokens[index].text == "setValue" else { return nil }
        if let owner, isDictionary(scan, owner, before: index) { return nil }
        return "Core Data"
    }

    /// Whether `name` is declared in this function as a dictionary (`NSMutableDictionary()`, `[:]`,
    /// `[String: Any]`, `Dictionary`).
    private func isDictionary(_ scan: FileScan, _ name: String, before index: Int) -> Bool {
        let scope = scan.scopeRange(of: index)
        return scan.memo("dictionary \(scope.lowerBound) \(name)") {
            declaresDictionary(scan, name, in: scope, before: index)
        }
    }

    private func declaresDictionary(_ scan: FileScan, _ name: String, in scope: Range<Int>, before index: Int) -> Bool {
        let dictionaryTypes: Set<String> = ["NSMutableDictionary", "NSDictionary", "Dictionary"]
        for position in scan.positions(of: name, in: scope.lowerBound..<index) {
            // NSMutableDictionary *data = ...
            if scan.isSymbol(position - 1, "*"), scan.isSymbol(position + 1, "=") {
                return dictionaryTypes.contains(scan.text(position - 2))
            }
            guard ["let", "var"].contains(scan.text(position - 1)) else { continue }
            let declaration = scan.flow.valueRange(from: position + 1, stopAtBrace: false)
            return declaration.contains { dictionaryTypes.contains(scan.text($0)) }
                || (scan.isSymbol(position + 1, "=") && scan.isSymbol(position + 2, "[")
                    && (scan.isSymbol(position + 3, ":") || scan.isSymbol(position + 4, ":")))
                || (scan.isSymbol(position + 1, ":") && scan.isSymbol(position + 2, "["))
        }
        return false
    }

    /// A Couchbase Lite document: named so, or bound to `MutableDocument(...)`.
    private func isDocument(_ scan: FileScan, _ index: Int, _ receiver: [String]) -> Bool {
        guard let owner = receiver.last else { return false }
        let words = SecretNames.words(owner)
        if words.contains("doc") || words.contains("document") { return true }
        return documents(scan).contains(owner)
    }

    /// Whether `owner` is bound to a Couchbase Lite `MutableDocument` in this file.
    private func documents(_ scan: FileScan) -> Set<String> {
        guard scan.mentions("couchbase", ["MutableDocument", "CBLMutableDocument"]) else { return [] }
        var names = Set<String>()
        for index in scan.tokens.indices
        where ["MutableDocument", "CBLMutableDocument"].contains(scan.tokens[index].text) {
            if let name = declaredName(scan, before: index) { names.insert(name) }
        }
        return names
    }

    /// The variable a declaration or assignment binds, for a call starting at `index` on its right-hand side.
    private func declaredName(_ scan: FileScan, before index: Int) -> String? {
        var position = index - 1
        var steps = 0
        while position >= 0, steps < 24 {
            let token = scan.tokens[position]
            if token.isSymbol("=") {
                var name = position - 1
                if scan.isSymbol(name, "]") || scan.isSymbol(name, ">"), scan.file.partner[name] >= 0 {
                    name = Int(scan.file.partner[name]) - 1
                }
                // let user: User = ... / NSManagedObject *user = ...
                if scan.tokens.indices.contains(name), scan.tokens[name].kind == .identifier {
                    if scan.isSymbol(name - 1, ":"), scan.tokens.indices.contains(name - 2) { name -= 2 }
                    return scan.tokens[name].kind == .identifier ? scan.tokens[name].text : nil
                }
                return nil
            }
            if token.kind == .punctuation, [";", "{", "}"].contains(token.text) { return nil }
            position -= 1
            steps += 1
        }
        return nil
    }

    /// `User(context: ctx)`, `NSEntityDescription.insertNewObject(forEntityName:into:)`,
    /// `MutableDocument(data: [...])`: a model object whose secret properties, assigned later in the function,
    /// are persisted.
    func managedObject(_ scan: FileScan, _ index: Int) {
        let name = scan.tokens[index].text
        if name == "context" {
            // User(context: moc): a label of an initialiser call of a type, in a file that uses Core Data.
            guard scan.isSymbol(index + 1, ":"), scan.isSymbol(index - 1, "("),
                scan.text(index - 2).first?.isUppercase == true,
                scan.mentions(
                    "core-data",
                    [
                        "NSManagedObjectContext", "viewContext", "managedObjectContext", "NSPersistentContainer",
                        "newBackgroundContext", "NSManagedObject", "CoreData",
                    ]) || scan.imports("CoreData")
            else { return }
        }
        if name == "MutableDocument" || name == "CBLMutableDocument" {
            // MutableDocument(data: ["password": p]) / MutableDocument(id: id, data: dict)
            guard let call = scan.file.call(at: index), let data = call.argument("data") else { return }
            flag(scan, index, data, "Couchbase Lite")
            return
        }
        let start = name == "context" ? index - 2 : index
        guard let variable = declaredName(scan, before: start) else { return }
        let scope = scan.scopeRange(of: index)
        // Its uses up to the end of the scope or until the name is assigned again (another object from there on).
        for position in scan.positions(of: variable, in: (index + 1)..<scope.upperBound) {
            // `account = Account(...)` / `let account = other`: another object from here on. Not a property of the
            // same name (`self.account = account`), nor an unwrap of this one (`if let account = account`).
            let previous = scan.text(position - 1)
            if previous != ".", scan.isSymbol(position + 1, "="),
                !(["let", "var"].contains(previous) && scan.text(position + 2) == variable)
            {
                break
            }
            // variable.member = value
            if scan.isSymbol(position + 1, "."), position + 3 < scan.tokens.count,
                scan.tokens[position + 2].kind == .identifier, scan.isSymbol(position + 3, "=")
            {
                let member = position + 2
                let value = scan.flow.valueRange(from: position + 4, stopAtBrace: false)
                if !scan.isLiteral(value), !scan.hashed(value) {
                    if let origin = scan.secret(in: value) {
                        scan.report(
                            FileStorageRules.secretInFile, at: member,
                            scan.message(origin, at: member, "is stored in a Core Data entity"))
                    } else if scan.isSecret(scan.tokens[member].text) {
                        scan.report(
                            FileStorageRules.secretInFile, at: member,
                            "'\(scan.tokens[member].text)' of a Core Data entity is stored in cleartext")
                    }
                }
            }
        }
    }

    /// Realm: `realm.add(object)` / `realm.create(T.self, value: ...)` with a secret, and secret-named properties
    /// assigned inside `realm.write { }`. A Realm opened with an `encryptionKey` in this file is encrypted.
    func realm(_ scan: FileScan, _ index: Int) {
        guard scan.isSymbol(index - 1, "."),
            scan.resolvedReceiver(of: index).contains(where: { FastText.contains($0, "realm", caseInsensitive: true) }),
            !encrypted(scan, index)
        else { return }
        let name = scan.tokens[index].text
        if name == "write" {
            // try realm.write { user.password = p }
            var open = index + 1
            if scan.isSymbol(open, "("), scan.file.partner[open] > open { open = Int(scan.file.partner[open]) + 1 }
            guard scan.isSymbol(open, "{"), scan.file.partner[open] > open else { return }
            let body = open..<Int(scan.file.partner[open])
            // realm.add/create in the block reports the object it stores; updates of managed objects are these.
            if body.contains(where: { ["add", "create"].contains(scan.tokens[$0].text) && scan.isSymbol($0 + 1, "(") })
            {
                return
            }
            for position in body
            where scan.tokens[position].kind == .identifier && scan.isSymbol(position - 1, ".")
                && scan.isSymbol(position + 1, "=")
            {
                let value = scan.flow.valueRange(from: position + 2, stopAtBrace: false)
                guard !scan.isLiteral(value), !scan.hashed(value) else { continue }
                if let origin = scan.secret(in: value) ?? scan.secret(in: position..<(position + 1)) {
                    scan.report(
                        FileStorageRules.secretInFile, at: position,
                        scan.message(origin, at: position, "is stored in Realm"))
                }
            }
            return
        }
        guard let call = scan.file.call(at: index) else { return }
        flag(scan, index, (call.open + 1)..<call.close, "Realm")
    }

    /// A Realm opened in this function with an encryption key or an explicit configuration.
    private func encrypted(_ scan: FileScan, _ index: Int) -> Bool {
        let scope = scan.scopeRange(of: index)
        return scan.memo("realm-encryption \(scope.lowerBound)") {
            scan.any(in: scope) { ["encryptionKey", "configuration"].contains(scan.tokens[$0].text) }
        }
    }

    /// SQL that writes (`INSERT`, `UPDATE`, `REPLACE`) with a secret argument or interpolated secret; SQLite.swift
    /// setters (`password <- value`).
    func sql(_ scan: FileScan, _ index: Int) {
        guard let call = scan.file.call(at: index) else { return }
        let range = (call.open + 1)..<call.close
        let writes =
            range.contains { position in
                guard scan.tokens[position].kind == .string else { return false }
                let text = scan.tokens[position].text.drop { $0 == " " || $0 == "\n" }.prefix(7).uppercased()
                return text.hasPrefix("INSERT") || text.hasPrefix("UPDATE") || text.hasPrefix("REPLACE")
            }
            || range.contains { scan.tokens[$0].kind == .operator && scan.tokens[$0].text == "<-" }
        guard writes || ["executeUpdate", "sqlite3_exec"].contains(scan.tokens[index].text) else { return }
        flag(scan, index, range, "SQLite")
    }

    func objectiveC(_ scan: FileScan, _ index: Int) {
        guard let message = scan.message(at: index), message.parts.first?.index == index else { return }
        let receiver = message.receiver.filter { scan.tokens[$0].kind == .identifier }.map { scan.tokens[$0].text }
        switch scan.tokens[index].text {
        case "setValue", "setObject", "setString", "setData":
            guard let key = message.argument("forKey"), let value = message.parts.first?.argument,
                !scan.isLiteral(value), PreferencesRules.store(receiver) == nil, !receiver.contains("NSUserDefaults")
            else { return }
            guard
                let store = keyedStore(
                    scan, index, collection: message.argument("inCollection") != nil, receiver: receiver,
                    owner: receiver.last)
            else { return }
            scan.reportKeyedWrite(
                FileStorageRules.secretInFile, at: index, value: value, key: key, "is stored in \(store)",
                keyMessage: "A secret is stored in \(store) under a secret key")
        case "executeUpdate":
            let all = message.parts.reduce(into: [Int]()) { $0.append(contentsOf: $1.argument) }
            guard let first = all.first, let last = all.last else { return }
            let range = first..<(last + 1)
            let writes = range.contains { position in
                guard scan.tokens[position].kind == .string else { return false }
                let text = scan.tokens[position].text.drop { $0 == " " }.prefix(7).uppercased()
                return text.hasPrefix("INSERT") || text.hasPrefix("UPDATE") || text.hasPrefix("REPLACE")
            }
            if writes { flag(scan, index, range, "SQLite") }
        case "addObject", "addOrUpdateObject":
            guard receiver.contains(where: { FastText.contains($0, "realm", caseInsensitive: true) }),
                !encrypted(scan, index),
                let object = message.parts.first?.argument
            else { return }
            flag(scan, index, object, "Realm")
        case "insertNewObjectForEntityForName":
            managedObject(scan, index)
        default:
            break
        }
    }
}
