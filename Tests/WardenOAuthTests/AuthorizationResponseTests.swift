import Foundation
import Testing
import WardenCore
import WardenCrypto

@_spi(Fuzzing) @testable import WardenOAuth

@Suite("Authorization responses")
struct AuthorizationResponseTests {
    static let metadata = try! ProviderMetadata(
        issuer: "https://id.example.com", authorizationEndpoint: URL(string: "https://id.example.com/authorize")!,
        tokenEndpoint: URL(string: "https://id.example.com/token")!)

    static func pending(requireIss: Bool = false) throws -> (URL, PendingAuthorization) {
        let request = try AuthorizationRequest(
            metadata: metadata, clientID: "app", redirectURI: try RedirectURI("com.example.app:/cb"),
            scopes: ["openid", "profile"])
        let (url, pending) = try request.make()
        return (url, requireIss ? pending.requiringIssuer() : pending)
    }

    @Test func requestCarriesPKCEStateAndNonce() throws {
        let (url, pending) = try Self.pending()
        let query = try FormEncoding.decode(
            URLComponents(url: url, resolvingAgainstBaseURL: false)!.percentEncodedQuery!)
        let parameters = Dictionary(uniqueKeysWithValues: query)
        #expect(parameters["response_type"] == "code")
        #expect(parameters["code_challenge_method"] == "S256")
        #expect(parameters["code_challenge"] == pending.pkce.challenge)
        #expect(parameters["state"] == pending.state.unredacted())
        #expect(try Self.base64URLDecodeCount(parameters["state"]!) >= 16)
        #expect(parameters["nonce"] == pending.nonce?.unredacted())
        #expect(parameters["scope"] == "openid profile")
        #expect(!"\(pending)".contains(pending.state.unredacted()))
    }

    static func base64URLDecodeCount(_ text: String) throws -> Int { text.count * 3 / 4 }

