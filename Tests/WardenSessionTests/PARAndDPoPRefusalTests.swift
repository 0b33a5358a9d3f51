import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

@Suite("PAR and DPoP configuration refusals")
struct PARAndDPoPRefusalTests {
    static func metadata(_ extra: String) -> Data {
        Data(
            #"{"issuer":"https://as.example.com","authorization_endpoint":"https://as.example.com/a","token_endpoint":"https://as.example.com/t"\#(extra)}"#
                .utf8)
    }

    @Test func requiringPARWithoutAnEndpointIsInvalidMetadata() {
        #expect(throws: OAuthError(.invalidMetadata)) {
            try ProviderMetadata(
                json: Self.metadata(#","require_pushed_authorization_requests":true"#),
                expectedIssuer: "https://as.example.com")
        }
        #expect(throws: OAuthError(.insecureEndpoint)) {
            try ProviderMetadata(
                json: Self.metadata(#","pushed_authorization_request_endpoint":"http://as.example.com/par""#),
                expectedIssuer: "https://as.example.com")
        }
    }

    /// `make()` cannot push: where PAR is required or asked for it refuses rather than build a plain URL.
    @Test func makeRefusesWherePARIsRequiredOrAskedFor() throws {
        let plain = try ProviderMetadata(json: Self.metadata(""), expectedIssuer: "https://as.example.com")
        let requiring = try plain.withPushedAuthorizationRequestEndpoint(
            URL(string: "https://as.example.com/par")!, required: true)
        let redirect = try RedirectURI("com.example.app:/cb")
        let required = try AuthorizationRequest(metadata: requiring, clientID: "c", redirectURI: redirect)
        #expect(throws: OAuthError(.invalidConfiguration)) { _ = try required.make() }
        var asked = try AuthorizationRequest(metadata: plain, clientID: "c", redirectURI: redirect)
        asked.pushed = true
        #expect(throws: OAuthError(.invalidConfiguration)) { _ = try asked.make() }
        // Announced but optional, and not asked for: a plain URL, as before.
        let optional = try AuthorizationRequest(
            metadata: try plain.withPushedAuthorizationRequestEndpoint(URL(string: "https://as.example.com/par")!),
            clientID: "c", redirectURI: redirect)
        #expect(try optional.make().url.absoluteString.hasPrefix("https://as.example.com/a?response_type=code"))
    }

    @Test func askingForPARWhereThereIsNoneFails() async throws {
        let metadata = try ProviderMetadata(json: Self.metadata(""), expectedIssuer: "https://as.example.com")
        var request = try AuthorizationRequest(
            metadata: metadata, clientID: "c", redirectURI: try RedirectURI("com.example.app:/cb"))
        request.pushed = true
        await #expect(throws: OAuthError(.invalidMetadata)) { try await request.prepare() }
        request.pushed = nil
        let (url, _) = try await request.prepare()  // no endpoint, not required: the plain front-channel request
        #expect(url.query?.contains("code_challenge=") == true)
    }

    @Test func aPushedRequestThatExpiresBeforeTheBrowserOpensIsRefused() async throws {
        let metadata = try ProviderMetadata(
            json: Self.metadata(#","pushed_authorization_request_endpoint":"https://as.example.com/par""#),
            expectedIssuer: "https://as.example.com")
        let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let transport = RecordingTransport { _ in
            clock.withLock { $0 += 5 }  // the push took five seconds
            return HTTPResponse(status: 201, headers: [:], body: Data(#"{"request_uri":"urn:x","expires_in":3}"#.utf8))
        }
        var request = try AuthorizationRequest(
            metadata: metadata, clientID: "c", redirectURI: try RedirectURI("com.example.app:/cb"))
        request.transport = transport
        await #expect(throws: OAuthError(.invalidPARResponse)) { try await request.prepare(now: { clock.current }) }
    }

    @Test(arguments: ["", "with space", "tab\there", String(repeating: "n", count: 1025), "é-non-ascii"])
    func unusableNoncesAreIgnored(_ nonce: String) throws {
        let dpop = DPoPBinding(key: try SoftwareDPoPKey())
        let url = URL(string: "https://rs.example.com/x")!
        #expect(!dpop.record(HTTPResponse(status: 200, headers: ["DPoP-Nonce": nonce]), from: url))
        #expect(dpop.nonce(for: url) == nil)
    }
}
