import Foundation
import Testing
import WardenCore
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

@Suite("RetryPolicy and AuthorizedClient")
struct RetryTests {
    @Test func buckets() {
        let policy = RetryPolicy(maximumAttempts: 4, baseDelay: .seconds(1), jitter: { 0.5 })
        #expect(
            policy.decide(.transport(TransportError(.timedOut)), attempt: 1, method: "GET", waitedSoFar: .zero)
                == .retry(after: .milliseconds(500)))
        #expect(
            policy.decide(.transport(TransportError(.notConnected)), attempt: 3, method: "GET", waitedSoFar: .zero)
                == .retry(after: .seconds(2)))
        #expect(
            policy.decide(.transport(TransportError(.timedOut)), attempt: 4, method: "GET", waitedSoFar: .zero)
                == .giveUp)
        #expect(
            policy.decide(.status(429, retryAfter: 7), attempt: 1, method: "GET", waitedSoFar: .zero)
                == .retry(after: .seconds(7)))
        // Never before Retry-After: beyond the budget (60 s total) it fails at once with the server's time, it is
        // never shortened to a cap and retried early.
        #expect(
            policy.decide(.status(429, retryAfter: 120), attempt: 1, method: "GET", waitedSoFar: .zero)
                == .rateLimited(retryAfter: .seconds(120)))
        #expect(
            policy.decide(.status(503, retryAfter: 99999), attempt: 1, method: "GET", waitedSoFar: .zero)
                == .rateLimited(retryAfter: .seconds(99999)))
        #expect(
            policy.decide(.status(503, retryAfter: 20), attempt: 2, method: "GET", waitedSoFar: .seconds(50))
                == .rateLimited(retryAfter: .seconds(20)), "beyond the total budget")
        #expect(
            policy.decide(.status(429, retryAfter: 45), attempt: 1, method: "GET", waitedSoFar: .zero)
                == .retry(after: .seconds(45)), "exact: not capped at maximumDelay (30 s), not jittered")
        #expect(
            policy.decide(.status(429, retryAfter: 0.2), attempt: 1, method: "GET", waitedSoFar: .zero)
                == .retry(after: .milliseconds(200)))
        #expect(
            policy.decide(.status(429, retryAfter: 3), attempt: 4, method: "GET", waitedSoFar: .zero)
                == .rateLimited(retryAfter: .seconds(3)), "out of attempts: say when")
        #expect(
            policy.decide(.status(429, retryAfter: nil), attempt: 1, method: "GET", waitedSoFar: .zero)
                == .retry(after: .milliseconds(500)), "no Retry-After: backoff")
        #expect(policy.decide(.status(404, retryAfter: nil), attempt: 1, method: "GET", waitedSoFar: .zero) == .giveUp)
        #expect(policy.decide(.status(400, retryAfter: nil), attempt: 1, method: "GET", waitedSoFar: .zero) == .giveUp)
        #expect(policy.decide(.cancelled, attempt: 1, method: "GET", waitedSoFar: .zero) == .giveUp)
        #expect(
            policy.decide(.transport(TransportError(.timedOut)), attempt: 1, method: "POST", waitedSoFar: .zero)
                == .giveUp)
        var optIn = policy
        optIn.retryNonIdempotent = true
        #expect(
            optIn.decide(.transport(TransportError(.timedOut)), attempt: 1, method: "POST", waitedSoFar: .zero)
                != .giveUp)
        // Full jitter stays within [0, cap).
        let random = RetryPolicy(baseDelay: .seconds(1), maximumDelay: .seconds(4))
        for attempt in 1...10 { #expect(random.backoff(attempt) < .seconds(4)) }
    }

    @Test func authorizedClientRefreshesOnceOn401AndHonoursRetryAfter() async throws {
        let clock = ManualDate()
        let provider = FakeProvider()
        let session = Fixture.freshSession(clock, refresher: provider)
        let seen = Locked<[String]>([])
        let transport = RecordingTransport { request in
            let auth = request.header("Authorization") ?? ""
            let count = seen.withLock {
                $0.append(auth)
                return $0.count
            }
            #expect(request.url.query == nil, "tokens never in the query")
            switch count {
            case 1: return HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
            case 2: return HTTPResponse(status: 429, headers: ["Retry-After": "3"])
            default: return HTTPResponse(status: 200)
            }
        }
        let sleeper = RecordingClock()
        let client = AuthorizedClient(session: session, transport: transport, clock: sleeper)
        let response = try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/me")!))
        #expect(response.status == 200)
        #expect(seen.current == ["Bearer at-0", "Bearer at-1", "Bearer at-1"])
        #expect(sleeper.slept == [.seconds(3)])
        #expect(await provider.refreshes == 1)
    }

    @Test func secondUnauthorizedIsReturnedNotLooped() async throws {
        let clock = ManualDate()
        let provider = FakeProvider()
        let session = Fixture.freshSession(clock, refresher: provider)
        let transport = RecordingTransport { _ in HTTPResponse(status: 401) }
        let response = try await AuthorizedClient(session: session, transport: transport, clock: RecordingClock())
            .send(HTTPRequest(url: URL(string: "https://api.example.com/me")!))
        #expect(response.status == 401)
        #expect(await provider.refreshes == 1)
    }
}
