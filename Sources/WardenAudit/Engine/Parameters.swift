/// A Swift function declared in a file: its name, its body and its parameters, for the flow of arguments into
/// parameters across the project (``FileScan/argumentFlag(_:_:_:_:)``).
struct FunctionDeclaration: Sendable {
    let name: String
    /// The `{ ... }` of the body.
    let body: ClosedRange<Int>
    /// Each parameter's external label (nil for `_`), local name and declared type's first name, in order.
    let parameters: [(label: String?, local: String, type: String)]
    /// The names its type is known by, as qualifiers (``FileScan/typeQualifiers(of:)``).
    let qualifiers: [String]

    /// The argument slot a parameter fills: its label, or `#n` for the n-th unlabelled one (counted among the
    /// unlabelled only, so a defaulted labelled parameter a caller leaves out shifts nothing).
    static func slot(_ label: String?, _ unlabelled: Int) -> String { label ?? "#\(unlabelled)" }

    /// The slot of the parameter or argument at `index` of `labels`.
    static func slot(of index: Int, in labels: [String?]) -> String {
        slot(labels[index], labels[..<index].filter { $0 == nil }.count)
    }

    /// The slot of parameter `index`.
    func slot(_ index: Int) -> String { Self.slot(of: index, in: parameters.map(\.label)) }
}

/// A use of a function parameter in an expression: the flags a caller with a secret argument raises for it (one
/// per word its type is known by).
struct ParameterUse {
    let function: FunctionDeclaration
    let local: String
    let flags: [String]
    let kind: ArgumentKind
}

/// What a caller gives a parameter: a secret value, a secret-named key, or a URL the app was opened with.
enum ArgumentKind: String, Sendable, CaseIterable {
    case secret = "argument"
    case key = "argumentKey"
    case openedURL = "argumentURL"
}

extension FileScan {
    /// The flag a call of a function `name` raises when it passes an argument of `kind` in `slot`
    /// (``FunctionDeclaration/slot``), or passes on a parameter of its own whose flag is raised. A write, log or store
    /// inside `name` of that parameter waits on it: the secret is named by a caller, in this file or another.
    ///
    /// Functions are told apart by name, slot and `qualifier`, the type a call reaches (``callQualifiers(_:)``:
    /// `DeepLUserAPIHandler.write(value:)` → `deepluserapihandler`, `widgetKeychain.setKey` → `keychain` among its
    /// word-suffixes; a call without a receiver, the caller's own type): a secret given to
    /// `keychainManager.save(value:)` is not given to a `SettingsManager.save(value:)`.
    static func argumentFlag(_ kind: ArgumentKind, _ qualifier: String, _ name: String, _ slot: String) -> String {
        kind.rawValue + ":" + qualifier + "." + name + ":" + slot
    }

    /// The flag a project raises when the URLs it is opened with carry a secret: it compares a query item of one
    /// with a secret (`$0.name == "auth" && $0.value == settings.widgetToken`).
    static let incomingURLFlag = "incomingURLCarriesSecret"

    /// Each name the type around `index` is known by, as a qualifier (``qualifier(_:)``): its own
    /// (`IncomingURLHandler` → `incomingurlhandler`) and those it conforms to (`extension Keychain:
    /// ServerManagerKeychain` → `keychain`, `servermanagerkeychain`); `[""]` outside a type.
    func typeQualifiers(of index: Int) -> [String] {
        var open = index >= 0 && index < tokens.count ? Int(file.enclosingBrace[index]) : -1
        var visited: [Int32] = []
        var result = [""]
        while open >= 0 {
            spend(1)
            if let known = typeQualifierMemo[Int32(open)] {
                result = known
                break
            }
            visited.append(Int32(open))
            if isTypeBody(open), let names = typeHeaderNames(open) {
                var unique: [String] = []
                for name in names.map(Self.qualifier) where !name.isEmpty && !unique.contains(name) {
                    unique.append(name)
                }
                if !unique.isEmpty { result = unique }
                break
            }
            open = Int(file.enclosingBrace[open])
        }
        for brace in visited { typeQualifierMemo[brace] = result }
        return result
    }

    /// A type name as a qualifier: its words, lowercased and joined (`KeychainManager` → `keychainmanager`).
    static func qualifier(_ name: String) -> String { SecretNames.words(name).joined() }

    /// The type name and conformances of the type declaration whose body opens at `open`.
    private func typeHeaderNames(_ open: Int) -> [String]? {
        var position = open - 1
        var names: [String] = []
        var expectName = true
        while position >= 0, open - position < 128 {
            let token = tokens[position]
            if token.kind == .keyword,
                ["class", "struct", "enum", "extension", "protocol", "actor"].contains(token.text)
            {
                let name = text(position + 1)
                return [name] + names.reversed()
            }
            if token.kind == .keyword, token.text == "where" {
                names = []
                expectName = true
            }
            if token.isSymbol(",") { expectName = true }
            if token.kind == .identifier, !isSymbol(position - 1, "."), expectName || isSymbol(position + 1, "{") {
                names.append(token.text)
                expectName = false
            }
            position -= 1
        }
        return nil
    }

