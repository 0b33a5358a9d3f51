import Foundation
import Testing
import WardenCore
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

@Suite("Rate limits and degradation")
struct RateLimitTests {
    @Test func aTokenEndpointRateLimitIsWaitedOutExactlyAndNeverHammered() async throws {
        let (clock, provider, _, session) = Fixture.expiredSession()
        await provider.setFailure(OAuthError(.rateLimited, status: 429, retryAfter: 30, fromTokenEndpoint: true))
        let start = clock.date.current
        let first = await #expect(throws: SessionError.self) { try await session.validAccessToken() }
        #expect(first?.code == .rateLimited && first?.retryAt == start.addingTimeInterval(30))
        #expect(await session.state == .degraded(reason: .refreshFailed(.rateLimited)), "kept, never signed out")
        await provider.setFailure(nil)
        for _ in 0..<10 {  // callers keep asking within the window: the provider is not called again
            clock.advance(2.9)
            let error = await #expect(throws: SessionError.self) { try await session.validAccessToken() }
            #expect(error?.code == .rateLimited)
        }
        #expect(await provider.refreshes == 1)
        clock.advance(1.1)  // 30.1 s after the 429
        #expect(try await session.validAccessToken() == "at-1")
        #expect(await provider.refreshes == 2)
        #expect(await session.state == .signedIn)
    }

    @Test func refreshFailuresBackOffWithJitter() async throws {
        let clock = ManualDate()
        let provider = FakeProvider()
        let session = AuthSession(
            tokens: Fixture.expired(clock), store: InMemoryStore(), service: "svc", account: "a", refresher: provider,
            maximumRefreshes: 100, now: clock.now, jitter: { 0.5 })
        await provider.setFailure(OAuthError(.network, "offline"))
        var waits: [TimeInterval] = []
        for _ in 1...5 {
            let error = await #expect(throws: SessionError.self) { try await session.validAccessToken() }
            let retryAt = try #require(error?.retryAt)
            waits.append(retryAt.timeIntervalSince(clock.date.current))
            // Before the time: no request at all.
            let before = await provider.refreshes
            clock.advance(retryAt.timeIntervalSince(clock.date.current) - 0.01)
            await #expect(throws: SessionError.self) { try await session.validAccessToken() }
            #expect(await provider.refreshes == before)
            clock.advance(0.02)
        }
        // base 1 s doubling, equal jitter at 0.5: 0.75, 1.5, 3, 6, 12 s.
        #expect(waits.map { ($0 * 100).rounded() / 100 } == [0.75, 1.5, 3, 6, 12])
        #expect(await provider.refreshes == 5)
    }

    @Test func anAPIRateLimitBeyondTheBudgetFailsAtOnceWithTheTime() async throws {
        let clock = ManualDate()
        let session = Fixture.freshSession(clock)
        let calls = Locked(0)
        let transport = RecordingTransport { _ in
            calls.withLock { $0 += 1 }
            return HTTPResponse(status: 429, headers: ["Retry-After": "120"])
        }
        let sleeper = RecordingClock()
        let client = AuthorizedClient(session: session, transport: transport, clock: sleeper, now: clock.now)
        let error = await #expect(throws: SessionError.self) {
            try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/me")!))
        }
        #expect(error?.code == .rateLimited)
        #expect(error?.retryAt == clock.date.current.addingTimeInterval(120))
        #expect(sleeper.slept.isEmpty, "no early retry, no waiting beyond the budget")
        #expect(calls.current == 1)
    }

    @Test func anHTTPDateRetryAfterIsWaitedExactly() async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)  // Fri, 15 Jan 2027 08:00:00 GMT
        #expect(RetryAfter.seconds("Fri, 15 Jan 2027 08:00:45 GMT", now: now) == 45)
        #expect(RetryAfter.seconds("Fri, 15 Jan 2027 07:59:00 GMT", now: now) == 0)
        #expect(RetryAfter.seconds("7200", now: now) == 7200, "two hours is not shortened")
        #expect(RetryAfter.seconds("soon", now: now) == nil)
        // Through the client: a 503 whose Retry-After is a date 20 s ahead of the session's clock is retried after
        // exactly those 20 s, once.
        let clock = ManualDate()  // the same instant
        let session = Fixture.freshSession(clock)
        let calls = Locked(0)
        let transport = RecordingTransport { _ in
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            return call == 1
                ? HTTPResponse(status: 503, headers: ["Retry-After": "Fri, 15 Jan 2027 08:00:20 GMT"])
                : HTTPResponse(status: 200)
        }
        let sleeper = RecordingClock()
        let client = AuthorizedClient(session: session, transport: transport, clock: sleeper, now: clock.now)
        let response = try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/me")!))
        #expect(response.status == 200 && calls.current == 2)
        #expect(sleeper.slept == [.seconds(20)])
    }

    @Test func anOfflineAPICallMakesTheSessionReadOnlyUntilARequestGetsThrough() async throws {
        let clock = ManualDate()
        let session = Fixture.freshSession(clock)
        let online = Locked(false)
        struct Offline: HTTPTransport {
            let online: Locked<Bool>
            func send(_ request: HTTPRequest) async throws -> HTTPResponse {
                guard online.current else { throw TransportError(.notConnected) }
                return HTTPResponse(status: 200)
            }
        }
        let client = AuthorizedClient(
            session: session, transport: Offline(online: online), retryPolicy: RetryPolicy(maximumAttempts: 1),
            clock: RecordingClock())
        let url = URL(string: "https://api.example.com/me")!
        await #expect(throws: TransportError.self) { try await client.send(HTTPRequest(url: url)) }
        #expect(await !session.state.canMutate)
        #expect(await session.state == .degraded(reason: .offline(.notConnected)))
        #expect(await session.currentTokens != nil, "the session is kept")
        online.withLock { $0 = true }
        #expect(try await client.send(HTTPRequest(url: url)).status == 200)
        #expect(await session.state == .signedIn)
    }
}
