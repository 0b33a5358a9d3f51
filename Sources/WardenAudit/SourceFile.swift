/// A lexed source file with the light structure rules need: matching brackets, function bodies, calls with
/// argument labels, member chains.
public struct SourceFile: Sendable {
    /// A call expression `receiver.name(label: value, ...)`.
    public struct Call: Sendable {
        /// The token index of the called name.
        public let nameIndex: Int
        public let name: String
        /// Token indices of `(` and `)`.
        public let open: Int
        public let close: Int
        /// Argument token ranges (inside the parentheses), with their labels.
        public let arguments: [(label: String?, range: Range<Int>)]

        /// The first argument with `label`.
        public func argument(_ label: String) -> Range<Int>? { arguments.first { $0.label == label }?.range }
    }

    /// The path relative to the audited root, with `/` separators.
    public let path: String
    public let language: SourceLanguage
    public let tokens: [Token]
    public let comments: [Comment]
    public let notes: [LexerNote]
    /// For each `(`, `[`, `{` and interpolation start, the index of its partner (and the reverse); -1 elsewhere.
    public let partner: [Int32]
    /// Function and closure bodies as `{`...`}` token index pairs, innermost last among nested ones.
    public let bodies: [ClosedRange<Int>]
    let bytes: [UInt8]

    /// Lexes `bytes` and matches brackets and bodies.
    public init(path: String, bytes: [UInt8], language: SourceLanguage) {
        let lexed = Lexer.lex(bytes, language: language)
        self.path = path
        self.language = language
        self.bytes = bytes
        tokens = lexed.tokens
        comments = lexed.comments
        notes = lexed.notes
        var partner = [Int32](repeating: -1, count: lexed.tokens.count)
        var stack: [Int] = []
        var bodies: [ClosedRange<Int>] = []
        for (index, token) in lexed.tokens.enumerated() {
            switch token.kind {
            case .punctuation where token.text == "(" || token.text == "[" || token.text == "{":
                stack.append(index)
            case .interpolationStart:
                stack.append(index)
            case .punctuation where token.text == ")" || token.text == "]" || token.text == "}",
                .interpolationEnd:
                // Unbalanced input: pop to the nearest opener of the same shape.
                let opener: String =
                    switch token.text {
                    case ")": token.kind == .interpolationEnd ? "\\(" : "("
                    case "]": "["
                    default: "{"
                    }
                if let position = stack.lastIndex(where: { lexed.tokens[$0].text == opener }) {
                    let open = stack[position]
                    stack.removeSubrange(position...)
                    partner[open] = Int32(index)
                    partner[index] = Int32(open)
                    if opener == "{" { bodies.append(open...index) }
                }
            default: break
            }
        }
        self.partner = partner
        self.bodies = bodies.sorted { $0.lowerBound < $1.lowerBound }
    }

    // MARK: - Queries

    /// The text of line `number` (1-based), without its newline.
    public func lineText(_ number: Int32) -> String {
        var line: Int32 = 1
        var start = 0
        var index = 0
        while index < bytes.count, line < number {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                start = index + 1
            }
            index += 1
        }
        guard line == number else { return "" }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The call whose name is at `index` (`name(` or `name {`-less), if any.
    public func call(at index: Int) -> Call? {
        let open = index + 1
        guard open < tokens.count, tokens[open].kind == .punctuation, tokens[open].text == "(" else { return nil }
        let close = Int(partner[open])
        guard close > open else { return nil }
        var arguments: [(label: String?, range: Range<Int>)] = []
        var start = open + 1
        var position = open + 1
        func finish(_ end: Int) {
            guard end > start else { return }
            if end - start >= 2, tokens[start + 1].kind == .punctuation, tokens[start + 1].text == ":",
                tokens[start].kind == .identifier || tokens[start].kind == .keyword
            {
                arguments.append((tokens[start].text, (start + 2)..<end))
            } else {
                arguments.append((nil, start..<end))
            }
        }
        while position < close {
            let token = tokens[position]
            if partner[position] > position {
                position = Int(partner[position]) + 1
                continue
            }
            if token.kind == .punctuation, token.text == "," {
                finish(position)
                start = position + 1
            }
            position += 1
        }
        finish(close)
        return Call(nameIndex: index, name: tokens[index].text, open: open, close: close, arguments: arguments)
    }