    /// The qualifiers a call at `callee` may reach (``argumentFlag(_:_:_:_:)``): a type named as the receiver
    /// (`DeepLUserAPIHandler.write` → `deepluserapihandler`), each word-suffix of an instance's name
    /// (`Env.widgetKeychain.setKey` → `widgetkeychain`, `keychain`, over `shared`/`default`/`current`), or the
    /// caller's own type and what it conforms to, for a call without a receiver.
    func callQualifiers(_ callee: Int) -> [String] {
        guard isSymbol(callee - 1, ".") else { return typeQualifiers(of: callee) }
        let skipped: Set<String> = ["shared", "default", "standard", "current", "instance", "sharedInstance", "main"]
        let chain = file.receiver(of: callee).filter { !skipped.contains($0) }
        guard let last = chain.last, last != "self", last != "Self" else { return typeQualifiers(of: callee) }
        if last.first?.isUppercase == true { return [Self.qualifier(last)] }
        let words = SecretNames.words(last)
        return words.indices.map { words[$0...].joined() }
    }

    /// The Swift functions of the file, by the position of their body's `{` (``functionDeclarations``).
    static func parseFunctions(_ scan: FileScan) -> [Int32: FunctionDeclaration] {
        guard scan.file.language == .swift, let keyword = scan.file.names.name(of: "func") else { return [:] }
        let tokens = scan.tokens
        let partner = scan.file.partner
        var result: [Int32: FunctionDeclaration] = [:]
        for index in tokens.indices where tokens[index].name == keyword && tokens[index].kind == .keyword {
            guard index + 2 < tokens.count, tokens[index + 1].kind == .identifier else { continue }
            // `func name<T: P>(`: the parameter list is the first `(` after the name.
            var open = index + 2
            while open < tokens.count, open - index < 40, !tokens[open].isSymbol("(") {
                if tokens[open].isSymbol("{") || tokens[open].isSymbol("}") { break }
                open += 1
            }
            guard open < tokens.count, tokens[open].isSymbol("("), partner[open] > open else { continue }
            let close = Int(partner[open])
            var parameters: [(label: String?, local: String, type: String)] = []
            var start = open + 1
            var position = open + 1
            var angles = 0
            func finish(_ end: Int) {
                var head: [String] = []
                var cursor = start
                while cursor < end, !tokens[cursor].isSymbol(":") {
                    if tokens[cursor].kind == .identifier || tokens[cursor].kind == .keyword {
                        head.append(tokens[cursor].text)
                    }
                    cursor += 1
                }
                guard cursor < end else { return }
                var type = cursor + 1
                while type < end, tokens[type].kind == .attribute || tokens[type].text == "inout" { type += 1 }
                let typeName = type < end ? tokens[type].text : ""
                if head.count == 1 {
                    parameters.append((head[0], head[0], typeName))
                } else if head.count == 2 {
                    parameters.append((head[0] == "_" ? nil : head[0], head[1], typeName))
                }
            }
            while position < close {
                if partner[position] > position {
                    position = Int(partner[position]) + 1
                    continue
                }
                // `Dictionary<String, Int>`: a comma inside a generic argument list splits no parameter.
                if tokens[position].kind == .operator || tokens[position].kind == .punctuation {
                    let text = tokens[position].text
                    if text == "<" { angles += 1 } else if text == ">" { angles = max(0, angles - 1) }
                }
                if angles == 0, tokens[position].isSymbol(",") {
                    finish(position)
                    start = position + 1
                }
                position += 1
            }
            if close > open + 1 { finish(close) }
            // The body: the first `{` after the list, over `throws -> [String: Int] where T: P`; a requirement
            // without one (a protocol's) ends at the next declaration.
            var cursor = close + 1
            while cursor < tokens.count, cursor - close < 128 {
                let token = tokens[cursor]
                if token.kind == .punctuation, token.text == "(" || token.text == "[", partner[cursor] > cursor {
                    cursor = Int(partner[cursor]) + 1
                    continue
                }
                if token.isSymbol("{") || token.isSymbol("}") || token.isSymbol(";") { break }
                if token.kind == .keyword, ["func", "var", "let", "init", "case", "subscript"].contains(token.text) {
                    break
                }
                cursor += 1
            }
            guard cursor < tokens.count, tokens[cursor].isSymbol("{"), partner[cursor] > cursor else { continue }
            // `func f<T: SignedNumeric>(value: T)`: a number, whatever T is.
            let numeric = (index + 2..<open).contains {
                ["Numeric", "SignedNumeric", "BinaryInteger", "FloatingPoint"].contains(tokens[$0].text)
            }
            parameters = parameters.map { parameter in
                numeric && parameter.type.count == 1 ? (parameter.label, parameter.local, "Int") : parameter
            }
            result[Int32(cursor)] = FunctionDeclaration(
                name: tokens[index + 1].text, body: cursor...Int(partner[cursor]), parameters: parameters,
                qualifiers: scan.typeQualifiers(of: index))
        }
        return result
    }

