/// Queries several families share.
extension FileScan {
    /// The tokens of the scope (``scopes``) the token at `index` belongs to: a function or closure body, a type
    /// body, or the whole file.
    func scopeRange(of index: Int) -> Range<Int> {
        let scope = Int(scopes[index])
        guard scope >= 0, file.partner[scope] > scope else { return 0..<tokens.count }
        return scope..<(Int(file.partner[scope]) + 1)
    }

    /// The condition of the `if`, `guard`, `while` or `switch` keyword at `index`: up to its `{` (or `else`).
    func condition(at index: Int) -> Range<Int> {
        var end = index + 1
        let limit = min(tokens.count, index + 1024)
        while end < limit {
            let token = tokens[end]
            if token.isSymbol("{") || (token.kind == .keyword && token.text == "else") { break }
            if file.partner[end] > end, !token.isSymbol("{") {
                end = Int(file.partner[end]) + 1
                continue
            }
            end += 1
        }
        return (index + 1)..<end
    }

    /// The decisions in `range`: conditions of `if`/`guard`/`while`/`switch` and operands of `?:`, `&&`, `||`,
    /// as (the token to report at, the tokens decided on).
    func decisions(in range: Range<Int>) -> [(at: Int, condition: Range<Int>)] {
        var result: [(Int, Range<Int>)] = []
        for index in range {
            let token = tokens[index]
            if token.kind == .keyword, ["if", "guard", "while", "switch"].contains(token.text) {
                result.append((index, condition(at: index)))
            } else if token.kind == .operator, token.text == "&&" || token.text == "||" {
                result.append(
                    (index, max(range.lowerBound, operandStart(before: index))..<min(range.upperBound, index + 4)))
            } else if token.isSymbol("?"), isTernary(index) {
                result.append((index, max(range.lowerBound, operandStart(before: index))..<index))
            }
        }
        return result
    }

    /// Where the operand that ends before `index` starts: back over a member chain, calls, subscripts and a
    /// comparison with its left side (`claims.scope.contains("x")`, `a.count > 1`, `[s containsString:@"p"]`).
    func operandStart(before index: Int) -> Int {
        var position = index - 1
        var steps = 0
        while position >= 0, steps < 64 {
            let token = tokens[position]
            if token.kind == .punctuation, token.text == ")" || token.text == "]", file.partner[position] >= 0,
                file.partner[position] < position
            {
                position = Int(file.partner[position]) - 1
            } else if token.kind == .identifier || token.kind == .string || token.kind == .number
                || token.isSymbol(".") || token.isSymbol("?") || token.isSymbol("!")
                || (token.kind == .operator && ["==", "!=", "<", ">", "<=", ">=", "-", "+"].contains(token.text))
                || (token.kind == .keyword && ["self", "try", "await"].contains(token.text))
            {
                position -= 1
            } else {
                break
            }
            steps += 1
        }
        return position + 1
    }

    /// Whether the `?` at `index` is a ternary operator (followed by a `:` on the same statement), not an optional.
    private func isTernary(_ index: Int) -> Bool {
        guard index + 1 < tokens.count, index > 0, tokens[index - 1].kind != .keyword else { return false }
        let next = tokens[index + 1]
        if next.kind == .punctuation, next.text != "(" {
            // `cond ? .a : .b` (a space before `?`) is a ternary; `value?.member` is optional chaining.
            let previous = tokens[index - 1]
            let spaced =
                previous.line != tokens[index].line
                || Int(tokens[index].column) > Int(previous.column) + previous.text.utf8.count
            guard next.text == ".", spaced || previous.kind == .string else { return false }
        }
        var position = index + 1
        let limit = min(tokens.count, index + 64)
        while position < limit {
            let token = tokens[position]
            if file.partner[position] > position {
                position = Int(file.partner[position]) + 1
                continue
            }
            if token.line != tokens[index].line { return false }
            if token.isSymbol(":") { return true }
            if token.kind == .punctuation, [";", "{", "}", ",", ")", "]"].contains(token.text) { return false }
            position += 1
        }
        return false
    }

