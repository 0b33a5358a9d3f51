import Foundation
import Testing
import WardenJOSE

@testable import WardenOAuth

@Suite("Portable decisions behind the Apple layer")
struct ApplePolicyTests {
    @Test func callbackMatching() throws {
        #expect(
            WebAuthenticationCallback(try RedirectURI("com.example.app:/oauth/cb")) == .customScheme("com.example.app"))
        #expect(
            WebAuthenticationCallback(try RedirectURI("https://App.Example.com/oauth/cb"))
                == .https(host: "app.example.com", path: "/oauth/cb"))
        #expect(WebAuthenticationCallback(try RedirectURI("http://127.0.0.1/cb")) == nil)
    }

    @Test func appleNonce() throws {
        let nonce = try AppleSignInNonce()
        #expect(nonce.hashed == AppleIdentityTokenValidator.hashedNonce(nonce.raw.unredacted()))
        #expect(nonce.hashed.count == 64 && !"\(nonce)".contains(nonce.raw.unredacted()))
    }
}
