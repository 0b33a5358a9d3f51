import Foundation
import Testing
import WardenCore
import WardenCrypto

@_spi(Fuzzing) @testable import WardenOAuth

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

    /// An existing registration with a short private-use scheme (`myapp://callback`, APWebAuthentication's quick start)
    /// is admitted only through the explicit opt-in, still matched exactly; schemes the system or browsers own never.
    @Test(arguments: ["myapp://callback", "myapp:/oauth/callback", "my-app2://auth/cb"])
    func anExistingShortSchemeIsAdmittedOnlyByOptIn(_ text: String) throws {
        #expect(throws: OAuthError(.invalidRedirectURI)) { try RedirectURI(text) }
        let redirect = try RedirectURI(existingRegistration: text)
        #expect(redirect.kind == .privateUseScheme)
        #expect(redirect.matches(text + "?code=x&state=y"))
        #expect(!redirect.matches("other" + text + "?code=x"))
    }

    @Test(arguments: [
        "javascript:/alert(1)", "data:/text", "file:/etc/passwd", "about:/blank", "mailto:/a", "ftp://host/cb",
        "itms-apps://app", "ws://host/cb", "myapp://callback#x", "myapp://user@host/cb", "myapp://host:80/cb",
        "myapp:callback", "myapp..x://cb", "http://app.example.com/cb",
    ])
    func theOptInStillRefusesWhatNoRedirectMayBe(_ text: String) {
        #expect(throws: OAuthError(.invalidRedirectURI)) { try RedirectURI(existingRegistration: text) }
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
