import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// The local provider's authorization codes, as a careful server keeps them: spent only by a request that proves it
/// is the client's (redirect and PKCE verifier), so whoever saw the code cannot burn it, and valid for 60 s.
@Suite("Local provider: authorization codes")
struct LocalProviderCodeTests {
    static func code(_ provider: LocalProvider) async throws -> (code: String, verifier: String) {
        let metadata = try await ProviderMetadata.discover(issuer: provider.issuer, transport: URLSessionTransport())
        var request = try AuthorizationRequest(
            metadata: metadata, clientID: provider.clientID, redirectURI: try RedirectURI("http://127.0.0.1/callback"),
            scopes: ["openid"])
        request.pushed = false
        let (url, pending) = try request.make(redirectOverride: "http://127.0.0.1:9/callback")
        let answer = try await URLSessionTransport().send(HTTPRequest(url: url))
        let code = try pending.validate(try #require(answer.header("Location")))
        return (code.code.unredacted(), pending.pkce.verifier.unredacted())
    }

    static func exchange(_ provider: LocalProvider, code: String, verifier: String) async throws -> Int {
        let body = FormEncoding.encode([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "http://127.0.0.1:9/callback"),
            ("client_id", provider.clientID), ("code_verifier", verifier),
        ])
        return try await URLSessionTransport().send(
            HTTPRequest(
                method: "POST", url: URL(string: provider.base + "/token")!,
                headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8))
        ).status
    }

    @Test func aWrongVerifierDoesNotBurnTheCode() async throws {
        let provider = try LocalProvider(clientID: "app")
        defer { provider.stop() }
        let (code, verifier) = try await Self.code(provider)
        #expect(try await Self.exchange(provider, code: code, verifier: String(repeating: "x", count: 43)) == 400)
        #expect(try await Self.exchange(provider, code: code, verifier: verifier) == 200, "still the client's")
        #expect(try await Self.exchange(provider, code: code, verifier: verifier) == 400, "one time")
    }

    @Test func aCodeExpiresAfterAMinute() async throws {
        let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let provider = try LocalProvider(clientID: "app", now: { clock.current })
        defer { provider.stop() }
        let (code, verifier) = try await Self.code(provider)
        clock.withLock { $0 += 61 }
        #expect(try await Self.exchange(provider, code: code, verifier: verifier) == 400)
    }
}
