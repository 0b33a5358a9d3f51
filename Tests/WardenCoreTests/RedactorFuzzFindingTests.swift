import Testing

@testable import WardenCore

/// Regression for what FuzzRedactor found (Fuzz/RESULTS.md): a JSON member left without a value swallowed the next
/// line, so the header on it was never recognised and its secret was printed.
@Suite("Fuzz findings: redactor")
struct RedactorFuzzFindingTests {
    @Test(arguments: ["Authorization: Bearer SECRETSECRET123", "Cookie: session=SECRETSECRET123"])
    func aDanglingMemberDoesNotHideTheNextLinesHeader(_ line: String) {
        let text = "{\"access_token\":\n" + line
        let redacted = Redactor.standard.redact(text)
        #expect(!redacted.contains("SECRETSECRET123"), "\(redacted)")
        // A member whose value is on the next line is still redacted.
        #expect(!Redactor.standard.redact("{\"access_token\":\n \"tok-SECRETSECRET\"}").contains("SECRETSECRET"))
    }
}
