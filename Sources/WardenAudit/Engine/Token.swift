/// One lexical token of a Swift or Objective-C source file.
///
/// Tokens never come from comments or from the literal text of strings: a rule that looks at tokens cannot
/// fire on a comment or on unrelated string contents. String literals are single tokens whose ``text`` is the
/// literal value; the expressions of interpolations follow them as ordinary tokens between
/// ``Kind/interpolationStart`` and ``Kind/interpolationEnd``.
public struct Token: Sendable, Equatable {
    public enum Kind: UInt8, Sendable {
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

    public let kind: Kind
    public let text: String
    /// 1-based line and column (in UTF-8 bytes) of the first byte.
    public let line: Int32
    public let column: Int32
    /// Whether a string literal contains interpolations.
    public let isInterpolated: Bool

    public init(kind: Kind, text: String, line: Int32, column: Int32, isInterpolated: Bool = false) {
        self.kind = kind
        self.text = text
        self.line = line
        self.column = column
        self.isInterpolated = isInterpolated
    }

    /// `true` for punctuation or an operator spelled `symbol`.
    @inlinable public func isSymbol(_ symbol: String) -> Bool {
        (kind == .punctuation || kind == .operator) && text == symbol
    }
}

/// A comment, kept apart from the tokens (for suppressions).
public struct Comment: Sendable, Equatable {
    public let line: Int32
    /// The last line the comment covers.
    public let endLine: Int32
    public let text: String
}

/// Why a file could not be lexed completely (an unterminated string or comment); the tokens up to that point
/// are still returned.
public struct LexerNote: Sendable, Equatable {
    public let line: Int32
    public let message: String
}
