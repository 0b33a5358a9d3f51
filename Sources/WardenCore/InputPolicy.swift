import Foundation

/// Validation and normalisation of user-typed credentials and identifiers.
///
/// Input is normalised to Unicode NFKC *before* any length check and before it is sent, so that visually
/// identical strings compare equal and fullwidth digits become ASCII digits. It is then refused when it holds
/// NUL, C0/C1 controls (except the newline and tab that free text allows), bidirectional overrides and isolates
/// (U+202A–U+202E, U+2066–U+2069, and the implicit marks U+200E/U+200F/U+061C), or when it is over the bounds in
/// grapheme clusters or UTF-8 bytes. Raw bytes and UTF-16 are checked for invalid UTF-8 and unpaired surrogates.
///
/// Client-side validation is a convenience for the user, never the authority: the server must validate again.
///
/// ```swift
/// let username = try InputPolicy.username.validate(field.text ?? "")     // normalised value to send
/// let code = try InputPolicy.oneTimeCode(length: 6).validate("１２３４５６")  // "123456"
/// ```
///
/// Thread-safety: a value type; `Sendable`.
public struct InputPolicy: Sendable {
    /// Which characters a preset admits after the universal checks.
    public enum Characters: Sendable {
        /// Anything printable (free text).
        case printable
        /// Letters, marks, numbers and `. _ - @ +` (usernames).
        case identifier
        /// ASCII digits only (one-time codes).
        case digits
        /// Light email syntax (see ``InputPolicy/email``).
        case email
    }

    /// Minimum length in grapheme clusters.
    public var minimumCharacters: Int
    /// Maximum length in grapheme clusters.
    public var maximumCharacters: Int
    /// Maximum length in UTF-8 bytes after normalisation.
    public var maximumBytes: Int
    /// Character repertoire.
    public var characters: Characters
    /// Whether newlines and tabs are allowed (free text only).
    public var allowsLineBreaks: Bool
    /// Trim leading and trailing whitespace before validating.
    public var trimsWhitespace: Bool

    /// A custom policy.
    public init(
        minimumCharacters: Int = 1, maximumCharacters: Int, maximumBytes: Int, characters: Characters,
        allowsLineBreaks: Bool = false, trimsWhitespace: Bool = true
    ) {
        self.minimumCharacters = minimumCharacters
        self.maximumCharacters = maximumCharacters
        self.maximumBytes = maximumBytes
        self.characters = characters
        self.allowsLineBreaks = allowsLineBreaks
        self.trimsWhitespace = trimsWhitespace
    }

    /// Usernames: 1–64 characters, ≤ 256 bytes, letters/marks/numbers and `. _ - @ +`, no spaces.
    public static let username = InputPolicy(maximumCharacters: 64, maximumBytes: 256, characters: .identifier)
    /// Email addresses: ≤ 254 bytes, one `@`, a local part ≤ 64 bytes, a domain of dot-separated labels
    /// (internationalised labels allowed, each ≤ 63 characters, no leading or trailing hyphen).
    public static let email = InputPolicy(
        minimumCharacters: 3, maximumCharacters: 254, maximumBytes: 254, characters: .email)
    /// Free text (a display name, a support message): ≤ 1000 characters and 4000 bytes, line breaks allowed.
    public static let freeText = InputPolicy(
        maximumCharacters: 1000, maximumBytes: 4000, characters: .printable, allowsLineBreaks: true)

    /// One-time codes: exactly `length` ASCII digits after NFKC (fullwidth digits are accepted and mapped).
    public static func oneTimeCode(length: Int = 6) -> InputPolicy {
        InputPolicy(minimumCharacters: length, maximumCharacters: length, maximumBytes: length, characters: .digits)
    }

    /// The largest raw input looked at; anything bigger is refused before normalisation (bounded work).
    public static let maximumRawBytes = 64 * 1024

    /// Validates raw UTF-8 bytes (invalid UTF-8, including encoded surrogates, is refused).
    public func validate(utf8 bytes: some Collection<UInt8>) throws(InputError) -> String {
        guard bytes.count <= Self.maximumRawBytes else { throw InputError(.tooLong, "This is too long.") }
        guard let text = UTF8Validation.string(bytes) else {
            throw InputError(.invalidEncoding, "This contains invalid characters.")
        }
        return try validate(text)
    }

