import Foundation
import Testing
import WardenCore

@Suite("InputPolicy")
struct InputPolicyTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let policy: String
        let input: String
        let result: Result
        enum Result: Sendable {
            case accepted(String)
            case rejected(InputError.Code)
        }
        var testDescription: String {
            "\(policy): \(input.unicodeScalars.prefix(24).map { $0.isASCII && $0.value >= 0x20 ? String($0) : String(format: "\\u{%X}", $0.value) }.joined())"
        }
    }

    static func policy(_ name: String) -> InputPolicy {
        switch name {
        case "username": .username
        case "email": .email
        case "otp": .oneTimeCode(length: 6)
        default: .freeText
        }
    }

    static let cases: [Case] = [
        // username
        Case(policy: "username", input: "alice", result: .accepted("alice")),
        Case(policy: "username", input: "  alice.b-c_d@e+f ", result: .accepted("alice.b-c_d@e+f")),
        Case(policy: "username", input: "ｊｏｈｎ", result: .accepted("john")),  // NFKC folds fullwidth
        Case(policy: "username", input: "ﬁle", result: .accepted("file")),  // NFKC folds the ligature
        Case(policy: "username", input: "José", result: .accepted("José")),
        Case(policy: "username", input: "Jose\u{301}", result: .accepted("José")),  // composed
        Case(policy: "username", input: "", result: .rejected(.empty)),
        Case(policy: "username", input: "   ", result: .rejected(.empty)),
        Case(policy: "username", input: "al ice", result: .rejected(.invalidCharacter)),
        Case(policy: "username", input: "alice\u{0}", result: .rejected(.controlCharacter)),
        Case(policy: "username", input: "al\u{7}ice", result: .rejected(.controlCharacter)),
        Case(policy: "username", input: "al\u{85}ice", result: .rejected(.controlCharacter)),  // C1 NEL
        Case(policy: "username", input: "al\u{9B}ice", result: .rejected(.controlCharacter)),  // C1 CSI
        Case(policy: "username", input: "al\u{7F}ice", result: .rejected(.controlCharacter)),  // DEL
        Case(policy: "username", input: "admin\u{202E}nimda", result: .rejected(.bidiControl)),
        Case(policy: "username", input: "a\u{2066}b\u{2069}", result: .rejected(.bidiControl)),
        Case(policy: "username", input: "a\u{200F}b", result: .rejected(.bidiControl)),
        Case(policy: "username", input: "a\nb", result: .rejected(.controlCharacter)),
        Case(policy: "username", input: String(repeating: "a", count: 65), result: .rejected(.tooLong)),
        Case(
            policy: "username", input: String(repeating: "a", count: 64),
            result: .accepted(String(repeating: "a", count: 64))),
        Case(
            policy: "username",
            input: String(repeating: "e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}\u{308}\u{309}", count: 20),
            result: .rejected(.tooLong)),  // 20 grapheme clusters but 340 UTF-8 bytes
        Case(policy: "username", input: String(repeating: "a", count: 1 << 20), result: .rejected(.tooLong)),
        // email
        Case(policy: "email", input: "alice@example.com", result: .accepted("alice@example.com")),
        Case(policy: "email", input: "a.b+tag@sub.example.co.uk", result: .accepted("a.b+tag@sub.example.co.uk")),
        Case(policy: "email", input: "ünï@bücher.de", result: .accepted("ünï@bücher.de")),
        Case(policy: "email", input: "user@例え.テスト", result: .accepted("user@例え.テスト")),
        Case(policy: "email", input: "alice", result: .rejected(.invalidFormat)),
        Case(policy: "email", input: "alice@", result: .rejected(.invalidFormat)),
        Case(policy: "email", input: "@example.com", result: .rejected(.invalidFormat)),
        Case(policy: "email", input: "a@b@example.com", result: .rejected(.invalidFormat)),
        Case(policy: "email", input: "alice@localhost", result: .rejected(.invalidFormat)),
        Case(policy: "email", input: "alice@-bad.com", result: .rejected(.invalidFormat)),
        Case(policy: "email", input: "alice@exa mple.com", result: .rejected(.invalidCharacter)),
        Case(policy: "email", input: "al..ice@example.com", result: .rejected(.invalidFormat)),
        Case(policy: "email", input: "alice@example..com", result: .rejected(.invalidFormat)),
        Case(policy: "email", input: "alice\u{0}@example.com", result: .rejected(.controlCharacter)),
        Case(
            policy: "email", input: String(repeating: "a", count: 65) + "@example.com",
            result: .rejected(.invalidFormat)),
        // one-time codes
        Case(policy: "otp", input: "123456", result: .accepted("123456")),
        Case(policy: "otp", input: "１２３４５６", result: .accepted("123456")),
        Case(policy: "otp", input: " 123456\n", result: .accepted("123456")),
        Case(policy: "otp", input: "12345", result: .rejected(.tooShort)),
        Case(policy: "otp", input: "1234567", result: .rejected(.tooLong)),
        Case(policy: "otp", input: "12345a", result: .rejected(.invalidCharacter)),
        // Arabic-Indic digits are not ASCII digits.
        Case(policy: "otp", input: "١٢٣٤٥٦", result: .rejected(.invalidCharacter)),
        Case(policy: "otp", input: "123 456", result: .rejected(.invalidCharacter)),
        // free text
        Case(policy: "free", input: "Hello,\nworld\t!", result: .accepted("Hello,\nworld\t!")),
        Case(policy: "free", input: "text \u{202D}override", result: .rejected(.bidiControl)),
        Case(policy: "free", input: "bell\u{7}", result: .rejected(.controlCharacter)),
        Case(policy: "free", input: String(repeating: "x", count: 1001), result: .rejected(.tooLong)),
        Case(policy: "free", input: String(repeating: "€", count: 1500), result: .rejected(.tooLong)),
    ]

    @Test(arguments: cases)
    func validates(_ item: Case) {
        let policy = Self.policy(item.policy)
        switch item.result {
        case .accepted(let expected):
            #expect(throws: Never.self) { try policy.validate(item.input) }
            #expect((try? policy.validate(item.input)) == expected)
        case .rejected(let code):
            #expect(throws: InputError(code, "")) { try policy.validate(item.input) }
        }
    }

    @Test func invalidUTF8AndSurrogates() {
        #expect(throws: InputError(.invalidEncoding, "")) {
            try InputPolicy.username.validate(utf8: [0x61, 0xFF, 0x62])
        }
        #expect(throws: InputError(.invalidEncoding, "")) {  // CESU-8 encoded surrogate U+D800
            try InputPolicy.username.validate(utf8: [0x61, 0xED, 0xA0, 0x80])
        }
        // An overlong encoding of "/".
        #expect(throws: InputError(.invalidEncoding, "")) { try InputPolicy.username.validate(utf8: [0xC0, 0xAF]) }
        #expect(throws: InputError(.invalidEncoding, "")) {
            try InputPolicy.username.validate(utf16: [0x61, 0xD800, 0x62])
        }
        #expect(throws: InputError(.invalidEncoding, "")) { try InputPolicy.username.validate(utf16: [0xDC00]) }
        #expect((try? InputPolicy.username.validate(utf16: Array("bob".utf16))) == "bob")
        #expect((try? InputPolicy.username.validate(utf8: Array("bob".utf8))) == "bob")
        #expect(throws: InputError(.tooLong, "")) {
            try InputPolicy.freeText.validate(utf8: [UInt8](repeating: 0x61, count: 1 << 20))
        }
    }

    @Test func messagesNeverEchoTheInput() {
        let secretish = "hunter2-secret-value-1234"
        do {
            _ = try InputPolicy.username.validate(secretish + " x")
            Issue.record("expected rejection")
        } catch {
            #expect(!error.userMessage.contains("hunter2") && !"\(error)".contains("hunter2"))
        }
    }
}