    /// The name assigned by the `=` at `equals` (`name = `, `let name: String = `, `var name: T? = `,
    /// `NSString *name = `), or nil when the left side is not a plain name.
    func assignmentTarget(of equals: Int) -> Int? {
        var nameIndex = equals - 1
        guard nameIndex >= 0 else { return nil }
        if tokens[nameIndex].kind == .identifier,
            tokens[nameIndex].text.utf8.first.map({ $0 >= 0x41 && $0 <= 0x5A }) == true
        {
            // `let key: String = ...`: step back over a simple type annotation.
            if isSymbol(nameIndex - 1, ":") { nameIndex -= 2 }
        } else if isSymbol(nameIndex, "?") || isSymbol(nameIndex, "!") {
            nameIndex -= 1
            if isSymbol(nameIndex - 1, ":") { nameIndex -= 2 }
        }
        guard nameIndex >= 0, nameIndex < tokens.count, tokens[nameIndex].kind == .identifier else { return nil }
        return nameIndex
    }

    /// The argument tokens of the call at `index` (inside its parentheses), or an empty range.
    func arguments(of index: Int) -> Range<Int> {
        guard let call = file.call(at: index) else { return index..<index }
        return (call.open + 1)..<call.close
    }

    /// The secret that reaches the sink `range`, if any: named, read from a field or the Keychain, or carried by a
    /// variable of this function.
    func secret(in range: Range<Int>) -> Origin? {
        guard !range.isEmpty else { return nil }
        return flow.evaluate(range).secret
    }

    /// The query item built at `index` (`URLQueryItem(name: "n", value: v)`, `[NSURLQueryItem queryItemWithName:@"n"
    /// value:v]`): its literal name (or the OAuth parameter a constant is named after) and its value's tokens.
    func queryItem(at index: Int) -> (name: String, value: Range<Int>?)? {
        switch tokens[index].text {
        case "URLQueryItem":
            guard let call = file.call(at: index), let argument = call.argument("name"),
                let name = firstString(in: argument) ?? oauthParameter(namedBy: argument)
            else { return nil }
            return (name, call.argument("value"))
        case "NSURLQueryItem":
            guard let message = message(opening: index - 1), let argument = message.argument("queryItemWithName"),
                let name = firstString(in: argument) ?? oauthParameter(namedBy: argument)
            else { return nil }
            return (name, message.argument("value"))
        case "init":
            // `[.init(name: "response_type", value: "code"), ...]` in an array of query items (Ice Cubes' endpoints).
            guard tokens[index].kind == .keyword, isImplicitMember(index), let call = file.call(at: index),
                call.arguments.count == 2, let argument = call.argument("name"), let value = call.argument("value"),
                let name = firstString(in: argument) ?? oauthParameter(namedBy: argument)
            else { return nil }
            return (name, value)
        default:
            return nil
        }
    }

    /// The OAuth parameters a constant may be named after: `Keys.responseType`, `kRedirectURI`, `Param.state`.
    static let oauthParameterNames: Set<String> = [
        "response_type", "redirect_uri", "client_id", "code_challenge", "code_challenge_method", "code_verifier",
        "state", "scope", "grant_type", "nonce",
    ]

    /// The OAuth parameter a constant's name spells (`GoogleDriveAPI.Keys.responseType` → `response_type`, `kState` →
    /// `state`), when `range` is only such a constant (a name or a member chain); nil otherwise.
    func oauthParameter(namedBy range: Range<Int>) -> String? {
        let plain = range.allSatisfy { tokens[$0].kind == .identifier || isSymbol($0, ".") }
        guard plain, let last = range.last, tokens[last].kind == .identifier else { return nil }
        var words = SecretNames.words(tokens[last].text)
        if words.first == "k", words.count > 1 { words.removeFirst() }  // kRedirectURI
        let name = words.joined(separator: "_")
        return Self.oauthParameterNames.contains(name) ? name : nil
    }

