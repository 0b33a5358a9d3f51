import Foundation
import Testing
import WardenCore

@_spi(Fuzzing) @testable import WardenOAuth

/// Rejections of caller-supplied configuration that the other suites do not feed.
@Suite("OAuth configuration rejections")
struct ConfigurationRejectionTests {
    static let metadata = try! ProviderMetadata(
        issuer: "https://id.example.com", authorizationEndpoint: URL(string: "https://id.example.com/authorize")!,
        tokenEndpoint: URL(string: "https://id.example.com/token")!)

    @Test func manualMetadataRefusesInsecureEndpoints() {
        #expect(throws: OAuthError(.insecureEndpoint)) {
            try ProviderMetadata(
                issuer: "https://id.example.com",
                authorizationEndpoint: URL(string: "http://id.example.com/authorize")!,
                tokenEndpoint: URL(string: "https://id.example.com/token")!)
        }
        #expect(throws: OAuthError(.insecureEndpoint)) {
            try Self.metadata.withRevocationEndpoint(URL(string: "ftp://id.example.com/revoke")!)
        }
        #expect(throws: OAuthError(.insecureEndpoint)) {
            try ProviderMetadata.discoveryURLs(for: "http://id.example.com")
        }
        #expect(throws: OAuthError(.invalidConfiguration)) { try ProviderMetadata.discoveryURLs(for: "not a url") }
    }

    @Test func authorizationRequestRefusesReservedParametersAndBadClientIDs() throws {
        let redirect = try RedirectURI("com.example.app:/cb")
        for reserved in ["state", "code_challenge_method", "redirect_uri", "nonce", "response_type"] {
            #expect(throws: OAuthError(.invalidConfiguration), "\(reserved)") {
                try AuthorizationRequest(
                    metadata: Self.metadata, clientID: "app", redirectURI: redirect,
                    additionalParameters: [(reserved, "x")])
            }
        }
        for bad in ["", "app\u{0}", "app\n", "é"] {
            #expect(throws: OAuthError(.invalidConfiguration)) {
                try AuthorizationRequest(metadata: Self.metadata, clientID: bad, redirectURI: redirect)
            }
        }
    }

    @Test func listenerRefusesBadPaths() {
        for path in ["callback", "/cb?x=1", "/cb#f"] {
            #expect(throws: OAuthError(.invalidRedirectURI), "\(path)") { try LoopbackRedirectListener(path: path) }
        }
    }

    @Test func revocationWithoutAnEndpoint() async {
        let client = TokenClient(metadata: Self.metadata, clientID: "app", transport: URLSessionTransport())
        let error = await #expect(throws: OAuthError(.noRevocationEndpoint)) {
            try await client.revoke(token: "t", hint: "refresh_token")
        }
        #expect(error?.failureKind == .misconfiguration)
    }

    @Test func transportRefusesCleartextToNonLoopbackHosts() async {
        let transport = URLSessionTransport()
        for url in ["http://example.com/", "ftp://127.0.0.1/", "file:///etc/passwd"] {
            await #expect(throws: TransportError(.insecureURL), "\(url)") {
                try await transport.send(HTTPRequest(url: URL(string: url)!))
            }
        }
        let client = TokenClient(
            metadata: try! ProviderMetadata(
                issuer: "http://127.0.0.1:1", authorizationEndpoint: URL(string: "http://127.0.0.1:1/a")!,
                tokenEndpoint: URL(string: "http://127.0.0.1:1/t")!), clientID: "app", transport: transport)
        do {
            _ = try await client.refresh(refreshToken: "r")
            Issue.record("a closed port must fail")
        } catch {
            #expect(error.failureKind == .transient, "connection refused keeps the session")
        }
    }
}
