/// What names mean (``FileScan/NameClass``, the dataflow's special names), computed once per distinct name and
/// kept across the files one worker thread reads. Not shared between threads.
final class NameCache {
    var classes: [String: (known: FileScan.NameClass, value: FileScan.NameClass)] = [:]
    var flowNames: [String: Dataflow.NameInfo] = [:]
}

/// A finding before suppressions, baselines and fingerprints.
struct RawFinding: Sendable {
    let rule: RuleInfo
    let line: Int
    let column: Int
    let message: String
    /// Other lines of the same file the finding is about (the `SecItemAdd` an accessibility class reaches).
    var related: [Int] = []
}

/// One source file under audit: the rules read it through here and append findings here.
final class FileScan {
    let file: SourceFile
    let tokens: [Token]
    private(set) var findings: [RawFinding] = []
    var facts = FileFacts()

    /// What names mean, shared by the files one worker reads.
    let names: NameCache

    init(file: SourceFile, names: NameCache = NameCache()) {
        self.file = file
        tokens = file.tokens
        self.names = names
    }

    private var memos: [String: Bool] = [:]

    /// A file-wide answer computed once (`compute` runs on the first call for `key`).
    func memo(_ key: String, _ compute: () -> Bool) -> Bool {
        if let known = memos[key] { return known }
        let value = compute()
        memos[key] = value
        return value
    }

    /// What a name means, computed once per distinct name of the file (names repeat; splitting them into words
    /// is the costly part of the scan).
    struct NameClass: OptionSet, Sendable {
        let rawValue: UInt8
        static let secret = NameClass(rawValue: 1)
        static let secureRandom = NameClass(rawValue: 2)
        static let authorization = NameClass(rawValue: 4)
        static let secretField = NameClass(rawValue: 8)
    }

    /// Which of `wanted` the name is; each class is computed on first use for that name.
    func nameClass(_ name: String, _ wanted: NameClass = [.secret, .authorization]) -> NameClass {
        var entry = names.classes[name] ?? (NameClass(), NameClass())
        let missing = wanted.subtracting(entry.known)
        if !missing.isEmpty {
            if missing.contains(.secret), SecretNames.isSecret(name) { entry.value.insert(.secret) }
            if missing.contains(.secureRandom), SecretNames.needsSecureRandom(name) {
                entry.value.insert(.secureRandom)
            }
            if missing.contains(.authorization), Dataflow.isAuthorizationName(name) {
                entry.value.insert(.authorization)
            }
            if missing.contains(.secretField), Dataflow.isSecretField(name) { entry.value.insert(.secretField) }
            entry.known.formUnion(missing)
            names.classes[name] = entry
        }
        return entry.value.intersection(wanted)
    }

    /// ``SecretNames/isSecret(_:)``, memoized for the file.
    func isSecret(_ name: String) -> Bool { nameClass(name, .secret).contains(.secret) }
    /// ``SecretNames/needsSecureRandom(_:)``, memoized for the file.
    func needsSecureRandom(_ name: String) -> Bool { nameClass(name, .secureRandom).contains(.secureRandom) }

    /// Tokens the rules' scope scans visited in this file: the auditor's step budget. Every scan of a scope or of
    /// the rest of a scope that a rule makes per call site counts here, so a test can hold the total to a small
    /// multiple of the file's tokens (a rule that rescans its scope for each call site is quadratic).
    private(set) var steps = 0

    /// Adds `count` visited tokens to ``steps``.
    func spend(_ count: Int) { steps &+= count }

    /// Whether a token of `range` satisfies `predicate`, counted in ``steps``.
    func any(in range: Range<Int>, _ predicate: (Int) -> Bool) -> Bool {
        for position in range where predicate(position) {
            spend(position - range.lowerBound + 1)
            return true
        }
        spend(range.count)
        return false
    }

    /// Where each identifier occurs, in order, built on first use with one pass over the file.
    private lazy var identifierPositions: [String: [Int32]] = {
        var result: [String: [Int32]] = [:]
        for index in tokens.indices where tokens[index].kind == .identifier {
            result[tokens[index].text, default: []].append(Int32(index))
        }
        spend(tokens.count)
        return result
    }()