    /// Validates UTF-16 code units (unpaired surrogates are refused).
    public func validate(utf16 units: some Collection<UInt16>) throws(InputError) -> String {
        guard units.count <= Self.maximumRawBytes else { throw InputError(.tooLong, "This is too long.") }
        var scalars = String.UnicodeScalarView()
        var iterator = units.makeIterator()
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: break loop
            case .error: throw InputError(.invalidEncoding, "This contains invalid characters.")
            }
        }
        return try validate(String(scalars))
    }

    /// Validates `input` and returns its normalised (NFKC) form — the value to store or send.
    public func validate(_ input: String) throws(InputError) -> String {
        guard input.utf8.count <= Self.maximumRawBytes else { throw InputError(.tooLong, "This is too long.") }
        // Controls and bidi characters are checked before normalisation too: NFKC keeps them, but checking the
        // raw input means no normalisation quirk can smuggle one in.
        try checkScalars(input)
        var value = input.precomposedStringWithCompatibilityMapping
        try checkScalars(value)
        if trimsWhitespace { value = value.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard !value.isEmpty else { throw InputError(.empty, "Please enter a value.") }
        switch characters {
        case .printable: break
        case .digits:
            guard value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw InputError(.invalidCharacter, "Use digits only.")
            }
        case .identifier:
            for scalar in value.unicodeScalars where !Self.isIdentifierScalar(scalar) {
                throw InputError(.invalidCharacter, "Use letters, numbers and . _ - @ + only.")
            }
        case .email:
            try Self.checkEmail(value)
        }
        let characterCount = value.count
        guard characterCount >= minimumCharacters else {
            throw InputError(.tooShort, "Use at least \(minimumCharacters) characters.")
        }
        guard characterCount <= maximumCharacters, value.utf8.count <= maximumBytes else {
            throw InputError(.tooLong, "Use at most \(maximumCharacters) characters.")
        }
        return value
    }

    private func checkScalars(_ text: String) throws(InputError) {
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v == 0x0A || v == 0x09 || v == 0x0D {
                guard allowsLineBreaks || trimsWhitespace else {
                    throw InputError(.controlCharacter, "This contains a control character.")
                }
                continue
            }
            if v < 0x20 || (v >= 0x7F && v <= 0x9F) {
                throw InputError(.controlCharacter, "This contains a control character.")
            }
            if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
                || v == 0x061C
            {
                throw InputError(.bidiControl, "This contains an invisible text-direction character.")
            }
        }
        if !allowsLineBreaks {
            // Inner line breaks are never part of a one-line value; outer ones are trimmed.
            let inner = trimsWhitespace ? text.trimmingCharacters(in: .whitespacesAndNewlines) : text
            if inner.unicodeScalars.contains(where: { $0.value == 0x0A || $0.value == 0x0D || $0.value == 0x09 }) {
                throw InputError(.controlCharacter, "This contains a control character.")
            }
        }
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return ".-_@+".unicodeScalars.contains(scalar)
        }
    }

    private static func checkEmail(_ value: String) throws(InputError) {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64, !parts[1].isEmpty else {
            throw InputError(.invalidFormat, "Enter an email address like name@example.com.")
        }
        let local = parts[0]
        let allowedLocal = CharacterSet(charactersIn: "!#$%&'*+/=?^_`{|}~.-")
        for scalar in local.unicodeScalars {
            guard
                scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                    || allowedLocal.contains(scalar)
            else { throw InputError(.invalidCharacter, "The part before @ contains a character that is not allowed.") }
        }
        guard !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else {
            throw InputError(.invalidFormat, "Enter an email address like name@example.com.")
        }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { throw InputError(.invalidFormat, "The domain needs a dot, like example.com.") }
        for label in labels {
            guard !label.isEmpty, label.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-") else {
                throw InputError(.invalidFormat, "The domain is not valid.")
            }
            for scalar in label.unicodeScalars {
                guard
                    scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "-"
                        || scalar.properties.generalCategory == .nonspacingMark
                        || scalar.properties.generalCategory == .spacingMark
                else { throw InputError(.invalidCharacter, "The domain contains a character that is not allowed.") }
            }
        }
    }
}
