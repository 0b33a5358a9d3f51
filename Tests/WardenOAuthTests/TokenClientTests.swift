import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth

@Suite("Token client")
struct TokenClientTests {
    static let metadata = try! ProviderMetadata(
        issuer: "https://id.example.com", authorizationEndpoint: URL(string: "https://id.example.com/authorize")!,
        tokenEndpoint: URL(string: "https://id.example.com/token")!,
        revocationEndpoint: URL(string: "https://id.example.com/revoke")!)

    static func client(_ status: Int, _ body: String, headers: [String: String] = [:]) -> (
        TokenClient, RecordingTransport
    ) {
        let transport = RecordingTransport { _ in HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
        }
        return (TokenClient(metadata: metadata, clientID: "app", transport: transport), transport)
    }

    @Test func refreshSendsAFormBodyAndParses() async throws {
        let (client, transport) = Self.client(
            200,
            #"{"access_token":"at-1","token_type":"bearer","expires_in":3600,"refresh_token":"rt-2","scope":"openid"}"#)
        let tokens = try await client.refresh(refreshToken: "rt+1&x=y")
        #expect(
            tokens.accessToken.unredacted() == "at-1" && tokens.refreshToken?.unredacted() == "rt-2"
                && tokens.expiresIn == 3600)
        let request = transport.sent[0]
        #expect(request.method == "POST" && request.url.query == nil)
        #expect(
            String(decoding: request.body!, as: UTF8.self)
                == "grant_type=refresh_token&refresh_token=rt%2B1%26x%3Dy&client_id=app")
        #expect(!"\(tokens)".contains("at-1") && !"\(request)".contains("rt%2B1"))
    }

    @Test func basicAuthentication() async throws {
        let transport = RecordingTransport { _ in
            HTTPResponse(status: 200, body: Data(#"{"access_token":"a","token_type":"Bearer"}"#.utf8))
        }
        let client = TokenClient(
            metadata: Self.metadata, clientID: "my app", authentication: .clientSecretBasic(Redacted("s:e/c")),
            transport: transport)
        _ = try await client.refresh(refreshToken: "r")
        #expect(
            transport.sent[0].header("Authorization") == "Basic "
                + Data("my%20app:s%3Ae%2Fc".utf8).base64EncodedString())
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        let name: String
        let status: Int
        let body: String
        var headers: [String: String] = [:]
        let code: OAuthError.Code
        let kind: FailureKind
        var testDescription: String { name }
    }

    static let bad: [Bad] = [
        Bad(
            name: "invalid_grant", status: 400, body: #"{"error":"invalid_grant","error_description":"revoked"}"#,
            code: .invalidGrant, kind: .terminal),
        Bad(
            name: "invalid_client 401", status: 401, body: #"{"error":"invalid_client"}"#, code: .invalidClient,
            kind: .terminal),
        Bad(name: "plain 401", status: 401, body: "", code: .httpError, kind: .terminal),
        Bad(
            name: "temporarily_unavailable", status: 503, body: #"{"error":"temporarily_unavailable"}"#,
            code: .temporarilyUnavailable, kind: .transient),
        Bad(
            name: "HTML 502 page", status: 502, body: "<html><body>Bad gateway</body></html>", code: .httpError,
            kind: .transient),
        Bad(
            name: "429 with Retry-After", status: 429, body: "", headers: ["Retry-After": "7"], code: .rateLimited,
            kind: .transient),
        Bad(name: "HTML 200", status: 200, body: "<html>login</html>", code: .invalidTokenResponse, kind: .rejected),
        Bad(
            name: "200 without access_token", status: 200, body: #"{"token_type":"Bearer"}"#,
            code: .invalidTokenResponse, kind: .rejected),
        Bad(
            name: "200 with token_type mac", status: 200, body: #"{"access_token":"a","token_type":"mac"}"#,
            code: .invalidTokenResponse, kind: .rejected),
        Bad(
            name: "200 with string expires_in", status: 200,
            body: #"{"access_token":"a","token_type":"Bearer","expires_in":"3600"}"#, code: .invalidTokenResponse,
            kind: .rejected),
        Bad(
            name: "200 with duplicate access_token", status: 200,
            body: #"{"access_token":"a","access_token":"b","token_type":"Bearer"}"#, code: .invalidTokenResponse,
            kind: .rejected),
        Bad(
            name: "huge body", status: 200,
            body: "{\"access_token\":\"" + String(repeating: "a", count: 300_000) + "\"}", code: .invalidTokenResponse,
            kind: .rejected),
    ]

    @Test(arguments: bad)
    func classifiesFailures(_ bad: Bad) async {
        let (client, _) = Self.client(bad.status, bad.body, headers: bad.headers)
        do {
            _ = try await client.refresh(refreshToken: "r")
            Issue.record("expected \(bad.code)")
        } catch {
            #expect(error.code == bad.code, "\(error)")
            #expect(error.failureKind == bad.kind)
            if bad.headers["Retry-After"] != nil { #expect(error.retryAfter == 7) }
        }
    }

    @Test func networkFailuresAreTransient() async {
        for code in [TransportError.Code.timedOut, .cannotConnect, .connectionLost, .dnsLookupFailed, .notConnected] {
            let transport = RecordingTransport { _ in throw TransportError(code) }
            let client = TokenClient(metadata: Self.metadata, clientID: "app", transport: transport)
            await #expect(throws: OAuthError.self) { try await client.refresh(refreshToken: "r") }
            do { _ = try await client.refresh(refreshToken: "r") } catch {
                #expect(error.failureKind == .transient, "\(code)")
            }
        }
    }

    @Test func retryAfterForms() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
        #expect(RetryAfter.seconds("7200", now: now) == 7200, "hours are not shortened (never retry early)")
        #expect(RetryAfter.seconds("99999999", now: now) == 604_800.0, "only absurd values are bounded")
        #expect(RetryAfter.seconds("soon", now: now) == nil)
        #expect(RetryAfter.seconds("-5", now: now) == nil)
    }

    @Test func discoveryChecksIssuerAndSchemes() async throws {
        let good =
            #"{"issuer":"https://id.example.com","authorization_endpoint":"https://id.example.com/a","token_endpoint":"https://id.example.com/t","jwks_uri":"https://id.example.com/j","authorization_response_iss_parameter_supported":true}"#
        let metadata = try ProviderMetadata(json: Data(good.utf8), expectedIssuer: "https://id.example.com")
        #expect(metadata.authorizationResponseIssParameterSupported)
        #expect(throws: OAuthError(.issuerMismatch)) {
            try ProviderMetadata(json: Data(good.utf8), expectedIssuer: "https://id.example.com/")
        }
        let insecure = good.replacingOccurrences(of: "https://id.example.com/t", with: "http://id.example.com/t")
        #expect(throws: OAuthError(.insecureEndpoint)) {
            try ProviderMetadata(json: Data(insecure.utf8), expectedIssuer: "https://id.example.com")
        }
        #expect(throws: OAuthError(.invalidMetadata)) {
            try ProviderMetadata(json: Data("<html>".utf8), expectedIssuer: "https://id.example.com")
        }
        #expect(
            try ProviderMetadata.discoveryURLs(for: "https://id.example.com/o").map(\.absoluteString) == [
                "https://id.example.com/o/.well-known/openid-configuration",
                "https://id.example.com/.well-known/oauth-authorization-server/o",
            ])
        // An IPv6 literal keeps its brackets (URL.host drops them: the URL built from it was nil, and force-unwrapped).
        #expect(
            try ProviderMetadata.discoveryURLs(for: "https://[2001:db8::1]:8443/tenant").map(\.absoluteString) == [
                "https://[2001:db8::1]:8443/tenant/.well-known/openid-configuration",
                "https://[2001:db8::1]:8443/.well-known/oauth-authorization-server/tenant",
            ])
        let transport = RecordingTransport { request in
            request.url.path.hasSuffix("openid-configuration")
                ? HTTPResponse(status: 200, body: Data(good.utf8)) : HTTPResponse(status: 404)
        }
        let cache = ProviderMetadataCache(transport: transport)
        _ = try await cache.metadata(for: "https://id.example.com")
        _ = try await cache.metadata(for: "https://id.example.com")
        #expect(transport.sent.count == 1)
    }
}
