import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// "Who is signed in" after a restore, without the network (the stored, validated ID token's claims), and from the
/// provider's UserInfo endpoint with its `sub` checked against the ID token's (OpenID Connect Core §5.3.2), through
/// `AuthClient` against the in-process provider.
@Suite("Who is signed in", .serialized)
struct WhoIsSignedInTests {
    @Test func aRestoredSessionAnswersWhoOfflineAndUserInfoAddsTheProfile() async throws {
        let provider = try OpenIDProviderTests.provider()
        let store = InMemoryStore()
        let client = AuthClient(try OpenIDProviderTests.configuration(provider, store: store))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        let profile = try await client.userInfo(for: signIn.session)
        #expect(try profile.subject == "demo-user-1" && (try profile.string("name")) == "Demo User")
        #expect(try profile.string("email") == "demo@example.com")
        provider.stop()  // the next launch is offline
        let relaunched = AuthClient(try OpenIDProviderTests.configuration(provider, store: store))
        let restored = try #require(try await relaunched.restoreSession())
        #expect(try await restored.idTokenClaims?.subject == "demo-user-1")
        #expect(try await restored.idTokenClaims?.issuer == provider.issuer)
        _ = await restored.signOut()
        #expect(await restored.idTokenClaims == nil, "signed out: nobody")
    }

    /// A UserInfo response about another user is refused: its values must not be used.
    @Test func aUserInfoResponseAboutAnotherUserIsRefused() async throws {
        let provider = try OpenIDProviderTests.provider()
        defer { provider.stop() }
        let client = AuthClient(try OpenIDProviderTests.configuration(provider, store: InMemoryStore()))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        provider.idTokenQuirks.userInfoSubject = "mallory"
        let error = await #expect(throws: OAuthError.self) { try await client.userInfo(for: signIn.session) }
        #expect(error?.code == .invalidUserInfo && error?.failureKind == .rejected, "\(String(describing: error))")
        // A look-alike sub (U+212A KELVIN SIGN for K) is another user too.
        provider.idTokenQuirks.userInfoSubject = "demo-user-1\u{212A}"
        await #expect(throws: OAuthError(.invalidUserInfo)) { try await client.userInfo(for: signIn.session) }
    }

    /// Every other UserInfo refusal, each fed: a signed response, a body that is no JSON object, one without `sub`, an
    /// error status; and a provider that announces no endpoint.
    @Test(
        arguments: [
            (
                "signed", LocalProvider.ScriptedResponse(status: 200, contentType: "application/jwt", body: "e30.e30."),
                OAuthError.Code.invalidUserInfo
            ),
            ("not JSON", LocalProvider.ScriptedResponse(status: 200, body: "<html>"), .invalidUserInfo),
            ("an array", LocalProvider.ScriptedResponse(status: 200, body: "[]"), .invalidUserInfo),
            ("no sub", LocalProvider.ScriptedResponse(status: 200, body: #"{"name":"x"}"#), .invalidUserInfo),
            ("an empty sub", LocalProvider.ScriptedResponse(status: 200, body: #"{"sub":""}"#), .invalidUserInfo),
            ("a 500", LocalProvider.ScriptedResponse(status: 500, body: ""), .httpError),
        ] as [(String, LocalProvider.ScriptedResponse, OAuthError.Code)])
    func aUserInfoResponseThatCannotBeUsedIsRefused(
        _ name: String, response: LocalProvider.ScriptedResponse, code: OAuthError.Code
    )
        async throws
    {
        let provider = try OpenIDProviderTests.provider()
        defer { provider.stop() }
        let client = AuthClient(try OpenIDProviderTests.configuration(provider, store: InMemoryStore()))
        let signIn = try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        provider.idTokenQuirks.userInfoResponse = response
        let error = await #expect(throws: OAuthError.self, "\(name)") { try await client.userInfo(for: signIn.session) }
        #expect(error?.code == code, "\(name): \(String(describing: error))")
    }
}
