/// Where a Swift file passes a secret to a function, for the writes, logs and stores inside the functions that
/// receive it, in this file or another (``FileScan/parameterUses(in:_:)``): a write of a parameter waits on the flag
/// of that parameter (``FileScan/argumentFlag(_:_:_:_:)``), and this family raises it.
///
/// A call raises a function's argument flag when the argument is a secret (a secret-named value, a constant bound
/// to a secret-named literal, an encoded record whose type holds a secret, once the project says so), and implies
/// it from its own parameter's flag when it passes that parameter on as it is, so that a secret named two calls
/// away still reaches the write. An app's URL handler passes on a URL it was opened with
/// (``FileScan/incomingURLFlag``): the project raises that flag when it checks a secret in such a URL's query.
/// Functions are matched by name, slot and the type a call reaches (``FileScan/callQualifiers(_:)``), not by
/// the types of their parameters: overloads of one name in one type share their flags.
struct ArgumentFlow: Rule {
    var reports: [RuleInfo] { [] }

    func finish(_ scan: FileScan) {
        // What a test passes proves nothing about the app: test code raises no flag.
        guard !TestCode.isTestPath(scan.file.path), !TestCode.importsTestFramework(scan) else { return }
        let tokens = scan.tokens
        guard scan.file.language == .swift else {
            // Objective-C: only the check of a secret in an opened URL's query.
            if let value = scan.file.names.name(of: "value") {
                for index in tokens.indices where tokens[index].name == value { checksIncomingSecret(scan, at: index) }
            }
            return
        }
        let names = scan.file.names
        var secretName = [Int8](repeating: -1, count: names.count)
        let encode = names.name(of: "encode")
        let onOpenURL = names.name(of: "onOpenURL")
        let value = names.name(of: "value")
        let constants = scan.secretLiteralNames
        var seen = Set<Int>()
        let hasParameters = scan.functionDeclarations.values.contains { !$0.parameters.isEmpty }
        for index in tokens.indices {
            let token = tokens[index]
            if token.kind == .identifier {
                let name = Int(token.name)
                if secretName[name] < 0 {
                    secretName[name] = scan.isSecret(token.text) || constants.contains(token.name) ? 1 : 0
                }
                if secretName[name] == 1 {
                    secretArgument(scan, at: index, &seen)
                } else if token.name == encode, scan.isSymbol(index + 1, "(") {
                    encodedArgument(scan, at: index)
                } else if token.name == onOpenURL {
                    openedWith(scan, at: index)
                } else if token.name == value {
                    checksIncomingSecret(scan, at: index)
                }
                if hasParameters, Self.isBareArgument(scan, index) { passedOnParameter(scan, at: index) }
            } else if token.kind == .string, !token.isInterpolated, token.text.utf8.count <= 64,
                scan.isSymbol(index - 1, "(") || scan.isSymbol(index - 1, ",") || scan.isSymbol(index - 1, ":"),
                !FastText.contains(token.text, " "), SecretNames.isSecret(token.text)
            {
                // A key literal in an argument (not cached by name: literals rarely repeat, names do).
                secretArgument(scan, at: index, &seen)
            }
        }
    }

    /// The kinds a parameter of `type` can carry on: a key is a `String`, an opened URL a URL.
    static func kinds(of type: String) -> [ArgumentKind] {
        if FileScan.urlParameterTypes.contains(type) { return [.secret, .openedURL] }
        return type == "String" ? [.secret, .key] : [.secret]
    }

    /// A bare argument (`write(value: value)`) that is a parameter of the enclosing function: the callee's flags follow
    /// the caller's own, under each word the caller's type is known by.
    func passedOnParameter(_ scan: FileScan, at position: Int) {
        guard let function = scan.innermostFunction(of: position),
            let slot = function.parameters.firstIndex(where: { $0.local == scan.tokens[position].text })
        else { return }
        let parameter = function.parameters[slot]
        guard !FileScan.plainParameterTypes.contains(parameter.type) else { return }
        if function.name == "application", parameter.label == "open" {
            passedOn(scan, at: position, kinds: [.openedURL], from: { _ in FileScan.incomingURLFlag })
            return
        }
        let name = function.slot(slot)
        for qualifier in function.qualifiers {
            passedOn(scan, at: position, kinds: Self.kinds(of: parameter.type)) { kind in
                FileScan.argumentFlag(kind, qualifier, function.name, name)
            }
        }
    }