    /// The innermost Swift function whose body holds `index` (closures inside it included).
    /// Each brace visited on the way up remembers the answer, so deeply nested closures cost a walk once.
    func innermostFunction(of index: Int) -> FunctionDeclaration? {
        guard !functionDeclarations.isEmpty, index >= 0, index < tokens.count else { return nil }
        var open = Int(file.enclosingBrace[index])
        var visited: [Int32] = []
        var found: Int32 = -1
        while open >= 0 {
            spend(1)
            if let known = innermostFunctionMemo[Int32(open)] {
                found = known
                break
            }
            if functionDeclarations[Int32(open)] != nil {
                found = Int32(open)
                break
            }
            visited.append(Int32(open))
            open = Int(file.enclosingBrace[open])
        }
        for brace in visited { innermostFunctionMemo[brace] = found }
        return found >= 0 ? functionDeclarations[found] : nil
    }

    /// Whether `name` is bound anew in `function` before `index` (`let value = ...`, `if let value`, a closure's
    /// `value in`): the use is not the parameter any more.
    func rebound(_ name: String, in function: FunctionDeclaration, before index: Int) -> Bool {
        for position in positions(of: name, in: function.body.lowerBound..<index) {
            let before = text(position - 1)
            if before == "let" || before == "var" || text(position + 1) == "in"
                || (isSymbol(position - 1, "(") && isSymbol(position + 1, ")") && text(position + 2) == "in")
            {
                return true
            }
        }
        return false
    }

    /// Declared parameter types whose values are never secrets.
    static let plainParameterTypes: Set<String> = PreferencesRules.plainTypes.union([
        "Int64", "Int32", "UInt", "UInt64",
    ])

    /// The parameters of the enclosing function that `range` stores or prints as they are (`value`,
    /// `secKey.data`, `"\(url)"`), each with the flags of `kind` its callers raise: none when no parameter is used
    /// so, or the file is not Swift. A parameter only tested (`value.isEmpty`, `value == nil`) or called is not the
    /// value, and a `Bool` or a number is no secret.
    func parameterUses(in range: Range<Int>, _ kind: ArgumentKind) -> [ParameterUse] {
        if file.language == .objectiveC {
            return kind == .openedURL && file.names.name(of: "openURL") != nil ? openedURLUses(in: range) : []
        }
        // Most files take no URL: a log of one of their parameters waits on nothing.
        if kind == .openedURL, !hasURLParameters { return [] }
        guard !range.isEmpty, let function = innermostFunction(of: range.lowerBound), !function.parameters.isEmpty
        else { return [] }
        var uses: [ParameterUse] = []
        let tests: Set<String> = ["isEmpty", "count", "hashValue", "hash", "description", "debugDescription"]
        let comparisons = ["==", "!=", "===", "!==", "<", ">"]
        for position in range where tokens[position].kind == .identifier && !isSymbol(position - 1, ".") {
            guard
                let slot = function.parameters.indices.first(where: {
                    function.parameters[$0].local == tokens[position].text
                }),
                !Self.plainParameterTypes.contains(function.parameters[slot].type),
                !uses.contains(where: { $0.local == tokens[position].text })
            else { continue }
            if isSymbol(position + 1, "(") || isSymbol(position + 1, ":")
                || comparisons.contains(where: { isSymbol(position + 1, $0) || isSymbol(position - 1, $0) })
                || (isSymbol(position + 1, ".") && tests.contains(text(position + 2)))
                || (kind == .openedURL && isSymbol(position + 1, ".") && !Self.wholeURL.contains(text(position + 2)))
                || rebound(tokens[position].text, in: function, before: position)
            {
                continue
            }
            let parameter = function.parameters[slot]
            if kind == .openedURL, !Self.urlParameterTypes.contains(parameter.type) { continue }
            if kind == .key, parameter.type != "String" { continue }
            let flags: [String]
            if function.name == "application", parameter.label == "open" {
                // application(_:open:options:): the URL the app is opened with.
                guard kind == .openedURL else { continue }
                flags = [Self.incomingURLFlag]
            } else {
                let name = function.slot(slot)
                flags = function.qualifiers.map { Self.argumentFlag(kind, $0, function.name, name) }
            }
            uses.append(ParameterUse(function: function, local: parameter.local, flags: flags, kind: kind))
        }
        return uses
    }

