import Foundation
import Testing
import WardenCore
import WardenCrypto

@_spi(Fuzzing) @testable import WardenOAuth

@Suite("PKCE")
struct PKCETests {
    /// RFC 7636 Appendix B.
    @Test func rfc7636AppendixB() throws {
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
        #expect(!"\(pkce)".contains("dBjftJeZ"))
    }

    @Test func freshVerifiers() throws {
        let a = try PKCE()
        let b = try PKCE()
        #expect(a.verifier.unredacted().count == 43 && a.verifier != b.verifier)
    }

    @Test(arguments: [
        String(repeating: "a", count: 42), String(repeating: "a", count: 129), String(repeating: "a", count: 42) + "+",
        String(repeating: "a", count: 43) + " ", String(repeating: "é", count: 43),
    ])
    func rejectsVerifiers(_ verifier: String) {
        #expect(throws: OAuthError(.invalidVerifier)) { try PKCE(verifier: verifier) }
    }

    struct Failing: RandomSource {
        func bytes(count: Int) throws -> [UInt8] { throw CryptoError(.randomUnavailable) }
    }

    @Test func randomFailureFailsClosed() {
        #expect(throws: CryptoError(.randomUnavailable)) { try PKCE(random: Failing()) }
    }
}

@Suite("Redirect URIs")
struct RedirectURITests {
    @Test(arguments: [
        ("com.example.app:/oauth/callback", RedirectURI.Kind.privateUseScheme),
        ("https://app.example.com/oauth/callback", .claimedHTTPS),
        ("http://127.0.0.1/callback", .loopback),
        ("http://[::1]/callback", .loopback),
        ("http://127.0.0.1:8080/callback", .loopback),
        // Provider SDK defaults: Auth0's `{bundle}://{domain}/ios/{bundle}/callback`, Entra's `msauth.{bundle}://auth`.
        ("com.example.app://example.us.auth0.com/ios/com.example.app/callback", .privateUseScheme),
        ("msauth.com.example.app://auth", .privateUseScheme),
        ("com.example.app://callback", .privateUseScheme),
    ])
    func admits(_ text: String, kind: RedirectURI.Kind) throws {
        #expect(try RedirectURI(text).kind == kind)
    }

    @Test(arguments: [
        "http://localhost/callback", "http://app.example.com/callback", "myapp:/callback", "myapp://auth",
        "com.example.app://", "com.example.app://host:8080/cb", "com.example.app://host./cb",
        "com.example.app://user@host/cb", "com.example.app://host/a/../cb", "com.example.app://host/cb#x",
        "com.example.app:callback", "https://app.example.com/cb#frag", "https://user@app.example.com/cb",
        "https://app.example.com/a/../cb", "https://app.example.com/./cb", "https://app.example.com/%2e%2e/cb",
        "https://app.example.com\\cb", "https://app.example.com/c b", "https://app.example.com/\u{0}",
        "https://app.example.com./cb", "ftp://app.example.com/cb", "", "no-scheme",
    ])
    func refuses(_ text: String) {
        #expect(throws: OAuthError(.invalidRedirectURI)) { try RedirectURI(text) }
    }

    @Test func matchingIsComponentWise() throws {
        let https = try RedirectURI("https://app.example.com/cb")
        #expect(https.matches("https://app.example.com/cb?code=x"))
        #expect(https.matches("HTTPS://APP.EXAMPLE.COM/cb?code=x"))
        #expect(https.matches("https://app.example.com:443/cb"))
        for bad in [
            "https://app.example.com.evil.com/cb", "https://app.example.com@evil.com/cb", "https://evil.com/cb",
            "https://app.example.com./cb", "http://app.example.com/cb", "https://app.example.com:8443/cb",
            "https://app.example.com/CB", "https://app.example.com/cb/", "https://app.example.com/x/../cb",
            "https://app.example.com/cb\u{0}", "https://app.example.com/cb%00", "https://app.example.com/cbx",
        ] {
            #expect(!https.matches(bad), "\(bad)")
        }
        let loopback = try RedirectURI("http://127.0.0.1/callback")
        #expect(loopback.matches("http://127.0.0.1:53123/callback?code=x"))
        #expect(!loopback.matches("http://localhost:53123/callback"))
        #expect(!loopback.matches("http://127.0.0.1:53123/other"))
        let custom = try RedirectURI("com.example.app:/oauth")
        #expect(custom.matches("com.example.app:/oauth?code=1"))
        #expect(!custom.matches("com.example.app.evil:/oauth?code=1"))
        #expect(!custom.matches("com.example.app://oauth?code=1"))

        // With an authority: scheme, host and path all count, and the authority form never matches the other.
        let auth0 = try RedirectURI("com.example.app://example.us.auth0.com/ios/com.example.app/callback")
        #expect(auth0.matches("com.example.app://example.us.auth0.com/ios/com.example.app/callback?code=1&state=s"))
        #expect(auth0.matches("com.example.app://EXAMPLE.us.auth0.com/ios/com.example.app/callback?code=1"))
        for bad in [
            "com.example.app://evil.example.com/ios/com.example.app/callback?code=1",
            "com.example.app://example.us.auth0.com.evil.com/ios/com.example.app/callback",
            "com.example.app://example.us.auth0.com/ios/com.example.app/callback/",
            "com.example.app://example.us.auth0.com/ios/com.example.app/Callback",
            "com.example.app:/ios/com.example.app/callback",
            "com.example.app://x@example.us.auth0.com/ios/com.example.app/callback",
            "com.example.app://example.us.auth0.com:1/ios/com.example.app/callback",
            "com.example.app.evil://example.us.auth0.com/ios/com.example.app/callback",
        ] {
            #expect(!auth0.matches(bad), "\(bad)")
        }
        let entra = try RedirectURI("msauth.com.example.app://auth")
        #expect(entra.matches("msauth.com.example.app://auth?code=1&state=s"))
        #expect(
            entra.matches("msauth.com.example.app://auth/?code=1"), "an empty path and / are the same (RFC 3986 §6.2.3)"
        )
        #expect(!entra.matches("msauth.com.example.app://auth/x?code=1"))
        #expect(!entra.matches("msauth.com.example.app:/auth?code=1"))
        #expect(!entra.matches("msauth.com.example.app://authx?code=1"))
    }
}

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
