import Foundation
import Testing
import WardenCore
import WardenTestSupport

@Suite("Redactor")
struct RedactorTests {
    static let jwt =
        "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.c2lnbmF0dXJlLWJ5dGVzLWhlcmUtMTIzNDU2"

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let input: String
        let expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "query parameters",
            input: "GET https://app.example.com/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj&x=1",
            expected: "GET https://app.example.com/cb?code=<redacted …SbIA>&state=<redacted>&x=1"),
        Case(
            name: "fragment parameters, any case",
            input: "com.example.app:/cb#Access_Token=abcdefghijklmnopqrstuvwxyz&token_type=Bearer",
            expected: "com.example.app:/cb#Access_Token=<redacted …wxyz>&token_type=Bearer"),
        Case(
            name: "every listed parameter",
            input:
                "id_token=a&refresh_token=b&client_secret=c&code_verifier=d&password=e&token=f&assertion=g&oauth_token=h&oauth_signature=i&oauth_verifier=j",
            expected:
                "id_token=<redacted>&refresh_token=<redacted>&client_secret=<redacted>&code_verifier=<redacted>&password=<redacted>&token=<redacted>&assertion=<redacted>&oauth_token=<redacted>&oauth_signature=<redacted>&oauth_verifier=<redacted>"
        ),
        Case(
            name: "userinfo", input: "fetching https://alice:hunter2@api.example.com/v1",
            expected: "fetching https://<redacted>@api.example.com/v1"),
        Case(
            name: "authorization header keeps the scheme",
            input: "Authorization: Bearer abcdefghijklmnop1234\nAccept: */*",
            expected: "Authorization: Bearer <redacted …1234>\nAccept: */*"),
        Case(
            name: "cookie headers", input: "Cookie: sid=abc; theme=dark\nSet-Cookie: sid=xyz; HttpOnly",
            expected: "Cookie: <redacted …dark>\nSet-Cookie: <redacted …Only>"),
        Case(
            name: "DPoP and X-Api-Key", input: "DPoP: proofproof\nX-Api-Key: k-123",
            expected: "DPoP: <redacted>\nX-Api-Key: <redacted>"),
        Case(
            name: "JSON members at any depth",
            input:
                #"{"access_token":"abcdefghijklmnopqrstuvwxyz0123","nested":{"refresh_token" : "r1"},"expires_in":3600,"list":[{"password":"p\"w"}]}"#,
            expected:
                #"{"access_token":"<redacted …0123>","nested":{"refresh_token" : "<redacted>"},"expires_in":3600,"list":[{"password":"<redacted>"}]}"#
        ),
        Case(
            name: "JSON non-string secret", input: #"{"pin": 1234, "otp": null}"#,
            expected: #"{"pin": <redacted>, "otp": null}"#),
        Case(
            name: "JWT in free text", input: "got token \(jwt) from server",
            expected: "got token <redacted jwt …NDU2> from server"),
        Case(
            name: "high-entropy string", input: "api key is 9fQ2xL7mB4vK1pR8sT3wY6zA0cE5gH2j ok",
            expected: "api key is <redacted …gH2j> ok"),
        Case(
            name: "plain prose is untouched", input: "The session was refreshed after 3 attempts.",
            expected: "The session was refreshed after 3 attempts."),
        Case(
            name: "long URL paths are not mistaken for secrets",
            input: "https://api.example.com/v1/users/profile/settings/notifications",
            expected: "https://api.example.com/v1/users/profile/settings/notifications"),
        Case(
            name: "non-sensitive parameters kept", input: "scope=openid%20profile&response_type=code",
            expected: "scope=openid%20profile&response_type=code"),
        Case(name: "unicode around secrets", input: "ünïcødé code=xyz ✓", expected: "ünïcødé code=<redacted> ✓"),
    ]

    @Test(arguments: cases)
    func redacts(_ item: Case) {
        #expect(Redactor.standard.redact(item.input) == item.expected)
    }

    @Test func keepNothing() {
        let redactor = Redactor(options: .init(keepLastCharacters: 0))
        #expect(redactor.redact("code=SplxlOBeZQQYbYS6WxSbIA") == "code=<redacted>")
        #expect(redactor.redact(Self.jwt) == "<redacted jwt>")
    }

    @Test func headerDictionaries() {
        let headers = Redactor.standard.redact(headers: [
            "Authorization": "Bearer abcdefghijklmnop1234", "Accept": "application/json",
            "Location": "https://app/cb?code=abc",
        ])
        #expect(headers["Authorization"] == "Bearer <redacted …1234>")
        #expect(headers["Accept"] == "application/json")
        #expect(headers["Location"] == "https://app/cb?code=<redacted>")
    }

    @Test func megabyteInputsFinish() {
        let big = String(repeating: "a", count: 1 << 20)
        #expect(Redactor.standard.redact(big) == big)
        let quotes = String(repeating: "\"code\":\"", count: 100_000)
        _ = Redactor.standard.redact(quotes)
        let invalid = String(decoding: [0xFF, 0xFE, 0x63, 0x6F, 0x64, 0x65, 0x3D, 0x78], as: UTF8.self)
        #expect(Redactor.standard.redact(invalid).hasSuffix("code=<redacted>"))
    }
}