    /// The positions in `range`, ascending, of the identifier tokens spelled `name`: a lookup instead of a scan, so
    /// a rule asking it at every call site of a long function stays linear. Each position read counts in ``steps``.
    func positions(of name: String, in range: Range<Int>) -> Positions {
        spend(1)
        guard let all = identifierPositions[name], !range.isEmpty else { return Positions(scan: self, slice: []) }
        func firstIndex(atLeast bound: Int) -> Int {
            var low = 0
            var high = all.count
            while low < high {
                let middle = (low + high) / 2
                if Int(all[middle]) < bound { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return Positions(
            scan: self, slice: all[firstIndex(atLeast: range.lowerBound)..<firstIndex(atLeast: range.upperBound)])
    }

    /// Token positions from ``positions(of:in:)``; reading one counts a step.
    struct Positions: Sequence {
        let scan: FileScan
        let slice: ArraySlice<Int32>

        func makeIterator() -> Iterator { Iterator(scan: scan, base: slice.makeIterator()) }

        struct Iterator: IteratorProtocol {
            let scan: FileScan
            var base: ArraySlice<Int32>.Iterator

            mutating func next() -> Int? {
                guard let position = base.next() else { return nil }
                scan.spend(1)
                return Int(position)
            }
        }
    }

    private var seen = Set<String>()

    /// `true` the first time it is called with `key` in this file, `false` afterwards.
    func once(_ key: String) -> Bool { seen.insert(key).inserted }

    /// Whether any identifier of the file is one of `names` (computed once per key).
    func mentions(_ key: String, _ names: Set<String>) -> Bool {
        memo(key) { tokens.contains { $0.kind == .identifier && names.contains($0.text) } }
    }

    func report(_ rule: RuleInfo, at index: Int, _ message: String? = nil, related: [Int] = []) {
        let token = tokens[index]
        facts.flags.insert(Self.findingFlag(rule.id))
        findings.append(
            RawFinding(
                rule: rule, line: Int(token.line), column: Int(token.column), message: message ?? rule.message,
                related: related.map { Int(tokens[$0].line) }.filter { $0 != Int(token.line) }))
    }

    /// Reports at `index` only if some file of the project raises `flag` (and `also`, when given) and none raises
    /// `unless` (decided after every file was read).
    func report(
        _ rule: RuleInfo, at index: Int, _ message: String, if flag: String, and also: String? = nil,
        unless: String? = nil
    ) {
        let token = tokens[index]
        facts.pending.append(
            PendingFinding(
                flag: flag, also: also, unless: unless,
                finding: RawFinding(rule: rule, line: Int(token.line), column: Int(token.column), message: message)))
    }

    /// The flag a finding of rule `id` raises, reported outright or confirmed (``ProjectFacts/confirmedPending()``).
    static func findingFlag(_ id: String) -> String { "finding:" + id }

    /// `flags` without the ``findingFlag(_:)`` flags (for test code, whose findings do not stand for the app).
    static func withoutFindingFlags(_ flags: Set<String>) -> Set<String> { flags.filter { !$0.hasPrefix("finding:") } }

    /// Records a fact for the project-wide rules at the token `index`.
    func mark(_ name: String, at index: Int) {
        facts.mark(name, Position(line: Int(tokens[index].line), column: Int(tokens[index].column)))
    }

    /// What values carry in this file (secrets, weak randomness, decoded JWT claims, authorization URLs), computed
    /// on first use.
    private(set) lazy var flow = Dataflow(scan: self)

    /// ``typeQualifiers(of:)`` by each `{` between a token and its type's body.
    var typeQualifierMemo: [Int32: [String]] = [:]
    /// ``innermostFunction(of:)`` by each `{` between a token and its function's body (-1: none).
    var innermostFunctionMemo: [Int32: Int32] = [:]

    /// The Swift functions of the file by the position of their body's `{`, parsed on first use.
    private(set) lazy var functionDeclarations: [Int32: FunctionDeclaration] = Self.parseFunctions(self)

    /// The names the file binds to a secret-named string literal (`static let privateDataKey = "app.private_key"`),
    /// by spelling number, computed once.
    private(set) lazy var secretLiteralNames: Set<Int32> = {
        var result = Set<Int32>()
        for index in tokens.indices.dropLast(3) where tokens[index].kind == .keyword {
            guard tokens[index].text == "let" || tokens[index].text == "var", tokens[index + 1].kind == .identifier,
                tokens[index + 2].isSymbol("="), tokens[index + 3].kind == .string, !tokens[index + 3].isInterpolated,
                isSecret(tokens[index + 3].text)
            else { continue }
            result.insert(tokens[index + 1].name)
        }
        return result
    }()

    /// Whether a Swift function of the file takes a URL (``FileScan/urlParameterTypes``).
    private(set) lazy var hasURLParameters: Bool = functionDeclarations.values.contains { function in
        function.parameters.contains { Self.urlParameterTypes.contains($0.type) }
    }

    /// `let NAME = A.b.c` declarations: NAME → "A.b.c" (a light substitute for type information).
    private(set) lazy var aliases: [String: String] = {
        var result: [String: String] = [:]
        for index in tokens.indices where tokens[index].kind == .keyword {
            guard tokens[index].text == "let" || tokens[index].text == "var", index + 3 < tokens.count,
                tokens[index + 1].kind == .identifier, tokens[index + 2].isSymbol("=")
            else { continue }
            var parts: [String] = []
            var cursor = index + 3
            while cursor < tokens.count, tokens[cursor].kind == .identifier || tokens[cursor].isSymbol(".") {
                if tokens[cursor].kind == .identifier { parts.append(tokens[cursor].text) }
                cursor += 1
            }
            if !parts.isEmpty { result[tokens[index + 1].text] = parts.joined(separator: ".") }
        }
        // Objective-C: `NSUbiquitousKeyValueStore *store = ...` names the store by its declared type.
        if file.language == .objectiveC {
            for index in tokens.indices.dropFirst(2) where tokens[index].isSymbol("=") {
                guard tokens[index - 1].kind == .identifier, tokens[index - 2].isSymbol("*"), index >= 3,
                    tokens[index - 3].kind == .identifier, result[tokens[index - 1].text] == nil
                else { continue }
                result[tokens[index - 1].text] = tokens[index - 3].text
            }
        }
        return result
    }()

    /// Owners that get a `textContentType` somewhere in the file (`field.textContentType = ...`), computed once.
    private(set) lazy var contentTypeOwners: Set<String> = {
        var owners = Set<String>()
        for index in tokens.indices where tokens[index].kind == .identifier {
            if tokens[index].text == "textContentType" {
                owners.insert(file.receiver(of: index).last ?? "")
            } else if tokens[index].text == "setTextContentType" {
                owners.insert(text(index - 1))  // [field setTextContentType:UITextContentTypePassword]
            }
        }
        return owners
    }()

    /// The modules the file imports (`import X`, `@testable import X`, `@import X;`, `#import <X/...>`,
    /// `#include <X/...>`), read from the imports at its top.
    private(set) lazy var importedModules: Set<String> = {
        var modules = Set<String>()
        for index in tokens.indices {
            let token = tokens[index]
            if token.kind == .keyword, token.text == "import" || token.text == "@import", index + 1 < tokens.count {
                modules.insert(tokens[index + 1].text)
            } else if token.kind == .directive, token.text.hasPrefix("#import") || token.text.hasPrefix("#include"),
                let open = token.text.firstIndex(of: "<"), let slash = token.text[open...].firstIndex(of: "/")
            {
                modules.insert(String(token.text[token.text.index(after: open)..<slash]))
            } else if token.kind == .attribute, token.text == "testable" {
                modules.insert("@testable")
            } else if token.kind != .keyword, token.kind != .directive, token.kind != .attribute, index > 400 {
                break
            }
        }
        return modules
    }()

    /// Token ranges compiled only into debug builds (`#if DEBUG` up to its `#else`/`#elseif`/`#endif`).
    private(set) lazy var debugOnly: [Range<Int>] = {
        var ranges: [Range<Int>] = []
        // One entry per open #if: where its DEBUG branch started, if it is one.
        var stack: [Int?] = []
        for index in tokens.indices where tokens[index].kind == .directive {
            let text = tokens[index].text
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" || $0 == ")" })
            let directive = words.first.map(String.init) ?? text
            // Swift lexes `#if DEBUG` as a directive and an identifier; Objective-C keeps the line as one token.
            let condition =
                words.count > 1
                ? words.dropFirst().map(String.init) : [index + 1 < tokens.count ? tokens[index + 1].text : ""]
            switch directive {
            case "#if", "#ifdef":
                stack.append(condition == ["DEBUG"] ? index : nil)
            case "#else", "#elseif", "#elif":
                if let start = stack.last, let open = start {
                    ranges.append(open..<index)
                    stack[stack.count - 1] = nil
                }
            case "#endif":
                if let start = stack.popLast(), let open = start { ranges.append(open..<index) }
            default: break
            }
        }
        return ranges
    }()

    /// Whether the token at `index` is compiled only into debug builds.
    func isDebugOnly(_ index: Int) -> Bool { index < debugTokens.count && debugTokens[index] }

    /// ``debugOnly`` as one flag per token (a lookup per log call, however many `#if DEBUG` blocks there are).
    private lazy var debugTokens: [Bool] = {
        guard !debugOnly.isEmpty else { return [] }
        var flags = [Bool](repeating: false, count: tokens.count)
        for range in debugOnly { for index in range where index < flags.count { flags[index] = true } }
        return flags
    }()

    private var rangeMemos: [String: Range<Int>?] = [:]
    /// ``elementType(of:)`` by name (one pass over the file per name, however many loops encode its elements).
    var elementTypes: [String: String?] = [:]

    /// A file-wide range (or nil) computed once per key.
    func memoRange(_ key: String, _ compute: () -> Range<Int>?) -> Range<Int>? {
        if let known = rangeMemos[key] { return known }
        let value = compute()
        rangeMemos[key] = .some(value)
        return value
    }

    /// For each token, the scope its variables live in: the body of the function, initialiser, accessor or
    /// closure it belongs to (the outermost one below a type or the file), a type body for stored properties,
    /// or -1 at the top level.
    private(set) lazy var scopes: [Int32] = {
        var result = [Int32](repeating: -1, count: tokens.count)
        var stack: [(isType: Bool, scope: Int32)] = []
        for index in tokens.indices {
            result[index] = stack.last?.scope ?? -1
            // Punctuation is one byte: its first byte is its text (and no copy of the token is made).
            guard tokens[index].kind == .punctuation else { continue }
            let symbol = tokens[index].text.utf8.first
            if symbol == UInt8(ascii: "{") {
                if let parent = stack.last, !parent.isType {
                    stack.append((false, parent.scope))
                } else {
                    stack.append((isTypeBody(index), Int32(index)))
                }
            } else if symbol == UInt8(ascii: "}"), !stack.isEmpty {
                stack.removeLast()
                result[index] = stack.last?.scope ?? -1
            }
        }
        return result
    }()

    /// Whether the `{` at `open` starts the body of a type (class, struct, enum, extension, protocol, actor).
    func isTypeBody(_ open: Int) -> Bool {
        var position = open - 1
        var steps = 0
        while position >= 0, steps < 256 {
            let token = tokens[position]
            switch token.kind {
            case .punctuation where token.text == ")" || token.text == "]":
                let partner = Int(file.partner[position])
                position = partner >= 0 && partner < position ? partner - 1 : position - 1
                steps += 1
                continue
            case .punctuation where token.text == "{" || token.text == "}" || token.text == ";":
                return false
            case .keyword:
                switch token.text {
                case "class", "struct", "enum", "extension", "protocol", "actor": return true
                case "func", "init", "deinit", "subscript", "var", "let", "in", "if", "guard", "for", "while",
                    "switch", "else", "do", "catch", "repeat", "return", "defer", "case", "default":
                    return false
                default: break
                }
            case .operator where token.text == "=":
                return false
            default: break
            }
            position -= 1
            steps += 1
        }
        return false
    }

    /// The innermost `(` or `[` around `index`, looking back at most `limit` tokens.
    func enclosingOpener(of index: Int, _ opener: String, limit: Int = 512) -> Int? {
        var position = index - 1
        var steps = 0
        while position >= 0, steps < limit {
            if tokens[position].kind == .punctuation, tokens[position].text == opener, file.partner[position] > index {
                return position
            }
            position -= 1
            steps += 1
        }
        return nil
    }

    /// The receiver chain of the call at `index`, with a leading local alias expanded.
    func resolvedReceiver(of index: Int) -> [String] {
        var chain = file.receiver(of: index)
        if let first = chain.first, let alias = aliases[first] {
            chain = alias.split(separator: ".").map(String.init) + chain.dropFirst()
        }
        return chain
    }

    /// The tokens of the receiver expression before `.name` at `index` (`a.b(c).name` → `a.b(c)`).
    func receiverRange(of index: Int) -> Range<Int> {
        guard isSymbol(index - 1, ".") else { return index..<index }
        var start = index - 1
        var position = index - 2
        while position >= 0 {
            let token = tokens[position]
            if token.kind == .punctuation, token.text == ")" || token.text == "]", file.partner[position] >= 0,
                file.partner[position] < position
            {
                position = Int(file.partner[position]) - 1
                start = position + 1
                continue
            }
            if token.kind == .operator, token.text == "?" || token.text == "!" {
                position -= 1
                continue
            }
            guard token.kind == .identifier || token.kind == .keyword || token.kind == .string else { break }
            start = position
            if isSymbol(position - 1, ".") {
                position -= 2
                continue
            }
            break
        }
        return start..<(index - 1)
    }

    // MARK: Token helpers

    func text(_ index: Int) -> String { index >= 0 && index < tokens.count ? tokens[index].text : "" }

    func isSymbol(_ index: Int, _ symbol: String) -> Bool {
        index >= 0 && index < tokens.count && tokens[index].isSymbol(symbol)
    }

    /// `.name` used as an implicit member (not `a.name`).
    func isImplicitMember(_ index: Int) -> Bool {
        guard isSymbol(index - 1, ".") else { return false }
        let before = index - 2
        guard before >= 0 else { return true }
        let token = tokens[before]
        switch token.kind {
        case .identifier, .number, .string: return false
        case .keyword: return !(token.text == "self" || token.text == "Self")
        case .punctuation: return !(token.text == ")" || token.text == "]" || token.text == "?")
        default: return true
        }
    }

    /// Whether the tokens of `range` are a single literal (string, number, `true`/`false`/`nil`/`YES`/`NO`).
    func isLiteral(_ range: Range<Int>) -> Bool {
        var range = range
        // An Objective-C boxed literal: @YES, @(1).
        if range.count == 2, tokens[range.lowerBound].text == "@" { range = (range.lowerBound + 1)..<range.upperBound }
        guard range.count == 1 else { return range.isEmpty }
        let token = tokens[range.lowerBound]
        return token.kind == .string && !token.isInterpolated || token.kind == .number
            || ["true", "false", "nil", "YES", "NO", "NULL"].contains(token.text)
    }

    /// Whether `range` names a secret key: a secret-named string literal or identifier (unless hashed).
    func secretKey(in range: Range<Int>) -> Bool {
        for index in range where tokens[index].kind == .string {
            if isSecret(tokens[index].text) { return !hashed(range) }
        }
        // let key = "widgetAuthenticityToken" ... set(value, forKey: key)
        if range.count == 1, tokens[range.lowerBound].kind == .identifier,
            let literal = localLiteral(tokens[range.lowerBound].text, before: range.lowerBound), isSecret(literal)
        {
            return true
        }
        // forKey: Keys.privateKeyTag, a constant of this file bound to "app.private_key".
        if let last = range.last, tokens[last].kind == .identifier, !secretLiteralNames.isEmpty,
            secretLiteralNames.contains(tokens[last].name),
            range.allSatisfy({ tokens[$0].kind == .identifier || isSymbol($0, ".") })
        {
            return true
        }
        return !hashed(range) && flow.evaluate(range).secret != nil
    }

    /// The string literal `name` is bound to in its function before `index` (`let key = "token"`,
    /// `NSString *key = @"token";`), if any.
    func localLiteral(_ name: String, before index: Int) -> String? {
        let scope = scopeRange(of: index)
        for position in positions(of: name, in: scope.lowerBound..<index)
        where (["let", "var"].contains(text(position - 1)) || isSymbol(position - 1, "*"))
            && isSymbol(position + 1, "=")
        {
            let value = position + 2
            guard value < tokens.count, tokens[value].kind == .string, !tokens[value].isInterpolated,
                value + 1 >= tokens.count || tokens[value + 1].line != tokens[value].line || isSymbol(value + 1, ";")
            else { return nil }
            return tokens[value].text
        }
        return nil
    }

    /// Whether `range` contains a hashing or redacting call.
    func hashed(_ range: Range<Int>) -> Bool {
        range.contains { position in
            guard tokens[position].kind == .identifier, Dataflow.sanitizers.contains(tokens[position].text) else {
                return false
            }
            // A test of the value, not what is stored: `newValue.isEmpty ? nil : newValue`, `token.count > 0 ? ...`.
            let test =
                isSymbol(position - 1, ".")
                && ["?", "==", "!=", ">", "<", ">=", "<="].contains { isSymbol(position + 1, $0) }
            return !test
        }
    }

    /// The tokens of the expression starting at `start`: to the end of its line, extended over brackets that
    /// open on it.
    func expression(from start: Int) -> Range<Int> {
        guard start < tokens.count else { return start..<start }
        let line = tokens[start].line
        var index = start
        while index < tokens.count {
            if tokens[index].line != line { break }
            if file.partner[index] > index, tokens[index].kind != .interpolationEnd {
                index = Int(file.partner[index]) + 1
                continue
            }
            if tokens[index].kind == .punctuation, [";", "}", ")", "]", ","].contains(tokens[index].text) { break }
            index += 1
        }
        return start..<index
    }

    /// The first string literal in `range`.
    func firstString(in range: Range<Int>) -> String? {
        range.first { tokens[$0].kind == .string }.map { tokens[$0].text }
    }
}
