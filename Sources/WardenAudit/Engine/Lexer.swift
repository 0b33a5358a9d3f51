/// The source languages the auditor reads.
package enum SourceLanguage: String, Sendable {
    case swift
    case objectiveC = "objc"
}

/// A lexer for Swift (nested block comments, line comments, single-line, multi-line and raw `#"..."#` strings with
/// interpolation, identifiers including backticked ones, keywords, numbers, operators, attributes, `#` directives)
/// and, with ``SourceLanguage/objectiveC``, a smaller Objective-C tokenizer (`@"..."` and C strings, character
/// literals, preprocessor lines, `@keywords`).
///
/// It works on UTF-8 bytes in one pass and never fails: malformed input (an unterminated string or comment)
/// ends the affected token and adds a ``LexerNote``.
///
/// ```swift
/// let result = Lexer.lex(Array(source.utf8), language: .swift)
/// for token in result.tokens where token.kind == .identifier { ... }
/// ```
package struct Lexer {
    /// The tokens (comments excluded), the comments, and notes about malformed input.
    package struct Result: Sendable {
        package var tokens: [Token] = []
        package var comments: [Comment] = []
        package var notes: [LexerNote] = []
        /// The spellings of the identifier and keyword tokens (``Token/name``).
        package var names = NameTable()
    }

    /// Lexes UTF-8 `bytes` as `language`; never fails.
    package static func lex(_ bytes: [UInt8], language: SourceLanguage = .swift) -> Result {
        bytes.withUnsafeBufferPointer { buffer in
            var lexer = Lexer(buffer: buffer, language: language)
            lexer.result.tokens.reserveCapacity(buffer.count / 5)
            lexer.run(stopAtCloseParen: false)
            return lexer.result
        }
    }

    static let swiftKeywords: Set<String> = [
        "func", "let", "var", "if", "guard", "else", "return", "class", "struct", "enum", "extension", "import", "in",
        "for", "while", "switch", "case", "default", "true", "false", "nil", "self", "Self", "try", "await", "throw",
        "throws", "async", "static", "private", "public", "internal", "fileprivate", "open", "init", "deinit",
        "protocol", "where", "as", "is", "some", "any", "defer", "do", "catch", "break", "continue", "repeat",
        "typealias", "subscript", "inout", "mutating", "lazy", "weak", "unowned", "override", "final", "actor",
    ]

    static let objcKeywords: Set<String> = [
        "if", "else", "return", "for", "while", "switch", "case", "default", "YES", "NO", "nil", "NULL", "self",
        "static", "const", "void", "struct", "typedef", "break", "continue", "do",
    ]

    private let buffer: UnsafeBufferPointer<UInt8>
    private let language: SourceLanguage
    private var index = 0
    private var line: Int32 = 1
    private var lineStart = 0
    private var result = Result()
    /// Nesting of string interpolations; deeper input is kept as string text (no recursion, no stack overflow).
    private var interpolationDepth = 0
    static let maximumInterpolationDepth = 16

    private init(buffer: UnsafeBufferPointer<UInt8>, language: SourceLanguage) {
        self.buffer = buffer
        self.language = language
        keywords = language == .swift ? Self.swiftKeywords : Self.objcKeywords
        keywordShapes = Self.shapes(of: keywords)
    }

    private let keywords: Set<String>
    /// Whether each spelling of ``Result/names`` is a keyword, decided once per spelling.
    private var isKeyword: [Bool] = []
    /// For each first byte, the lengths (bits) of the keywords that start with it: most identifiers are ruled out
    /// without hashing them.
    private let keywordShapes: [UInt64]

    /// The (first byte, length) shapes of `words`, as a table for ``mayBe(_:_:_:)``.
    static func shapes(of words: some Sequence<String>) -> [UInt64] {
        var table = [UInt64](repeating: 0, count: 256)
        for word in words {
            guard let first = word.utf8.first else { continue }
            table[Int(first)] |= 1 << UInt64(min(word.utf8.count, 63))
        }
        return table
    }

    /// Whether a word of `count` bytes starting with `first` can be in the set `table` was made from.
    @inline(__always) static func mayBe(_ table: [UInt64], _ first: UInt8, _ count: Int) -> Bool {
        table[Int(first)] & (1 << UInt64(min(count, 63))) != 0
    }

    private func peek(_ offset: Int = 0) -> UInt8 {
        let position = index + offset
        return position < buffer.count ? buffer[position] : 0
    }

    private var column: Int32 { Int32(index - lineStart + 1) }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
    }

    private mutating func newline() {
        line += 1
        lineStart = index + 1
    }

    private mutating func append(_ kind: Token.Kind, _ text: String, line: Int32, column: Int32) {
        result.tokens.append(Token(kind: kind, text: text, line: line, column: column))
    }

    @inline(__always) private static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == 0x24 || c >= 0x80
    }

    @inline(__always) private static func isIdentifierBody(_ c: UInt8) -> Bool {
        isIdentifierStart(c) || (c >= 0x30 && c <= 0x39)
    }

    @inline(__always) private static func isOperator(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "!"),
            UInt8(ascii: "*"), UInt8(ascii: "%"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"),
            UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Lexes tokens; inside an interpolation, stops after the `)` that closes it.
    private mutating func run(stopAtCloseParen: Bool) {
        var depth = 0
        while index < buffer.count {
            let c = buffer[index]
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                index += 1
            case UInt8(ascii: "\n"):
                newline()
                index += 1
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                lineComment()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                blockComment()
            case UInt8(ascii: "\""):
                string(hashes: 0, objectiveC: false)
            case UInt8(ascii: "#"):
                hash()
            case UInt8(ascii: "@"):
                at()
            case UInt8(ascii: "'") where language == .objectiveC:
                characterLiteral()
            case UInt8(ascii: "`") where language == .swift:
                backticked()
            case UInt8(ascii: "("):
                depth += 1
                punctuation("(")
            case UInt8(ascii: ")"):
                if stopAtCloseParen, depth == 0 {
                    index += 1
                    return
                }
                depth -= 1
                punctuation(")")
            case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ","),
                UInt8(ascii: ":"), UInt8(ascii: ";"):
                punctuation(String(UnicodeScalar(c)))
            case UInt8(ascii: "."):
                if peek(1) == UInt8(ascii: ".") {
                    let start = index
                    let column = self.column
                    while index < buffer.count, buffer[index] == UInt8(ascii: ".") || buffer[index] == UInt8(ascii: "<")
                    {
                        index += 1
                    }
                    append(.operator, text(start, index), line: line, column: column)
                } else {
                    punctuation(".")
                }
            case UInt8(ascii: "?"):
                if peek(1) == UInt8(ascii: "?") {
                    let column = self.column
                    index += 2
                    append(.operator, "??", line: line, column: column)
                } else {
                    punctuation("?")
                }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                number()
            default:
                if Self.isIdentifierStart(c) {
                    identifier()
                } else if Self.isOperator(c) {
                    operatorRun()
                } else {
                    let column = self.column
                    index += 1
                    append(.operator, String(UnicodeScalar(c)), line: line, column: column)
                }
            }
        }
        if stopAtCloseParen {
            result.notes.append(LexerNote(line: line, message: "unterminated string interpolation"))
        }
    }

    private mutating func punctuation(_ symbol: String) {
        append(.punctuation, symbol, line: line, column: column)
        index += 1
    }

    private mutating func lineComment() {
        let start = index
        while index < buffer.count, buffer[index] != UInt8(ascii: "\n") { index += 1 }
        result.comments.append(Comment(line: line, endLine: line, text: text(start, index)))
    }

    private mutating func blockComment() {
        let start = index
        let startLine = line
        index += 2
        var depth = 1
        while index < buffer.count, depth > 0 {
            let c = buffer[index]
            if c == UInt8(ascii: "\n") {
                newline()
                index += 1
            } else if c == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*"), language == .swift {
                depth += 1
                index += 2
            } else if c == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
            } else {
                index += 1
            }
        }
        if depth > 0 { result.notes.append(LexerNote(line: startLine, message: "unterminated block comment")) }
        result.comments.append(Comment(line: startLine, endLine: line, text: text(start, index)))
    }

    private mutating func identifier() {
        let start = index
        let column = self.column
        index += 1
        while index < buffer.count, Self.isIdentifierBody(buffer[index]) { index += 1 }
        let (name, isNew) = result.names.intern(UnsafeBufferPointer(rebasing: buffer[start..<index]))
        let word = result.names[name]
        if isNew {
            isKeyword.append(Self.mayBe(keywordShapes, buffer[start], index - start) && keywords.contains(word))
        }
        result.tokens.append(
            Token(
                kind: isKeyword[Int(name)] ? .keyword : .identifier, text: word, line: line, column: column,
                name: name))
    }

    private mutating func backticked() {
        let column = self.column
        index += 1
        let start = index
        while index < buffer.count, buffer[index] != UInt8(ascii: "`"), buffer[index] != UInt8(ascii: "\n") {
            index += 1
        }
        let (name, isNew) = result.names.intern(UnsafeBufferPointer(rebasing: buffer[start..<index]))
        if isNew { isKeyword.append(keywords.contains(result.names[name])) }
        result.tokens.append(Token(kind: .identifier, text: result.names[name], line: line, column: column, name: name))
        if index < buffer.count, buffer[index] == UInt8(ascii: "`") { index += 1 }
    }

    private mutating func number() {
        let start = index
        let column = self.column
        let hex = peek(0) == UInt8(ascii: "0") && peek(1) | 0x20 == UInt8(ascii: "x")
        while index < buffer.count {
            let c = buffer[index]
            if Self.isIdentifierBody(c) {
                index += 1
            } else if c == UInt8(ascii: "."), peek(1) >= UInt8(ascii: "0"), peek(1) <= UInt8(ascii: "9") {
                index += 1
            } else if c == UInt8(ascii: "-") || c == UInt8(ascii: "+"),
                buffer[index - 1] | 0x20 == (hex ? UInt8(ascii: "p") : UInt8(ascii: "e"))
            {
                index += 1  // an exponent sign: 1e-3, 0x1p+4
            } else {
                break
            }
        }
        append(.number, text(start, index), line: line, column: column)
    }

    private mutating func operatorRun() {
        let start = index
        let column = self.column
        while index < buffer.count, Self.isOperator(buffer[index]) {
            // A comment start ends the operator.
            if buffer[index] == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") || peek(1) == UInt8(ascii: "*"),
                index > start
            {
                break
            }
            index += 1
        }
        append(.operator, text(start, index), line: line, column: column)
    }

    private mutating func at() {
        let column = self.column
        if language == .objectiveC, peek(1) == UInt8(ascii: "\"") {
            index += 1
            string(hashes: 0, objectiveC: true, column: column)
            return
        }
        index += 1
        let start = index
        while index < buffer.count, Self.isIdentifierBody(buffer[index]) { index += 1 }
        let name = text(start, index)
        if language == .objectiveC {
            append(.keyword, "@" + name, line: line, column: column)
        } else {
            append(.attribute, name, line: line, column: column)
        }
    }

    private mutating func hash() {
        if language == .objectiveC {
            // A preprocessor line (continued with a backslash).
            let start = index
            let column = self.column
            let startLine = line
            while index < buffer.count {
                if buffer[index] == UInt8(ascii: "\n") {
                    if index > 0, buffer[index - 1] == UInt8(ascii: "\\") {
                        newline()
                        index += 1
                        continue
                    }
                    break
                }
                index += 1
            }
            append(.directive, text(start, index), line: startLine, column: column)
            return
        }
        var hashes = 0
        while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
        if peek(hashes) == UInt8(ascii: "\"") {
            let column = self.column
            index += hashes
            string(hashes: hashes, objectiveC: false, column: column)
            return
        }
        let start = index
        let column = self.column
        index += 1
        while index < buffer.count, Self.isIdentifierBody(buffer[index]) { index += 1 }
        append(.directive, text(start, index), line: line, column: column)
    }

    private mutating func characterLiteral() {
        let column = self.column
        index += 1
        while index < buffer.count, buffer[index] != UInt8(ascii: "'"), buffer[index] != UInt8(ascii: "\n") {
            if buffer[index] == UInt8(ascii: "\\") { index += 1 }
            index += 1
        }
        if index < buffer.count, buffer[index] == UInt8(ascii: "'") { index += 1 }
        append(.number, "'c'", line: line, column: column)
    }

    /// A string literal starting at the opening quote (after any `#`s).
    private mutating func string(hashes: Int, objectiveC: Bool, column: Int32? = nil) {
        let startLine = line
        let column = column ?? self.column
        let multiline = !objectiveC && peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
        index += multiline ? 3 : 1
        let slot = result.tokens.count
        append(.string, "", line: startLine, column: column)
        var value: [UInt8] = []
        var interpolated = false
        var segmentStart = index

        func flush(_ lexer: Lexer, _ end: Int) {
            if end > segmentStart {
                value.append(contentsOf: UnsafeBufferPointer(rebasing: lexer.buffer[segmentStart..<end]))
            }
        }

        func closes(_ lexer: Lexer) -> Bool {
            // The closing delimiter: `"` (or `"""`) followed by the same number of `#`.
            let quotes = multiline ? 3 : 1
            for offset in 0..<quotes where lexer.peek(offset) != UInt8(ascii: "\"") { return false }
            for offset in 0..<hashes where lexer.peek(quotes + offset) != UInt8(ascii: "#") { return false }
            return true
        }

        var terminated = false
        while index < buffer.count {
            let c = buffer[index]
            if c == UInt8(ascii: "\""), closes(self) {
                flush(self, index)
                index += (multiline ? 3 : 1) + hashes
                terminated = true
                break
            }
            if c == UInt8(ascii: "\n") {
                if !multiline {
                    break
                }
                flush(self, index + 1)
                newline()
                index += 1
                segmentStart = index
                continue
            }
            if c == UInt8(ascii: "\\") {
                // Escapes need the same number of `#` in raw strings.
                var matched = true
                for offset in 0..<hashes where peek(1 + offset) != UInt8(ascii: "#") { matched = false }
                if !matched {
                    index += 1
                    continue
                }
                let after = peek(1 + hashes)
                if after == UInt8(ascii: "("), !objectiveC, interpolationDepth >= Self.maximumInterpolationDepth {
                    if result.notes.last?.message != "string interpolations nested too deeply" {
                        result.notes.append(LexerNote(line: line, message: "string interpolations nested too deeply"))
                    }
                    index += 2 + hashes
                    continue
                }
                if after == UInt8(ascii: "("), !objectiveC {
                    flush(self, index)
                    value.append(contentsOf: [0xEF, 0xBF, 0xBC])  // U+FFFC
                    interpolated = true
                    let startColumn = self.column
                    index += 2 + hashes
                    append(.interpolationStart, "\\(", line: line, column: startColumn)
                    interpolationDepth += 1
                    run(stopAtCloseParen: true)
                    interpolationDepth -= 1
                    append(.interpolationEnd, ")", line: line, column: self.column - 1)
                    segmentStart = index
                    continue
                }
                flush(self, index)
                let escaped = after
                switch escaped {
                case UInt8(ascii: "n"): value.append(0x0A)
                case UInt8(ascii: "t"): value.append(0x09)
                case UInt8(ascii: "r"): value.append(0x0D)
                case UInt8(ascii: "0"): value.append(0)
                case UInt8(ascii: "\n"):
                    newline()  // a line continuation in a multi-line string
                default: value.append(escaped)
                }
                index += 2 + hashes
                segmentStart = index
                continue
            }
            index += 1
        }
        if !terminated {
            if index >= buffer.count { flush(self, index) }
            result.notes.append(LexerNote(line: startLine, message: "unterminated string literal"))
        }
        result.tokens[slot] = Token(
            kind: .string, text: String(decoding: value, as: UTF8.self), line: startLine, column: column,
            isInterpolated: interpolated)
    }
}