    @Test func validCallback() throws {
        let (_, pending) = try Self.pending()
        let code = try pending.validate(
            "com.example.app:/cb?code=abc123&state=\(pending.state.unredacted())&iss=https%3A%2F%2Fid.example.com")
        #expect(code.code.unredacted() == "abc123")
        // One time only.
        #expect(throws: OAuthError(.unknownState)) {
            try pending.validate("com.example.app:/cb?code=abc123&state=\(pending.state.unredacted())")
        }
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        let name: String
        let callback: @Sendable (String) -> String
        var requireIss = false
        let expected: OAuthError.Code
        var testDescription: String { name }
    }

    static let bad: [Bad] = [
        Bad(
            name: "forged state", callback: { _ in "com.example.app:/cb?code=a&state=forged" }, expected: .stateMismatch
        ),
        Bad(name: "no state", callback: { _ in "com.example.app:/cb?code=a" }, expected: .stateMismatch),
        Bad(
            name: "forged state on an error", callback: { _ in "com.example.app:/cb?error=access_denied&state=x" },
            expected: .stateMismatch),
        Bad(
            name: "duplicated state", callback: { "com.example.app:/cb?code=a&state=\($0)&state=\($0)" },
            expected: .duplicateParameter),
        Bad(
            name: "duplicated code", callback: { "com.example.app:/cb?code=a&code=b&state=\($0)" },
            expected: .duplicateParameter),
        Bad(
            name: "duplicated iss",
            callback: { "com.example.app:/cb?code=a&state=\($0)&iss=https%3A%2F%2Fid.example.com&iss=x" },
            expected: .duplicateParameter),
        Bad(
            name: "wrong iss",
            callback: { "com.example.app:/cb?code=a&state=\($0)&iss=https%3A%2F%2Fevil.example.com" },
            expected: .issuerMismatch),
        Bad(
            name: "missing iss when required", callback: { "com.example.app:/cb?code=a&state=\($0)" }, requireIss: true,
            expected: .missingIssuer),
        Bad(name: "empty code", callback: { "com.example.app:/cb?code=&state=\($0)" }, expected: .missingCode),
        Bad(name: "no code", callback: { "com.example.app:/cb?state=\($0)" }, expected: .missingCode),
        Bad(
            name: "100 KB code",
            callback: { "com.example.app:/cb?code=\(String(repeating: "a", count: 100_000))&state=\($0)" },
            expected: .responseTooLarge),
        Bad(
            name: "3 KB code",
            callback: { "com.example.app:/cb?code=\(String(repeating: "a", count: 3000))&state=\($0)" },
            expected: .responseTooLarge),
        Bad(
            name: "code in the fragment", callback: { "com.example.app:/cb?state=\($0)#code=a" },
            expected: .codeInFragment),
        Bad(name: "another redirect", callback: { "com.evil.app:/cb?code=a&state=\($0)" }, expected: .redirectMismatch),
        Bad(name: "another path", callback: { "com.example.app:/cb2?code=a&state=\($0)" }, expected: .redirectMismatch),
        Bad(
            name: "NUL byte", callback: { "com.example.app:/cb?code=a\u{0}&state=\($0)" }, expected: .malformedResponse),
        Bad(
            name: "encoded NUL in code", callback: { "com.example.app:/cb?code=a%00b&state=\($0)" },
            expected: .malformedResponse),
        Bad(
            name: "malformed escape", callback: { "com.example.app:/cb?code=%zz&state=\($0)" },
            expected: .malformedResponse),
        Bad(
            name: "provider error",
            callback: { "com.example.app:/cb?error=access_denied&error_description=no&state=\($0)" },
            expected: .accessDenied),
    ]

    @Test(arguments: bad)
    func rejects(_ bad: Bad) throws {
        let (_, pending) = try Self.pending(requireIss: bad.requireIss)
        #expect(throws: OAuthError(bad.expected)) { try pending.validate(bad.callback(pending.state.unredacted())) }
    }

    @Test func forgedResponsesDoNotUseUpThePendingRequest() throws {
        let (_, pending) = try Self.pending()
        #expect(throws: OAuthError(.stateMismatch)) { try pending.validate("com.example.app:/cb?code=a&state=forged") }
        #expect(throws: OAuthError(.redirectMismatch)) { try pending.validate("com.evil:/cb?code=a&state=x") }
        #expect(
            try pending.validate("com.example.app:/cb?code=a&state=\(pending.state.unredacted())").code.unredacted()
                == "a")
    }

    @Test func validatorWithoutAnIssuerRefusesIss() throws {
        let validator = AuthorizationResponseValidator(
            redirectURI: try RedirectURI("com.example.app:/cb"), state: Redacted("s"), issuer: nil, requireIssuer: false
        )
        #expect(throws: OAuthError(.issuerMismatch)) {
            try validator.authenticate("com.example.app:/cb?code=a&state=s&iss=x")
        }
        #expect(
            try validator.code(from: try validator.authenticate("com.example.app:/cb?code=a&state=s")).unredacted()
                == "a")
    }

    @Test func providerErrorsAreTypedAndSanitised() throws {
        let (_, pending) = try Self.pending()
        do {
            _ = try pending.validate(
                "com.example.app:/cb?error=temporarily_unavailable&error_description=try%0Alater%1B&state=\(pending.state.unredacted())"
            )
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .temporarilyUnavailable && error.failureKind == .transient)
            #expect(error.providerDescription == "trylater")
        }
    }

    @Test func formEncodingEscapesStructure() throws {
        let encoded = FormEncoding.encode([("a b", "x+y&z=1%"), ("é", "~._-")])
        #expect(encoded == "a%20b=x%2By%26z%3D1%25&%C3%A9=~._-")
        let decoded = try FormEncoding.decode(encoded)
        #expect(decoded.map(\.0) == ["a b", "é"] && decoded.map(\.1) == ["x+y&z=1%", "~._-"])
        #expect(try FormEncoding.decode("a=1+2")[0].1 == "1 2")
    }
}
