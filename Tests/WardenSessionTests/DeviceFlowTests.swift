import Foundation
import Testing
import WardenCore
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// RFC 8628 through `AuthClient.signInOnDevice`, on the local provider in virtual time (the client's sleeps move the
/// clock both sides read): the user approves after a few polls, polls too fast and is told to slow down, denies, or
/// lets the code expire; malformed device authorizations are refused.
@Suite("Device authorization grant (RFC 8628)", .serialized)
struct DeviceFlowTests {
    /// Passes requests to the provider and lets a test see or rewrite the answers.
    struct Intercepting: HTTPTransport {
        let inner = URLSessionTransport()
        let rewrite: @Sendable (HTTPRequest, HTTPResponse) -> HTTPResponse
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            rewrite(request, try await inner.send(request))
        }
    }

    static func isDevicePoll(_ request: HTTPRequest) -> Bool {
        request.url.path.hasSuffix("/token")
            && String(decoding: request.body ?? Data(), as: UTF8.self).contains("device_code")
    }

    struct Setup {
        let date = ManualDate(Date())
        let provider: LocalProvider
        let store = InMemoryStore()
        let clock: AdvancingClock

        init() throws {
            provider = try LocalProvider(clientID: "tv-app", now: date.now)
            clock = AdvancingClock(date)
        }

        func client(transport: any HTTPTransport = URLSessionTransport()) throws -> AuthClient {
            var configuration = AuthClient.Configuration(
                issuer: provider.issuer, clientID: "tv-app", redirectURI: try RedirectURI("com.example.tv:/unused"),
                scopes: ["openid", "offline_access"], store: store, service: "svc", account: "tv", transport: transport,
                now: date.now)
            configuration.maximumClockOffset = 0
            return AuthClient(configuration)
        }
    }

    @Test func theUserApprovesAfterAFewPolls() async throws {
        let setup = try Setup()
        defer { setup.provider.stop() }
        let polls = Locked(0)
        let shown = Locked<DeviceAuthorization?>(nil)
        let provider = setup.provider
        let transport = Intercepting { request, response in
            if Self.isDevicePoll(request),
                polls.withLock({
                    $0 += 1
                    return $0
                }) == 2,
                let code = shown.current?.userCode
            {
                provider.decideDevice(userCode: code, approve: true)  // between the second poll and the third
            }
            return response
        }
        let signIn = try await setup.client(transport: transport).signInOnDevice(clock: setup.clock) { authorization in
            shown.withLock { $0 = authorization }
        }
        let authorization = try #require(shown.current)
        #expect(authorization.userCode.count == 8 && authorization.verificationURI.path == "/device")
        #expect(!"\(authorization)".contains(authorization.deviceCode.unredacted()), "the device code prints redacted")
        #expect(polls.current == 3, "pending, pending, then the tokens")
        #expect(setup.clock.slept == [.seconds(5), .seconds(5), .seconds(5)])
        #expect(try signIn.claims?.subject == "demo-user-1")
        #expect(try await setup.store.load(service: "svc", account: "tv") != nil)
        // The device's grant refreshes like any other.
        setup.provider.expireAccessTokens()
        _ = try await signIn.session.validAccessToken(minTTL: 1e9)
        #expect(await signIn.session.refreshCount == 1)
    }

    @Test func slowDownLengthensTheIntervalForGood() async throws {
        let setup = try Setup()
        defer { setup.provider.stop() }
        let provider = setup.provider
        let polls = Locked(0)
        let userCode = Locked<String?>(nil)
        let transport = Intercepting { request, response in
            // The provider wants 5 s; this answer claims 1 s, so the client's second poll comes too early.
            if request.url.path.hasSuffix("/device_authorization") {
                let text = String(decoding: response.body, as: UTF8.self).replacingOccurrences(
                    of: #""interval":5"#, with: #""interval":1"#)
                return HTTPResponse(status: response.status, headers: response.headers, body: Data(text.utf8))
            }
            if Self.isDevicePoll(request),
                polls.withLock({
                    $0 += 1
                    return $0
                }) == 3, let code = userCode.current
            {
                provider.decideDevice(userCode: code, approve: true)
            }
            return response
        }
        _ = try await setup.client(transport: transport).signInOnDevice(clock: setup.clock) { authorization in
            userCode.withLock { $0 = authorization.userCode }
        }
        // 1 s (pending: the first poll), 1 s (slow_down), then 6 s from there on.
        #expect(setup.clock.slept == [.seconds(1), .seconds(1), .seconds(6), .seconds(6)])
    }

    @Test func aDenialOrAnExpiryEndsItAndStoresNothing() async throws {
        let setup = try Setup()
        defer { setup.provider.stop() }
        let provider = setup.provider
        let denied = await #expect(throws: OAuthError.self) {
            try await setup.client().signInOnDevice(clock: setup.clock) { authorization in
                provider.decideDevice(userCode: authorization.userCode, approve: false)
            }
        }
        #expect(denied?.code == .accessDenied && denied?.failureKind == .userCancelled)
        setup.provider.setDeviceTiming(interval: 5, lifetime: 30)
        let expired = await #expect(throws: OAuthError.self) {
            try await setup.client().signInOnDevice(clock: setup.clock) { _ in }
        }
        #expect(expired?.code == .expiredToken && expired?.failureKind == .terminal)
        #expect(try await setup.store.load(service: "svc", account: "tv") == nil)
    }

    @Test func aProviderWithoutTheEndpointSaysSo() async throws {
        let metadata = try ProviderMetadata(
            issuer: "https://github.example", authorizationEndpoint: URL(string: "https://github.example/authorize")!,
            tokenEndpoint: URL(string: "https://github.example/token")!)
        let client = AuthClient(
            .init(
                provider: .metadata(metadata), clientID: "x", redirectURI: try RedirectURI("com.example.tv:/cb"),
                scopes: ["read:user"], store: InMemoryStore(), service: "svc"))
        let error = await #expect(throws: OAuthError.self) { try await client.signInOnDevice { _ in } }
        #expect(error?.code == .noDeviceAuthorizationEndpoint && error?.failureKind == .misconfiguration)
        let configured = try metadata.withDeviceAuthorizationEndpoint(URL(string: "https://github.example/device")!)
        #expect(configured.deviceAuthorizationEndpoint?.path == "/device")
        #expect(throws: OAuthError.self) {
            try metadata.withDeviceAuthorizationEndpoint(URL(string: "http://github.example/device")!)
        }
    }

    @Test func malformedDeviceAuthorizationsAreRefused() throws {
        let good =
            #"{"device_code":"d","user_code":"ABCD-EFGH","verification_uri":"https://id.example/device","expires_in":900,"interval":5}"#
        #expect(try DeviceAuthorization(json: Array(good.utf8), now: Date()).interval == 5)
        let bad = [
            "", "[]", "{}", #"{"device_code":"d"}"#,
            good.replacingOccurrences(of: #""device_code":"d""#, with: #""device_code":"a b""#),
            good.replacingOccurrences(of: #""user_code":"ABCD-EFGH""#, with: #""user_code":"""#),
            good.replacingOccurrences(of: "https://id.example", with: "http://id.example"),
            good.replacingOccurrences(of: "https://id.example/device", with: "javascript:alert(1)"),
            good.replacingOccurrences(of: #""expires_in":900"#, with: #""expires_in":0"#),
            good.replacingOccurrences(of: #""expires_in":900"#, with: #""expires_in":86400"#),
            good.replacingOccurrences(of: #""interval":5"#, with: #""interval":0"#),
            good.replacingOccurrences(of: #""interval":5"#, with: #""interval":3600"#),
            good.replacingOccurrences(of: "}", with: #","verification_uri_complete":"ftp://x/y"}"#),
            #"{"device_code":""# + String(repeating: "a", count: 1 << 20) + #""}"#,
        ]
        for text in bad {
            #expect(throws: OAuthError(.invalidDeviceAuthorization), "\(text.prefix(80))") {
                try DeviceAuthorization(json: Array(text.utf8), now: Date())
            }
        }
    }
}
