import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

@Suite("DPoP nonces and PAR responses, on the wire")
struct DPoPWireTests {
    /// A resource server that demands a nonce first (RFC 9449 §9): one retry with the new nonce, no more.
    @Test func aResourceServerNonceChallengeIsAnsweredOnce() async throws {
        let dpop = DPoPBinding(key: try SoftwareDPoPKey())
        let clock = ManualDate()
        var tokens = Fixture.expired(clock)
        tokens.expiresAt = clock.date.current.addingTimeInterval(3600)
        tokens.dpopThumbprint = dpop.thumbprint
        let session = AuthSession(
            tokens: tokens, store: InMemoryStore(), service: "svc", account: "a", refresher: FakeProvider(),
            now: clock.now, dpop: dpop)
        let seen = Locked<[(authorization: String, nonce: String?)]>([])
        let transport = RecordingTransport { request in
            let proof = request.header("DPoP") ?? ""
            let nonce = (try? JWSCompact.decodeUnverified(proof))?.payload?.objectValue?["nonce"]?.stringValue
            let count = seen.withLock {
                $0.append((request.header("Authorization") ?? "", nonce))
                return $0.count
            }
            if nonce != "rs-nonce-1" {
                return HTTPResponse(
                    status: 401,
                    headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "rs-nonce-\(count)"])
            }
            return HTTPResponse(status: 200)
        }
        let client = AuthorizedClient(session: session, transport: transport, clock: RecordingClock())
        let response = try await client.send(HTTPRequest(url: URL(string: "https://rs.example.com/data")!))
        #expect(response.status == 200)
        #expect(seen.current.count == 2)
        #expect(seen.current.allSatisfy { $0.authorization == "DPoP at-0" })
        #expect(seen.current.map(\.nonce) == [nil, "rs-nonce-1"])
        // The resource server's nonce is kept for its origin only.
        #expect(dpop.nonce(for: URL(string: "https://rs.example.com/other")!) == "rs-nonce-1")
        #expect(dpop.nonce(for: URL(string: "https://as.example.com/token")!) == nil)
    }

    /// RFC 9126 §2.2's own example response: a request_uri that is not a urn:ietf: URI is accepted as is.
    @Test func theRFCExamplePARResponseIsAccepted() async throws {
        let metadata = try ProviderMetadata(
            issuer: "https://as.example.com", authorizationEndpoint: URL(string: "https://as.example.com/authorize")!,
            tokenEndpoint: URL(string: "https://as.example.com/token")!
        ).withPushedAuthorizationRequestEndpoint(URL(string: "https://as.example.com/as/par")!)
        let posted = Locked<String>("")
        let transport = RecordingTransport { request in
            posted.withLock { $0 = String(decoding: request.body ?? Data(), as: UTF8.self) }
            return HTTPResponse(
                status: 201, headers: ["Content-Type": "application/json"],
                body: Data(#"{"request_uri":"urn:example:bwc4JK-ESC0w8acc191e-Y1LTC2","expires_in":90}"#.utf8))
        }
        var request = try AuthorizationRequest(
            metadata: metadata, clientID: "s6BhdRkqt3", redirectURI: try RedirectURI("com.example.app:/cb"))
        request.transport = transport
        let (url, _) = try await request.prepare()
        #expect(
            url.absoluteString
                == "https://as.example.com/authorize?client_id=s6BhdRkqt3&request_uri=urn%3Aexample%3Abwc4JK-ESC0w8acc191e-Y1LTC2"
        )
        #expect(
            posted.current.contains("code_challenge_method=S256") && posted.current.contains("client_id=s6BhdRkqt3"))
        // Malformed answers are refused.
        for body in [#"{"request_uri":"","expires_in":90}"#, #"{"request_uri":"u"}"#, #"{"expires_in":90}"#, "nope"] {
            let bad = RecordingTransport { _ in HTTPResponse(status: 201, headers: [:], body: Data(body.utf8)) }
            request.transport = bad
            await #expect(throws: OAuthError(.invalidPARResponse), "\(body)") { try await request.prepare() }
        }
    }
}