    /// Declared types of a URL the app is opened with, as a parameter carries it on.
    static let urlParameterTypes: Set<String> = ["URL", "NSURL", "URLComponents"]

    /// The members of a URL that carry its query: `url.host` or `url.scheme` logged is not the secret in it.
    static let wholeURL: Set<String> = ["absoluteString", "query", "description", "absoluteURL", "relativeString"]

    /// Objective-C: the URL parameter of `application:openURL:options:` (`- (BOOL)application:(UIApplication *)app
    /// openURL:(NSURL *)url options:...`) that `range` logs as it is (`url`, `url.absoluteString`).
    func openedURLUses(in range: Range<Int>) -> [ParameterUse] {
        guard !range.isEmpty else { return [] }
        var open = Int(file.enclosingBrace[range.lowerBound])
        while open >= 0, file.enclosingBrace[open] >= 0 { open = Int(file.enclosingBrace[open]) }
        guard open > 0 else { return [] }
        var position = open - 1
        var name: String?
        while position >= 0, open - position < 64, !isSymbol(position, "}"), !isSymbol(position, ";") {
            if text(position) == "openURL", isSymbol(position + 1, ":"), isSymbol(position + 2, "("),
                file.partner[position + 2] > position + 2
            {
                let close = Int(file.partner[position + 2])
                if close + 1 < tokens.count, tokens[close + 1].kind == .identifier { name = tokens[close + 1].text }
            }
            if isSymbol(position, "-") || isSymbol(position, "+") { break }
            position -= 1
        }
        // - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url ...: the app delegate's, not any openURL:.
        guard let name, isSymbol(position, "-"),
            (position..<open).contains(where: { text($0) == "application" && isSymbol($0 + 1, ":") }),
            (position..<open).contains(where: { text($0) == "UIApplication" })
        else { return [] }
        let used = range.contains { index in
            tokens[index].kind == .identifier && tokens[index].text == name && !isSymbol(index - 1, "[")
                && (!isSymbol(index + 1, ".") || Self.wholeURL.contains(text(index + 2)))
        }
        guard used else { return [] }
        let method = FunctionDeclaration(
            name: "application", body: open...max(open, Int(file.partner[open])),
            parameters: [(nil, "application", "UIApplication"), ("openURL", name, "NSURL")], qualifiers: [""])
        return [ParameterUse(function: method, local: name, flags: [Self.incomingURLFlag], kind: .openedURL)]
    }

    /// The flag a write of `value` under `key` (or a log of `value`, as `kind`) waits on when the secret comes from
    /// the enclosing function's callers: raised when any flag of its parameter uses is. Nil when none is used.
    func throughParameters(
        value: Range<Int>, key: Range<Int>?, at index: Int, _ kind: ArgumentKind = .secret
    ) -> (flag: String, use: ParameterUse)? {
        // set(newValue, forKey: key) in a function taking `newValue: Bool`: a flag is no secret, whatever its key.
        if value.count == 1, let function = innermostFunction(of: value.lowerBound),
            let parameter = function.parameters.first(where: { $0.local == text(value.lowerBound) }),
            Self.plainParameterTypes.contains(parameter.type)
        {
            return nil
        }
        let uses = parameterUses(in: value, kind) + (key.map { parameterUses(in: $0, .key) } ?? [])
        guard var first = uses.first else { return nil }
        if uses.count > 1 {
            // set(secKey.data, key: key): either the value or the key may be what a caller makes secret.
            let locals = uses.map(\.local).joined(separator: "' or '")
            first = ParameterUse(function: first.function, local: locals, flags: first.flags, kind: first.kind)
        }
        let flags = uses.flatMap(\.flags)
        if flags.count == 1 { return (flags[0], first) }
        let flag = "sink:" + file.path + ":\(index)"
        for source in flags { facts.implications.append((flag, source)) }
        return (flag, first)
    }

    /// `"'value', which a caller of write(value:) gives a secret, <predicate>"`.
    func parameterMessage(_ use: ParameterUse, _ predicate: String) -> String {
        let labels = use.function.parameters.map { ($0.label ?? "_") + ":" }.joined()
        if use.flags == [Self.incomingURLFlag] {
            return "'\(use.local)', a URL the app is opened with (the project's links carry a secret), " + predicate
        }
        let given = use.kind == .openedURL ? "a URL the app is opened with (its links carry a secret)" : "a secret"
        return "'\(use.local)', which a caller of \(use.function.name)(\(labels)) gives \(given), " + predicate
    }
}
