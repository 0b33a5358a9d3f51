/// One lexical token of a Swift or Objective-C source file.
///
/// Tokens never come from comments or from the literal text of strings: a rule that looks at tokens cannot
/// fire on a comment or on unrelated string contents. String literals are single tokens whose ``text`` is the
/// literal value; the expressions of interpolations follow them as ordinary tokens between
/// ``Kind/interpolationStart`` and ``Kind/interpolationEnd``.
package struct Token: Sendable, Equatable {
    package enum Kind: UInt8, Sendable {
        case identifier
        case keyword
        /// A string literal; ``Token/text`` is its value with each interpolation replaced by U+FFFC.
        case string
        case number
        /// An operator (`==`, `=`, `!`, `&&`, `->` ...).
        case `operator`
        /// `(` `)` `[` `]` `{` `}` `,` `:` `;` `.` `?`
        case punctuation
        /// `@Name` (property wrappers and attributes); ``Token/text`` is the name without `@`.
        case attribute
        /// `#if`, `#available`, `#selector`, `#import` ...; ``Token/text`` includes the `#`.
        case directive
        case interpolationStart
        case interpolationEnd
    }

    package let kind: Kind
    package let text: String
    /// 1-based line and column (in UTF-8 bytes) of the first byte.
    package let line: Int32
    package let column: Int32
    /// Whether a string literal contains interpolations.
    package let isInterpolated: Bool
    /// For an identifier or a word keyword (not an Objective-C `@keyword`), the number of its spelling in the file's ``NameTable`` (equal spellings,
    /// equal numbers); -1 for every other token.
    package let name: Int32

    package init(kind: Kind, text: String, line: Int32, column: Int32, isInterpolated: Bool = false, name: Int32 = -1) {
        self.kind = kind
        self.text = text
        self.line = line
        self.column = column
        self.isInterpolated = isInterpolated
        self.name = name
    }

    /// `true` for punctuation or an operator spelled `symbol`.
    @inlinable package func isSymbol(_ symbol: String) -> Bool {
        (kind == .punctuation || kind == .operator) && text == symbol
    }
}

/// A comment, kept apart from the tokens (for suppressions).
package struct Comment: Sendable, Equatable {
    package let line: Int32
    /// The last line the comment covers.
    package let endLine: Int32
    package let text: String
}

/// Why a file could not be lexed completely (an unterminated string or comment); the tokens up to that point
/// are still returned.
package struct LexerNote: Sendable, Equatable {
    package let line: Int32
    package let message: String
}
