import Testing
import WardenCore

@Suite("Issuer mismatch explanations")
struct IssuerMismatchTests {
    /// Auth0 announces its issuer with a trailing slash; Entra's multi-tenant discovery announces a template.
    @Test(arguments: [
        ("https://example.us.auth0.com", "https://example.us.auth0.com/", "trailing slash"),
        ("https://id.example.com/", "https://id.example.com", "trailing slash"),
        (
            "https://login.microsoftonline.com/common/v2.0", "https://login.microsoftonline.com/{tenantid}/v2.0",
            "tenant template"
        ),
        ("https://ID.example.com", "https://id.example.com", "case included"),
        ("https://a.example.com", "https://b.example.com", "exactly as the provider's metadata announces"),
    ])
    func theMessageNamesBothValuesAndTheFix(configured: String, announced: String, hint: String) {
        let message = IssuerMismatch.explain(configured: configured, announced: announced)
        #expect(message.contains("\"\(configured)\"") && message.contains("\"\(announced)\""))
        #expect(message.contains(hint), "\(message)")
    }

    @Test func valuesFromTheNetworkAreEscapedAndBounded() {
        #expect(IssuerMismatch.quoted("a\"b\\c\n\u{0}") == #""a\"b\\c\u{a}\u{0}""#)
        // A right-to-left override or a zero-width space would make the shown issuer differ from the real one.
        #expect(IssuerMismatch.quoted("https://a\u{202E}moc.b\u{200B}") == #""https://a\u{202e}moc.b\u{200b}""#)
        #expect(IssuerMismatch.quoted("x\u{2028}y") == #""x\u{2028}y""#)
        let long = IssuerMismatch.quoted(String(repeating: "x", count: 10_000))
        #expect(long.count == 256 + 3)
    }

    /// A report line (`warden discover`) shows network values without letting a terminal escape or a bidi override
    /// act; quotes and backslashes, already quoted by `quoted`, are left as they are.
    @Test func reportLinesEscapeControlsOnly() {
        #expect(IssuerMismatch.controlsEscaped("ES256, \u{1B}[2J\u{1B}[31mok") == #"ES256, \u{1b}[2J\u{1b}[31mok"#)
        #expect(IssuerMismatch.controlsEscaped("a \"b\" \u{202E}c") == #"a "b" \u{202e}c"#)
        #expect(IssuerMismatch.controlsEscaped(String(repeating: "x", count: 5000)).count == 5000)
    }
}