    /// A keyed write (`set(value, forKey: key)`, `[x setObject:value forKey:key]`): reports `rule` when the value
    /// carries a secret (`"... <predicate>"`), or when a non-literal value goes under a secret key (`keyMessage`, or
    /// the rule's own message).
    func reportKeyedWrite(
        _ rule: RuleInfo, at index: Int, value: Range<Int>, key: Range<Int>, _ predicate: String,
        keyMessage: String? = nil
    ) {
        if let text = keyedWriteMessage(rule, at: index, value: value, key: key, predicate, keyMessage: keyMessage) {
            report(rule, at: index, text)
        } else if let record = encodedRecord(in: value) {
            report(rule, at: index, recordMessage(record, predicate), if: CodableSecrets.flag(record.type))
        } else if !isLiteral(value), let through = throughParameters(value: value, key: key, at: index) {
            // write(value: String) { defaults.set(value, forKey: k) }: a caller names the secret.
            report(rule, at: index, parameterMessage(through.use, predicate), if: through.flag)
        }
    }

    /// `"'account', an encoded Account (a Codable type with a secret-named stored property), <predicate>"`.
    func recordMessage(_ record: (variable: String, type: String), _ predicate: String) -> String {
        "'\(record.variable)', an encoded \(record.type) (a Codable type with a secret-named stored property), "
            + predicate
    }

    /// What ``reportKeyedWrite(_:at:value:key:_:keyMessage:)`` would say, or nil when it would say nothing.
    func keyedWriteMessage(
        _ rule: RuleInfo, at index: Int, value: Range<Int>, key: Range<Int>, _ predicate: String,
        keyMessage: String? = nil
    ) -> String? {
        if let origin = secret(in: value), !hashed(value) { return message(origin, at: index, predicate) }
        if secretKey(in: key) { return keyMessage ?? rule.message }
        return nil
    }

    /// `"'password' (line 3) via blob (line 4) is written to a file"` for a finding at `index`.
    func message(_ origin: Origin, at index: Int, _ predicate: String) -> String {
        let text = origin.describe(at: tokens[index].line) + " " + predicate
        // "The text of 'passwordField' ...", but "arc4random() ..." and "evaluatePolicy's result ..." as written.
        guard text.hasPrefix("the ") || text.hasPrefix("a ") || text.hasPrefix("an ") else { return text }
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// The file imports `module` (Swift `import X`, Objective-C `@import X;` or `#import <X/...>`).
    func imports(_ module: String) -> Bool { importedModules.contains(module) }

    /// The innermost Swift type declaration around `index`: its keyword (`class`, `struct`, `enum`, `extension`,
    /// `actor`, `protocol`) and name (`extension Keychain` → Keychain); nil at the top level.
    func enclosingType(of index: Int) -> (keyword: String, name: String)? {
        let scan = self
        let kinds: Set<String> = ["class", "struct", "enum", "extension", "actor", "protocol"]
        var open = Int(scan.file.enclosingBrace[index])
        while open >= 0 {
            // Back from the brace over the declaration's head: `final public class X: NSManagedObject {`.
            var position = open - 1
            var depth = 0
            while position >= 0, open - position < 256 {
                let token = scan.tokens[position]
                if token.kind == .punctuation, token.text == ")" || token.text == "]" || token.text == ">" {
                    depth += 1
                } else if token.kind == .punctuation, token.text == "(" || token.text == "[" || token.text == "<" {
                    depth -= 1
                } else if depth == 0, token.kind == .punctuation, ["{", "}", ";"].contains(token.text) {
                    break
                } else if depth == 0, token.kind == .keyword {
                    if kinds.contains(token.text) { return (token.text, scan.text(position + 1)) }
                    if ["func", "init", "var", "let", "if", "guard", "for", "while", "switch", "in"].contains(
                        token.text)
                    {
                        break
                    }
                }
                position -= 1
            }
            open = Int(scan.file.enclosingBrace[open])
        }
        return nil
    }
}
