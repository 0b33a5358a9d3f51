import Foundation
import Testing

@testable import WardenAudit

@Suite("Swift and Objective-C lexer")
struct LexerTests {
    static func kinds(_ source: String, _ language: SourceLanguage = .swift) -> [String] {
        Lexer.lex(Array(source.utf8), language: language).tokens.map { "\($0.kind):\($0.text)" }
    }

    @Test func nestedBlockCommentsAndLineComments() {
        let result = Lexer.lex(Array("a /* x /* y */ UIWebView */ b // UIWebView\nc".utf8))
        #expect(result.tokens.map(\.text) == ["a", "b", "c"])
        #expect(result.comments.count == 2)
        #expect(result.tokens[2].line == 2)
    }

    @Test func stringsKeepTheirValueAndInterpolationsAreTokens() {
        let tokens = Lexer.lex(Array(#"print("a \(token.count) b", "q\"x")"#.utf8)).tokens
        #expect(
            tokens.map(\.kind) == [
                .identifier, .punctuation, .string, .interpolationStart, .identifier, .punctuation, .identifier,
                .interpolationEnd, .punctuation, .string, .punctuation,
            ])
        #expect(tokens[2].text == "a \u{FFFC} b" && tokens[2].isInterpolated)
        #expect(tokens[9].text == "q\"x")
    }

    @Test func nestedInterpolationWithStringsInside() {
        let tokens = Lexer.lex(Array(#"let s = "a \(f("b \(c)")) d""#.utf8)).tokens
        #expect(tokens.filter { $0.kind == .string }.map(\.text) == ["a \u{FFFC} d", "b \u{FFFC}"])
        #expect(tokens.contains { $0.text == "c" && $0.kind == .identifier })
    }

    @Test func rawStringsIgnorePlainEscapes() {
        let tokens = Lexer.lex(Array(##"let r = #"a "b" \(x) \#(y)"#"##.utf8)).tokens
        let string = tokens.first { $0.kind == .string }!
        #expect(string.text == #"a "b" \(x) "# + "\u{FFFC}")
        #expect(!tokens.contains { $0.text == "x" })
        #expect(tokens.contains { $0.text == "y" })
    }

    @Test func multilineStrings() {
        let source = "let m = \"\"\"\n    line \"quoted\"\n    \\(value)\n    \"\"\"\nnext"
        let result = Lexer.lex(Array(source.utf8))
        #expect(result.tokens.first { $0.kind == .string }?.text.contains("line \"quoted\"") == true)
        #expect(result.tokens.contains { $0.text == "value" && $0.line == 3 })
        #expect(result.tokens.last?.text == "next" && result.tokens.last?.line == 5)
    }

    @Test func identifiersKeywordsNumbersOperatorsAttributes() {
        #expect(
            Self.kinds("@AppStorage(\"k\") var `class` = 0x1p-3 ..< 1_000 && a?.b ?? c")
                == [
                    "attribute:AppStorage", "punctuation:(", "string:k", "punctuation:)", "keyword:var",
                    "identifier:class", "operator:=", "number:0x1p-3", "operator:..<", "number:1_000", "operator:&&",
                    "identifier:a", "punctuation:?", "punctuation:.", "identifier:b", "operator:??", "identifier:c",
                ])
        #expect(Self.kinds("#if DEBUG\n#endif") == ["directive:#if", "identifier:DEBUG", "directive:#endif"])
    }

    @Test func objectiveCStringsAndPreprocessor() {
        let tokens = Lexer.lex(
            Array("#import <Foo/Foo.h>\nNSLog(@\"token %@\", token); char c = 'x'; @interface".utf8),
            language: .objectiveC
        ).tokens
        #expect(tokens[0].kind == .directive && tokens[0].text == "#import <Foo/Foo.h>")
        #expect(tokens.contains { $0.kind == .string && $0.text == "token %@" })
        #expect(tokens.contains { $0.kind == .keyword && $0.text == "@interface" })
    }

    @Test func malformedInputNeverCrashes() {
        for source in ["\"unterminated", "/* open", "\"\\(", "#\"", "`", "\"\"\"\nnever", "@", "\\", "\"\\", "#"] {
            let result = Lexer.lex(Array(source.utf8))
            _ = result.tokens
        }
        #expect(Lexer.lex(Array("/* open".utf8)).notes.first?.message == "unterminated block comment")
        #expect(Lexer.lex(Array("let s = \"abc\nnext".utf8)).tokens.last?.text == "next")
    }

    @Test func megabyteInputs() {
        let deep = String(repeating: "\"\\(", count: 20_000)
        _ = Lexer.lex(Array(deep.utf8))
        let comments = String(repeating: "/*", count: 200_000)
        #expect(Lexer.lex(Array(comments.utf8)).notes.count == 1)
        let big = String(repeating: "let x = foo(a: 1, b: \"s\") // c\n", count: 40_000)
        #expect(Lexer.lex(Array(big.utf8)).tokens.count == 40_000 * 13)
    }

    @Test func callsAndReceivers() {
        let file = SourceFile(
            path: "a.swift", bytes: Array("UserDefaults.standard.set(token, forKey: \"k\")".utf8), language: .swift)
        let index = file.tokens.firstIndex { $0.text == "set" }!
        let call = file.call(at: index)!
        #expect(call.arguments.map(\.label) == [nil, "forKey"])
        #expect(file.receiver(of: index) == ["UserDefaults", "standard"])
    }

    @Test func secretNames() {
        for secret in [
            "token", "accessToken", "APIKey", "api_key", "refresh_token", "userPassword", "sessionId", "pin", "otpCode",
            "privateKey", "clientSecret", "jwt", "credentialToken", "handlerSecret",
        ] {
            #expect(SecretNames.isSecret(secret), "\(secret)")
        }
        for plain in [
            "tokenizer", "spinner", "tokenKey", "hasToken", "passwordField", "pinnedHeader", "shipping", "tokenURL",
            "isPasswordValid", "sessionManager", "mapping", "socketHandlerToken", "listenerToken",
        ] {
            #expect(!SecretNames.isSecret(plain), "\(plain)")
        }
    }

    /// The byte splitter of ASCII names agrees with the `Character` splitter on every identifier and string of the
    /// fixture app and on the edge cases of camel case, acronyms, digits and separators.
    @Test func asciiWordSplittingAgreesWithTheCharacterSplitter() throws {
        let cases = [
            "", "_", "__a__", "accessToken", "APIKey", "api_key", "URLSessionTask", "HTTPSProxyURL", "sha256Hash",
            "v2Token", "token2FA", "a", "A", "AB", "aB", "Ab", "ABc", "x1Y2z3", "kSecAttrAccount", "my-refresh.token",
            "PIN", "otpCode", "OAuth2Client", "user_PASSWORD_hash", "JSONWebTokenJWT", "a b\tc\nd", "\r\nTOKEN\r\n",
        ]
        var names = Set(cases)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
        for path in files where path.hasSuffix(".swift") || path.hasSuffix(".m") {
            let file = SourceFile(
                path: path, bytes: Array(try Data(contentsOf: root.appendingPathComponent(path))),
                language: path.hasSuffix(".m") ? .objectiveC : .swift)
            for token in file.tokens where token.kind == .identifier || token.kind == .string {
                names.insert(token.text)
            }
        }
        #expect(names.count > 1_000)
        for name in names where name.utf8.allSatisfy({ $0 < 0x80 }) {
            #expect(SecretNames.asciiWords(name) == SecretNames.characterWords(name), "\(name)")
        }
        // Every string of up to five of these characters: case changes, digits, separators and a CRLF.
        let alphabet = ["A", "a", "1", "_", "\r\n", "B"]
        var strings = [""]
        for _ in 0..<5 {
            strings += strings.filter { $0.count == strings.last!.count }.flatMap { s in alphabet.map { s + $0 } }
        }
        #expect(strings.count > 9_000)
        for name in strings { #expect(SecretNames.asciiWords(name) == SecretNames.characterWords(name), "\(name)") }
        #expect(SecretNames.words("HTTPSProxyURL") == ["https", "proxy", "url"])
        #expect(SecretNames.words("sha256Hash") == ["sha256", "hash"])
        #expect(SecretNames.words("clé_Secrète") == ["clé", "secrète"])
    }

    @Test func stemSetsFindAnyStemIgnoringCase() {
        let stems = StemSet(["token", "pw", "iv"])
        for text in ["token", "AccessTOKEN", "x_Pw", "IV", "aTokeN1"] { #expect(stems.occurs(in: text), "\(text)") }
        for text in ["", "toke", "tokne", "p", "w", "i", "v_", "éi"] { #expect(!stems.occurs(in: text), "\(text)") }
        #expect(stems.occurs(in: "épw"))
        for name in ["tokenizer", "spinner", "kSecAttrAccount", "ivory", "nothing", "oauthState", "SEED", "x"] {
            #expect(
                SecretNames.secretStemSet.occurs(in: name)
                    == SecretNames.secretStems.contains { FastText.contains(name, $0, caseInsensitive: true) })
            #expect(
                SecretNames.randomStemSet.occurs(in: name)
                    == SecretNames.randomStems.contains { FastText.contains(name, $0, caseInsensitive: true) })
        }
    }

    @Test func namesThatNeedSecureAndUnguessableValues() {
        for name in ["oauthState", "nonce", "codeVerifier", "resetCode", "salt", "iv", "sessionKey", "csrfToken"] {
            #expect(SecretNames.needsSecureRandom(name), "\(name)")
        }
        for name in ["statusCode", "countryCode", "deviceToken", "isNonceValid", "stateMachine", "kSecAttrService"] {
            #expect(!SecretNames.needsSecureRandom(name), "\(name)")
        }
        for name in ["oauthState", "nonce", "codeVerifier", "resetCode", "csrfToken", "clientSecret"] {
            #expect(SecretNames.needsUnguessable(name), "\(name)")
        }
        for name in ["salt", "iv", "sessionKey", "connectionToken", "statusCode"] {
            #expect(!SecretNames.needsUnguessable(name), "\(name)")
        }
    }
}