    /// Whether the identifier at `position` is a whole argument (`f(x)`, `f(a, label: x!)`), by its neighbours.
    static func isBareArgument(_ scan: FileScan, _ position: Int) -> Bool {
        let tokens = scan.tokens
        // The first byte of a punctuation or operator token (0 otherwise): no String comparison per identifier.
        func symbol(_ index: Int) -> UInt8 {
            guard index >= 0, index < tokens.count,
                tokens[index].kind == .punctuation || tokens[index].kind == .operator
            else { return 0 }
            let text = tokens[index].text.utf8
            return text.count == 1 ? text.first ?? 0 : 0
        }
        let close = UInt8(ascii: ")")
        let comma = UInt8(ascii: ",")
        var after = symbol(position + 1)
        if after == UInt8(ascii: "!") || after == UInt8(ascii: "?") { after = symbol(position + 2) }
        guard after == close || after == comma else { return false }
        let before = symbol(position - 1)
        if before == UInt8(ascii: "(") || before == comma { return true }
        guard before == UInt8(ascii: ":") else { return false }
        let head = symbol(position - 3)
        return head == UInt8(ascii: "(") || head == comma
    }

    /// The call argument the token at `position` is in: the callee's name, the slot and the argument's tokens.
    static func argument(_ scan: FileScan, at position: Int) -> (
        name: String, qualifiers: [String], slot: String, range: Range<Int>
    )? {
        guard let open = opener(scan, of: position), open > 0 else { return nil }
        let callee = open - 1
        // A declaration's parameter list is not a call; `URLQueryItem(name:value:)` makes a value (an initialiser,
        // whose parameters no function declaration of the app has).
        guard scan.tokens[callee].kind == .identifier, scan.text(callee - 1) != "func",
            scan.tokens[callee].text.utf8.first.map({ !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) ?? false,
            let call = scan.file.call(at: callee),
            let slot = call.arguments.firstIndex(where: { $0.range.contains(position) })
        else { return nil }
        let argument = call.arguments[slot]
        let slotName = FunctionDeclaration.slot(of: slot, in: call.arguments.map(\.label))
        return (call.name, scan.callQualifiers(callee), slotName, argument.range)
    }

    /// The `(` of the call whose argument list holds `position`: back over balanced brackets, at most 48 tokens,
    /// and not past the start of a statement or an array literal.
    static func opener(_ scan: FileScan, of position: Int) -> Int? {
        var cursor = position - 1
        let partner = scan.file.partner
        while cursor >= 0, position - cursor < 48 {
            let token = scan.tokens[cursor]
            if token.kind == .punctuation {
                switch token.text {
                case ")", "]":
                    let open = Int(partner[cursor])
                    guard open >= 0, open < cursor else { return nil }
                    cursor = open - 1
                    continue
                case "(": return partner[cursor] > position ? cursor : nil
                case "[", "{", "}", ";": return nil
                default: break
                }
            }
            cursor -= 1
        }
        return nil
    }

    /// A secret-named value (or a secret-named key literal) in a call's argument: the callee's flag for that slot.
    func secretArgument(_ scan: FileScan, at position: Int, _ seen: inout Set<Int>) {
        guard !scan.isDebugOnly(position), let argument = Self.argument(scan, at: position),
            seen.insert(argument.range.lowerBound).inserted
        else { return }
        let range = argument.range
        // `key: .searchPasswords`: an enum case names a setting, it holds no secret. A log call is judged where it is.
        guard !scan.isImplicitMember(range.lowerBound + 1) || !scan.isSymbol(range.lowerBound, "."),
            !Self.sinksJudgedInPlace.contains(argument.name)
        else { return }
        if scan.secret(in: range) != nil, !scan.hashed(range) {
            for qualifier in argument.qualifiers {
                scan.facts.flags.insert(FileScan.argumentFlag(.secret, qualifier, argument.name, argument.slot))
            }
        }
        // A key is secret by what it spells: a secret-named literal, or a constant bound to one.
        let spelled =
            range.contains { scan.tokens[$0].kind == .string && scan.isSecret(scan.tokens[$0].text) }
            || range.last.map { scan.secretLiteralNames.contains(scan.tokens[$0].name) } ?? false
        if spelled, scan.secretKey(in: range) {
            for qualifier in argument.qualifiers {
                scan.facts.flags.insert(FileScan.argumentFlag(.key, qualifier, argument.name, argument.slot))
            }
        }
    }

    /// Calls whose arguments the rules judge at the call (the logging functions, the writes of the libraries): no
    /// function of the app receives them.
    static let sinksJudgedInPlace: Set<String> = LoggingRule.functions.union(LoggingRule.lumberjack).union(
        LoggingRule.loggerMethods
    ).union(["setObject", "setValue", "setString", "setData", "append", "insert", "contains"])

    /// `set(encoder.encode(info), key: k)`: the callee's flag once the project says the record's type holds a secret.
    func encodedArgument(_ scan: FileScan, at position: Int) {
        guard let argument = Self.argument(scan, at: position), let record = scan.encodedRecord(in: argument.range)
        else { return }
        for qualifier in argument.qualifiers {
            scan.facts.implications.append(
                (
                    FileScan.argumentFlag(.secret, qualifier, argument.name, argument.slot),
                    CodableSecrets.flag(record.type)
                ))
        }
    }

    /// A parameter passed on as it is (`write(value: value)`, `handle(url: url!)`): the callee's flag follows its own.
    func passedOn(
        _ scan: FileScan, at position: Int, kinds: [ArgumentKind], from flag: (ArgumentKind) -> String
    ) {
        guard !scan.isSymbol(position - 1, "."), let argument = Self.argument(scan, at: position),
            !Self.sinksJudgedInPlace.contains(argument.name)
        else { return }
        var end = position + 1
        if scan.isSymbol(end, "!") || scan.isSymbol(end, "?") { end += 1 }
        guard argument.range == position..<end else { return }
        for kind in kinds {
            let from = flag(kind)
            for qualifier in argument.qualifiers {
                let to = FileScan.argumentFlag(kind, qualifier, argument.name, argument.slot)
                if to != from { scan.facts.implications.append((to, from)) }
            }
        }
    }

    /// `.onOpenURL { handle(url: $0) }`: the URL the app is opened with, passed on.
    func openedWith(_ scan: FileScan, at index: Int) {
        var open = index + 1
        if scan.isSymbol(open, "("), scan.text(open + 1) == "perform", scan.isSymbol(open + 2, ":") { open += 3 }
        guard scan.isSymbol(open, "{"), scan.file.partner[open] > open else { return }
        let close = Int(scan.file.partner[open])
        // `{ url in ... }` / `{ (url) in ... }` / `{ ... $0 ... }`.
        var name = "$0"
        if scan.tokens.indices.contains(open + 2), scan.tokens[open + 1].kind == .identifier,
            scan.text(open + 2) == "in"
        {
            name = scan.text(open + 1)
        } else if scan.isSymbol(open + 1, "("), scan.isSymbol(open + 3, ")"), scan.text(open + 4) == "in" {
            name = scan.text(open + 2)
        }
        // `$0` of this closure, not of one nested in it (`urls.forEach { history.record(page: $0) }`).
        for position in (open + 1)..<close
        where scan.tokens[position].kind == .identifier && scan.text(position) == name
            && (name != "$0" || Int(scan.file.enclosingBrace[position]) == open)
        {
            passedOn(scan, at: position, kinds: [.openedURL], from: { _ in FileScan.incomingURLFlag })
        }
    }

    /// `queryItems?.first(where: { $0.name == key && $0.value == settings.widgetToken })`: the app checks a secret
    /// carried by a URL's query, so the URLs it is opened with carry one (``FileScan/incomingURLFlag``).
    func checksIncomingSecret(_ scan: FileScan, at index: Int) {
        // `$0.value == secret`, `[item.value isEqualToString:secret]`.
        let compared =
            scan.isSymbol(index + 1, "==")
            || (scan.text(index + 1) == "isEqualToString" && scan.isSymbol(index + 2, ":"))
        guard scan.isSymbol(index - 1, "."), compared, let items = scan.file.names.name(of: "queryItems"),
            (max(0, index - 60)..<index).contains(where: { scan.tokens[$0].name == items })
        else { return }
        var position = index + (scan.isSymbol(index + 1, "==") ? 2 : 3)
        while position < scan.tokens.count, position - index < 16 {
            let token = scan.tokens[position]
            if token.kind == .operator, token.text == "&&" || token.text == "||" { break }
            if token.kind == .punctuation, [")", "}", ",", "]", ";"].contains(token.text) { break }
            if token.kind == .identifier, scan.isSecret(token.text) {
                scan.facts.flags.insert(FileScan.incomingURLFlag)
                return
            }
            position += 1
        }
    }
}
