import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenJOSE

@_spi(Fuzzing) @testable import WardenOAuth

/// URLSessionTransport against a real loopback server: redirects are never followed (so discovery, JWKS and
/// token requests refuse them and the redirect target is never contacted), body caps apply while streaming, and
/// pins are refused where they cannot be evaluated.
@Suite("URLSession transport", .serialized)
struct TransportTests {
    /// A target that counts requests, and a server that redirects everything to it.
    final class Servers: Sendable {
        let hits = Locked(0)
        let target: LoopbackHTTPServer
        let redirector: LoopbackHTTPServer
        init() throws {
            let hits = hits
            target = try LoopbackHTTPServer { _ in
                hits.withLock { $0 += 1 }
                return .json(200, #"{"keys":[]}"#)
            }
            let port = target.port
            redirector = try LoopbackHTTPServer { request in
                HTTPResponse(status: 302, headers: ["Location": "http://127.0.0.1:\(port)\(request.target)"])
            }
        }
        var base: String { "http://127.0.0.1:\(redirector.port)" }
        func stop() {
            redirector.stop()
            target.stop()
        }
    }

    @Test func aRedirectIsReturnedNotFollowed() async throws {
        let servers = try Servers()
        defer { servers.stop() }
        let response = try await URLSessionTransport().send(HTTPRequest(url: URL(string: servers.base + "/x")!))
        #expect(response.status == 302)
        #expect(servers.hits.current == 0)
    }

    @Test func discoveryJWKSAndTokenRequestsRefuseRedirects() async throws {
        let servers = try Servers()
        defer { servers.stop() }
        let transport = URLSessionTransport()
        await #expect(throws: OAuthError.self) {
            try await ProviderMetadata.discover(issuer: servers.base, transport: transport)
        }
        let cache = JWKSCache(url: URL(string: servers.base + "/jwks")!, transport: transport)
        await #expect(throws: JOSEError.self) { try await cache.keySet() }
        let metadata = try ProviderMetadata(
            issuer: servers.base, authorizationEndpoint: URL(string: servers.base + "/authorize")!,
            tokenEndpoint: URL(string: servers.base + "/token")!)
        let client = TokenClient(metadata: metadata, clientID: "c", transport: transport)
        let error = await #expect(throws: OAuthError.self) { try await client.refresh(refreshToken: "rt", scope: nil) }
        #expect(error?.status == 302)
        #expect(servers.hits.current == 0, "the redirect target never saw a request (or a token)")
    }

    @Test func bodiesOverTheCapAreRefusedWhileStreaming() async throws {
        let big = Data(repeating: 0x61, count: 300_000)
        let server = try LoopbackHTTPServer { _ in HTTPResponse(status: 200, headers: [:], body: big) }
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/big")!
        let small = URLSessionTransport(maximumResponseBytes: 100_000)
        let error = await #expect(throws: TransportError.self) { try await small.send(HTTPRequest(url: url)) }
        #expect(error?.code == .responseTooLarge)
        let roomy = URLSessionTransport(maximumResponseBytes: 300_000)
        #expect(try await roomy.send(HTTPRequest(url: url)).body.count == 300_000, "exactly at the cap is fine")
    }

    @Test func pinsAreRefusedWhereTheyCannotBeEvaluated() throws {
        let pins = try PinSet(
            pins: [
                "sha256/kcoVN/H3Kq8kAJZ41Osym2W3jr8hZL/Us7WNebhkRpo=",
                "sha256/jIaaxm54nUArATdyGU1E23cTh5Bdzk2sgb/ljvS+NNo=",
            ],
            expires: Date().addingTimeInterval(86_400))
        #if WARDEN_APPLE
            _ = try URLSessionTransport(pins: ["id.example.com": pins])
        #else
            #expect(throws: TransportError(.pinningUnsupported)) {
                _ = try URLSessionTransport(pins: ["id.example.com": pins])
            }
            _ = try URLSessionTransport(pins: [:])  // no pins: fine everywhere
        #endif
    }

    /// The portable pin verdict the Apple challenge handler uses.
    @Test func pinVerdicts() throws {
        let chainPEM = try String(contentsOf: Self.fixture("chain.pem"), encoding: .utf8)
        let chain = try X509Certificate.certificates(pemOrDER: Array(chainPEM.utf8)).map(\.der)
        let expected = try String(contentsOf: Self.fixture("expected-pins.txt"), encoding: .utf8)
            .split(separator: "\n").map { "sha256/" + $0 }
        let now = Date()
        let matching = ServerTrust(pins: [
            "id.example.com": try PinSet(
                pins: [expected[1], "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="], expires: now + 86_400)
        ])
        #expect(matching.verdict(host: "ID.example.com", chain: chain, now: now) == .accept)
        #expect(matching.verdict(host: "other.example.com", chain: chain, now: now) == .notPinned)
        guard case .refuse = matching.verdict(host: "id.example.com", chain: nil, now: now) else {
            Issue.record("an untrusted chain must be refused even if a pin matches")
            return
        }
        let wrong = ServerTrust(pins: [
            "id.example.com": try PinSet(
                pins: [
                    "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
                    "sha256/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=",
                ], expires: now + 86_400)
        ])
        guard case .refuse = wrong.verdict(host: "id.example.com", chain: chain, now: now) else {
            Issue.record("a chain matching no pin must be refused")
            return
        }
    }

    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WardenCryptoTests/Fixtures/\(name)")
    }
}