    /// Names of the member chain before the token at `index`: for `UserDefaults.standard.set(`, at `set`,
    /// `["UserDefaults", "standard"]`. Calls and subscripts in the chain are skipped (`a.b().c` → `["a", "b"]`).
    public func receiver(of index: Int) -> [String] {
        var names: [String] = []
        var position = index - 1
        while position >= 1, tokens[position].kind == .punctuation, tokens[position].text == "." {
            var before = position - 1
            while before >= 0, tokens[before].kind == .punctuation || tokens[before].kind == .operator {
                let text = tokens[before].text
                if text == ")" || text == "]", partner[before] >= 0 {
                    before = Int(partner[before]) - 1
                } else if text == "?" || text == "!" {
                    before -= 1
                } else {
                    break
                }
            }
            guard before >= 0, tokens[before].kind == .identifier || tokens[before].kind == .keyword else { break }
            names.insert(tokens[before].text, at: 0)
            position = before - 1
        }
        return names
    }

    /// Names of member calls chained after `close` (SwiftUI modifiers): `SecureField(...).textContentType(.password)`.
    public func chain(after close: Int) -> [String] {
        var names: [String] = []
        var position = close + 1
        while position + 1 < tokens.count, tokens[position].kind == .punctuation, tokens[position].text == "." {
            let name = tokens[position + 1]
            guard name.kind == .identifier || name.kind == .keyword else { break }
            names.append(name.text)
            position += 2
            if position < tokens.count, tokens[position].text == "(", partner[position] > position {
                position = Int(partner[position]) + 1
            }
            if position < tokens.count, tokens[position].text == "{", partner[position] > position {
                position = Int(partner[position]) + 1
            }
        }
        return names
    }

    /// The innermost function or closure body containing `index`.
    public func enclosingBody(of index: Int) -> ClosedRange<Int>? {
        var best: ClosedRange<Int>?
        for body in bodies {
            if body.lowerBound > index { break }
            if body.contains(index), best == nil || body.lowerBound >= best!.lowerBound { best = body }
        }
        return best
    }

    /// The outermost `func` body containing `index` (the whole handler, closures included).
    public func enclosingFunction(of index: Int) -> ClosedRange<Int>? {
        var result: ClosedRange<Int>?
        for body in bodies {
            if body.lowerBound > index { break }
            guard body.contains(index) else { continue }
            // Is this brace the body of a `func` / `init` declaration?
            var position = body.lowerBound - 1
            var depth = 0
            while position >= 0 {
                let token = tokens[position]
                if token.kind == .punctuation, token.text == ")" || token.text == "]" || token.text == ">" {
                    depth += 1
                } else if token.kind == .punctuation, token.text == "(" || token.text == "[" {
                    depth -= 1
                } else if depth == 0, token.text == "{" || token.text == "}" || token.text == ";" {
                    break
                } else if depth == 0, token.kind == .keyword, token.text == "func" || token.text == "init" {
                    return body
                }
                position -= 1
            }
            result = body
        }
        return result
    }

    /// Identifiers and keywords in a token range, interpolations included.
    public func identifiers(in range: Range<Int>) -> [String] {
        range.compactMap { tokens[$0].kind == .identifier ? tokens[$0].text : nil }
    }

    /// Whether any identifier in `range` is spelled `name`.
    public func contains(_ name: String, in range: some Sequence<Int>) -> Bool {
        range.contains { tokens[$0].kind == .identifier && tokens[$0].text == name }
    }
}
