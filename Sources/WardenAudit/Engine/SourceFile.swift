/// A lexed source file with the light structure rules need: matching brackets, function bodies, calls with
/// argument labels, member chains.
package struct SourceFile: Sendable {
    /// A call expression `receiver.name(label: value, ...)`.
    package struct Call: Sendable {
        /// The token index of the called name.
        package let nameIndex: Int
        package let name: String
        /// Token indices of `(` and `)`.
        package let open: Int
        package let close: Int
        /// Argument token ranges (inside the parentheses), with their labels.
        package let arguments: [(label: String?, range: Range<Int>)]

        /// The first argument with `label`.
        package func argument(_ label: String) -> Range<Int>? { arguments.first { $0.label == label }?.range }
    }

    /// The path relative to the audited root, with `/` separators.
    package let path: String
    package let language: SourceLanguage
    package let tokens: [Token]
    package let comments: [Comment]
    package let notes: [LexerNote]
    /// The spellings of the identifier and keyword tokens (``Token/name``).
    package let names: NameTable
    /// For each `(`, `[`, `{` and interpolation start, the index of its partner (and the reverse); -1 elsewhere.
    package let partner: [Int32]
    /// For each token, the index of the innermost `{` that contains it (-1 at the top level). For a `{` itself,
    /// the brace around it. Lookups of enclosing bodies are O(depth), never O(file).
    let enclosingBrace: [Int32]

    /// Lexes `bytes` and matches brackets and bodies.
    package init(path: String, bytes: [UInt8], language: SourceLanguage) {
        let lexed = Lexer.lex(bytes, language: language)
        self.path = path
        self.language = language
        tokens = lexed.tokens
        comments = lexed.comments
        notes = lexed.notes
        names = lexed.names
        var partner = [Int32](repeating: -1, count: lexed.tokens.count)
        var enclosing = [Int32](repeating: -1, count: lexed.tokens.count)
        var braces: [Int32] = []
        // Openers by their shape: `(` `[` `{`, or 0 for an interpolation's start (which a `)` of an
        // interpolation's end closes). Punctuation is one byte, so its first byte is its text.
        var stack: [(index: Int, shape: UInt8)] = []
        for (index, token) in lexed.tokens.enumerated() {
            enclosing[index] = braces.last ?? -1
            let symbol = token.kind == .punctuation ? token.text.utf8.first ?? 0 : 0
            if symbol == UInt8(ascii: "{") {
                braces.append(Int32(index))
            } else if symbol == UInt8(ascii: "}"), !braces.isEmpty {
                braces.removeLast()
                enclosing[index] = braces.last ?? -1
            }
            switch token.kind {
            case .punctuation
            where symbol == UInt8(ascii: "(") || symbol == UInt8(ascii: "[") || symbol == UInt8(ascii: "{"):
                stack.append((index, symbol))
            case .interpolationStart:
                stack.append((index, 0))
            case .punctuation
            where symbol == UInt8(ascii: ")") || symbol == UInt8(ascii: "]") || symbol == UInt8(ascii: "}"),
                .interpolationEnd:
                // Unbalanced input: pop to the nearest opener of the same shape.
                let opener: UInt8 =
                    switch symbol {
                    case UInt8(ascii: ")"): UInt8(ascii: "(")
                    case UInt8(ascii: "]"): UInt8(ascii: "[")
                    case UInt8(ascii: "}"): UInt8(ascii: "{")
                    default: 0
                    }
                if let position = stack.lastIndex(where: { $0.shape == opener }) {
                    let open = stack[position].index
                    stack.removeSubrange(position...)
                    partner[open] = Int32(index)
                    partner[index] = Int32(open)
                }
            default: break
            }
        }
        self.partner = partner
        enclosingBrace = enclosing
    }

    // MARK: - Queries

    /// Line `number` as its code tokens with every string literal emptied (comments and spacing left out): what a
    /// finding's fingerprint is made of, so that fingerprints survive comment and layout edits and never carry, or
    /// let anyone brute-force, the value of a hard-coded secret.
    package func fingerprintText(_ number: Int32) -> String {
        var low = 0
        var high = tokens.count
        while low < high {
            let middle = (low + high) / 2
            if tokens[middle].line < number { low = middle + 1 } else { high = middle }
        }
        var parts: [String] = []
        for token in tokens[low...] {
            guard token.line == number else { break }
            parts.append(token.kind == .string ? "\"\"" : token.text)
        }
        return parts.joined(separator: " ")
    }

    /// The call whose name is at `index` (`name(` or `name {`-less), if any.
    package func call(at index: Int) -> Call? {
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
    package func receiver(of index: Int) -> [String] {
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
    package func chain(after close: Int) -> [String] {
        var names: [String] = []
        var position = close + 1
        // A trailing closure belongs to the call (`SecureField(text: $p) { Text("Password") }.textContentType(...)`).
        if position < tokens.count, tokens[position].text == "{", partner[position] > position {
            position = Int(partner[position]) + 1
        }
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

    /// The outermost `func` body containing `index` (the whole handler, closures included); the innermost brace
    /// when no `func` encloses it.
    package func enclosingFunction(of index: Int) -> ClosedRange<Int>? {
        guard tokens.indices.contains(index) else { return nil }
        var open = Int(enclosingBrace[index])
        var innermost: ClosedRange<Int>?
        var result: ClosedRange<Int>?
        while open >= 0 {
            if partner[open] > open {
                let body = open...Int(partner[open])
                if innermost == nil { innermost = body }
                if isFunctionBody(open) { result = body }
            }
            open = Int(enclosingBrace[open])
        }
        return result ?? innermost
    }

    /// Whether the `{` at `open` starts the body of a `func` or `init` declaration.
    func isFunctionBody(_ open: Int) -> Bool {
        var position = open - 1
        var depth = 0
        var steps = 0
        while position >= 0, steps < 4096 {
            let token = tokens[position]
            if token.kind == .punctuation, token.text == ")" || token.text == "]" {
                depth += 1
            } else if token.kind == .punctuation, token.text == "(" || token.text == "[" {
                depth -= 1
            } else if depth == 0, token.kind == .punctuation,
                token.text == "{" || token.text == "}" || token.text == ";"
            {
                return false
            } else if depth == 0, token.kind == .keyword, token.text == "func" || token.text == "init" {
                return true
            }
            position -= 1
            steps += 1
        }
        return false
    }

    /// Whether any identifier in `range` is spelled `name`.
    package func contains(_ name: String, in range: some Sequence<Int>) -> Bool {
        range.contains { tokens[$0].kind == .identifier && tokens[$0].text == name }
    }
}
