/// Why user-typed input was refused; ``userMessage`` is safe to show in a UI (it never echoes the input).
public struct InputError: CodedError {
    /// A stable error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Sendable {
            case empty
            case tooShort = "too_short"
            case tooLong = "too_long"
            case controlCharacter = "control_character"
            case bidiControl = "bidi_control"
            case invalidEncoding = "invalid_encoding"
            case invalidCharacter = "invalid_character"
            case invalidFormat = "invalid_format"
        }
        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        /// Nothing (or only whitespace) was entered.
        public static let empty = Code(.empty)
        /// Fewer characters than the policy's minimum.
        public static let tooShort = Code(.tooShort)
        /// More characters (grapheme clusters) or UTF-8 bytes than allowed.
        public static let tooLong = Code(.tooLong)
        /// NUL, a C0 or C1 control character.
        public static let controlCharacter = Code(.controlCharacter)
        /// A bidirectional override or isolate (Trojan-source style reordering).
        public static let bidiControl = Code(.bidiControl)
        /// Invalid UTF-8 or an unpaired UTF-16 surrogate.
        public static let invalidEncoding = Code(.invalidEncoding)
        /// A character the preset does not allow (a space in a username, a letter in a one-time code).
        public static let invalidCharacter = Code(.invalidCharacter)
        /// The overall shape is wrong (an email address without a domain, a code of the wrong length).
        public static let invalidFormat = Code(.invalidFormat)
    }

    public let code: Code
    /// A sentence a UI can show. It never contains the input.
    public let userMessage: String
    /// Where Warden raised the error (`#fileID`: module and file), for bug reports; never compared by `==`.
    public let file: String
    /// The line of ``file``.
    public let line: Int
    public var reason: String { userMessage }
    public var failureKind: FailureKind { .rejected }

    /// Creates an error.
    public init(_ code: Code, _ userMessage: String, file: String = #fileID, line: Int = #line) {
        self.file = file
        self.line = line
        self.code = code
        self.userMessage = userMessage
    }
}
