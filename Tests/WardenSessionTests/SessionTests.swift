import Foundation
import Testing
import WardenCore
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// A token endpoint that rotates refresh tokens and rejects reuse, like a real provider.
actor FakeProvider: TokenRefresher {
    var validRefreshTokens: Set<String> = ["rt-0"]
    var refreshes = 0
    var generation = 0
    var failure: OAuthError?
    var delay: Duration = .zero
    var omitRefreshToken = false
    var revoked: [String] = []

    func setFailure(_ error: OAuthError?) { failure = error }
    func setDelay(_ delay: Duration) { self.delay = delay }
    func setOmitRefreshToken(_ value: Bool) { omitRefreshToken = value }

    func refresh(refreshToken: String, scope: String?) async throws(OAuthError) -> TokenResponse {
        refreshes += 1
        if delay > .zero { try? await Task.sleep(for: delay) }
        if let failure { throw failure }
        guard validRefreshTokens.contains(refreshToken) else {
            throw OAuthError(.invalidGrant, "reused or unknown refresh token", status: 400, fromTokenEndpoint: true)
        }
        generation += 1
        if omitRefreshToken {
            return TokenResponse(
                accessToken: "at-\(generation)", expiresIn: 3600, refreshToken: nil, idToken: nil, scope: nil)
        }
        validRefreshTokens = ["rt-\(generation)"]  // rotation: the old one dies
        return TokenResponse(
            accessToken: "at-\(generation)", expiresIn: 3600, refreshToken: "rt-\(generation)", idToken: nil, scope: nil
        )
    }

    func revoke(token: String, hint: String) async throws(OAuthError) { revoked.append(hint) }
}

enum Fixture {
    static func expired(_ clock: ManualDate) -> TokenSet {
        TokenSet(
            accessToken: "at-0", refreshToken: "rt-0", idToken: nil,
            expiresAt: clock.date.current.addingTimeInterval(-10), scope: nil, issuer: "https://id.example.com")
    }
}

extension Fixture {
    /// A session for `svc`/`a` whose access token (at-0, refresh token rt-0) is valid for an hour on `clock`, over an
    /// in-memory store.
    static func freshSession(_ clock: ManualDate, refresher: any TokenRefresher = FakeProvider()) -> AuthSession {
        var fresh = expired(clock)
        fresh.expiresAt = clock.date.current.addingTimeInterval(3600)
        return AuthSession(
            tokens: fresh, store: InMemoryStore(), service: "svc", account: "a", refresher: refresher, now: clock.now)
    }

    /// A session for `svc`/`a` whose access token (at-0, refresh token rt-0) expired ten seconds ago, with its clock,
    /// fake provider and in-memory store.
    static func expiredSession(maximumRefreshes: Int = 5) -> (ManualDate, FakeProvider, InMemoryStore, AuthSession) {
        let clock = ManualDate()
        let provider = FakeProvider()
        let store = InMemoryStore()
        let session = AuthSession(
            tokens: expired(clock), store: store, service: "svc", account: "a", refresher: provider,
            maximumRefreshes: maximumRefreshes, now: clock.now)
        return (clock, provider, store, session)
    }
}

@Suite("AuthSession")
struct AuthSessionTests {
    /// One error shape: a SessionError without a reason reads as its code in words, like every other Warden error.
    @Test func aSessionErrorWithoutAReasonSaysItsCode() {
        #expect(SessionError(.signedOut).reason == "signed out")
        let (loop, line) = (SessionError(.refreshLoop), #line)
        #expect(loop.description == "refresh_loop: refresh loop (WardenSessionTests/SessionTests.swift:\(line))")
        #expect(SessionError(.persistenceFailed, "the keychain is locked").reason == "the keychain is locked")
    }

    /// A token endpoint that holds each refresh until the test releases it (no sleeping: the refresh is in flight
    /// for exactly as long as the test says).
    actor RoundGatedProvider: TokenRefresher {
        /// Every refresh waiting to be let through (one per round when single-flight holds; more if it broke, and
        /// each is released, so a broken session fails the count instead of hanging the test).
        private var gates: [CheckedContinuation<Void, Never>] = []
        private(set) var refreshes = 0
        func refresh(refreshToken: String, scope: String?) async throws(OAuthError) -> TokenResponse {
            refreshes += 1
            let number = refreshes
            await withCheckedContinuation { gates.append($0) }
            return TokenResponse(
                accessToken: "at-\(number)", expiresIn: 3600, refreshToken: "rt-\(number)", idToken: nil, scope: nil)
        }
        var waiting: Bool { !gates.isEmpty }
        func release() {
            for gate in gates { gate.resume() }
            gates.removeAll()
        }
        func revoke(token: String, hint: String) async throws(OAuthError) {}
    }

    @Test(.timeLimit(.minutes(1))) func concurrentCallersShareOneRefreshPerRound() async throws {
        let clock = ManualDate()
        let provider = RoundGatedProvider()
        let store = InMemoryStore()
        let session = AuthSession(
            tokens: Fixture.expired(clock), store: store, service: "svc", account: "a", refresher: provider,
            maximumRefreshes: 100, now: clock.now)
        for round in 1...20 {
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<1000 { group.addTask { try await session.validAccessToken(minTTL: 60) } }
                // The refresh is held until the callers have had every chance to arrive and join it (a session
                // that started none would be seen here, not waited for).
                var polls = 0
                while !(await provider.waiting), polls < 100_000 {
                    polls += 1
                    await Task.yield()
                }
                #expect(await provider.waiting, "round \(round): no refresh started")
                for _ in 0..<2000 { await Task.yield() }
                await provider.release()
                for _ in 0..<100 { await Task.yield() }
                await provider.release()  // any refresh a broken session started late
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens == ["at-\(round)"], "round \(round): every caller got the one refreshed token")
            #expect(await provider.refreshes == round, "exactly one refresh in round \(round)")
            clock.advance(3600)  // expire again
        }
        let stored = try TokenSet(encoded: try #require(await store.load(service: "svc", account: "a")))
        #expect(stored.refreshToken?.unredacted() == "rt-20", "the rotated refresh token was persisted")
    }

    /// A store that logs when a save of the rotated refresh token returns; the save yields many times first, so
    /// a session that resumed its waiters before persisting would let their log lines in ahead of it.
    final class OrderRecordingStore: DelegatingStore {
        nonisolated let inner = InMemoryStore()
        let events = Locked<[String]>([])
        func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            for _ in 0..<200 { await Task.yield() }
            try await inner.save(data, service: service, account: account)
            let refresh = (try? TokenSet(encoded: data))?.refreshToken?.unredacted() ?? "?"
            events.withLock { $0.append("saved \(refresh)") }
        }
    }

    @Test func rotatedTokenIsPersistedBeforeWaitersResume() async throws {
        let clock = ManualDate()
        let store = OrderRecordingStore()
        let session = AuthSession(
            tokens: Fixture.expired(clock), store: store, service: "svc", account: "a", refresher: FakeProvider(),
            now: clock.now)
        await withTaskGroup(of: Void.self) { group in
            for caller in 0..<20 {
                group.addTask {
                    let token = try? await session.validAccessToken()
                    store.events.withLock { $0.append("resumed \(caller) with \(token ?? "nil")") }
                }
            }
        }
        let events = store.events.current
        #expect(events.count == 21, "\(events)")
        #expect(
            events.first == "saved rt-1", "the rotated refresh token was stored before any caller resumed: \(events)")
        #expect(events.dropFirst().allSatisfy { $0.hasSuffix("with at-1") }, "\(events)")
    }

    @Test func responseWithoutRefreshTokenKeepsTheOldOne() async throws {
        let (_, provider, _, session) = Fixture.expiredSession()
        await provider.setOmitRefreshToken(true)
        _ = try await session.validAccessToken()
        #expect(await session.currentTokens?.refreshToken?.unredacted() == "rt-0")
    }

    @Test func transientFailuresKeepTheSession() async throws {
        for error in [
            OAuthError(.network, "offline"), OAuthError(.timedOut),
            OAuthError(.temporarilyUnavailable, fromTokenEndpoint: true),
            OAuthError(.httpError, status: 503, fromTokenEndpoint: true),
            OAuthError(.rateLimited, status: 429, retryAfter: 5, fromTokenEndpoint: true),
            OAuthError(.invalidTokenResponse, "HTML page"),
        ] {
            let (clock, provider, store, session) = Fixture.expiredSession()
            await provider.setFailure(error)
            try await session.persist()
            let expected = error.retryAfter == nil ? SessionError.Code.degraded : .rateLimited
            await #expect(throws: SessionError(expected, "")) { try await session.validAccessToken() }
            #expect(await session.state == .degraded(reason: error.codeName))
            #expect(await !session.state.canMutate)
            #expect(try await store.load(service: "svc", account: "a") != nil, "\(error.codeName): tokens kept")
            // Back online, after the backoff: recovers.
            await provider.setFailure(nil)
            clock.advance(6)
            #expect(try await session.validAccessToken() == "at-1")
            #expect(await session.state == .signedIn)
        }
    }

    @Test func terminalFailuresSignOutAndPurge() async throws {
        for error in [
            OAuthError(.invalidGrant, fromTokenEndpoint: true),
            OAuthError(.invalidClient, status: 401, fromTokenEndpoint: true),
            OAuthError(.httpError, status: 401, fromTokenEndpoint: true),
        ] {
            let (_, provider, store, session) = Fixture.expiredSession()
            await provider.setFailure(error)
            try await session.persist()
            await #expect(throws: SessionError(.signedOut, "")) { try await session.validAccessToken() }
            guard case .signedOut = await session.state else {
                Issue.record("\(error.codeName) did not sign out")
                continue
            }
            #expect(try await store.load(service: "svc", account: "a") == nil, "every stored item deleted")
            await #expect(throws: SessionError(.signedOut, "")) { try await session.validAccessToken() }
        }
    }

    /// Reads work, writes fail with `locked`.
    actor SaveFailingStore: DelegatingStore {
        nonisolated let inner = InMemoryStore()
        var failure: StorageError?
        func failSaves(_ error: StorageError?) { failure = error }
        func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            if let failure { throw failure }
            try await inner.save(data, service: service, account: account)
        }
    }

    @Test func aStoreThatCannotBeReadIsNotRefreshedBehind() async throws {
        // The device is locked (a WhenUnlocked item): another holder may have rotated the grant, so the session
        // does not spend its in-memory refresh token blind; it stays, degraded, and tries at the next call.
        let (_, provider, store, session) = Fixture.expiredSession()
        try await session.persist()
        await store.injectFailure(StorageError(.interactionNotAllowed))
        await #expect(throws: SessionError(.degraded, "")) { try await session.validAccessToken() }
        #expect(await provider.refreshes == 0)
        #expect(await session.state == .degraded(reason: "interaction_not_allowed"))
        await store.clearFailure()
        #expect(try await session.validAccessToken() == "at-1")
        #expect(await session.state == .signedIn)
    }

    @Test func lockedKeychainDuringPersistenceKeepsServingFromMemory() async throws {
        let clock = ManualDate()
        let provider = FakeProvider()
        let store = SaveFailingStore()
        let session = AuthSession(
            tokens: Fixture.expired(clock), store: store, service: "svc", account: "a", refresher: provider,
            now: clock.now)
        try await session.persist()
        await store.failSaves(StorageError(.locked))
        await #expect(throws: SessionError(.persistenceFailed, "")) { try await session.validAccessToken() }
        // The in-memory tokens still serve (no second refresh that would burn the rotated token).
        #expect(try await session.validAccessToken() == "at-1")
        #expect(await provider.refreshes == 1)
        // Storage comes back: the next call writes the rotated tokens.
        await store.failSaves(nil)
        _ = try await session.validAccessToken()
        let stored = try TokenSet(encoded: try #require(await store.load(service: "svc", account: "a")))
        #expect(stored.refreshToken?.unredacted() == "rt-1")
    }

    @Test func processDiesBetweenResponseAndPersistence() async throws {
        // The server rotated rt-0 → rt-1, but the process died before writing. What is stored is rt-0, which the
        // server now rejects: the restored session must sign out cleanly (invalid_grant), never loop or keep a
        // dead token around.
        let clock = ManualDate()
        let provider = FakeProvider()
        let store = InMemoryStore()
        try await store.save(try Fixture.expired(clock).encoded(), service: "svc", account: "a")
        _ = try await provider.refresh(refreshToken: "rt-0", scope: nil)  // the response that was lost
        let restored = try await AuthSession.restore(
            store: store, service: "svc", account: "a", refresher: provider, now: clock.now)
        await #expect(throws: SessionError(.signedOut, "")) { try await restored.validAccessToken() }
        #expect(try await store.load(service: "svc", account: "a") == nil)
    }

    @Test func refreshLoopGuard() async throws {
        let clock = ManualDate()
        let provider = FakeProvider()
        let session = AuthSession(
            tokens: Fixture.expired(clock), store: InMemoryStore(), service: "svc", account: "a", refresher: provider,
            maximumRefreshes: 3,
            refreshWindow: 30, now: clock.now)
        for _ in 0..<3 { _ = try await session.validAccessToken(minTTL: 7200) }  // the TTL always looks too short
        await #expect(throws: SessionError(.refreshLoop, "")) { try await session.validAccessToken(minTTL: 7200) }
        clock.advance(31)
        #expect(try await session.validAccessToken(minTTL: 7200) == "at-4")
    }

    @Test func signOutRevokesAndDeletes() async throws {
        let (_, provider, store, session) = Fixture.expiredSession()
        try await session.persist()
        var iterator = session.states.makeAsyncIterator()
        #expect(await iterator.next() == .signedIn)
        await session.signOut()
        #expect(await provider.revoked == ["refresh_token", "access_token"])
        #expect(try await store.load(service: "svc", account: "a") == nil)
        #expect(await iterator.next() == .signedOut(reason: "signed out by the user"))
    }
}

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

@Suite("Rate limits and degradation")
struct RateLimitTests {
    @Test func aTokenEndpointRateLimitIsWaitedOutExactlyAndNeverHammered() async throws {
        let (clock, provider, _, session) = Fixture.expiredSession()
        await provider.setFailure(OAuthError(.rateLimited, status: 429, retryAfter: 30, fromTokenEndpoint: true))
        let start = clock.date.current
        let first = await #expect(throws: SessionError.self) { try await session.validAccessToken() }
        #expect(first?.code == .rateLimited && first?.retryAt == start.addingTimeInterval(30))
        #expect(await session.state == .degraded(reason: "rate_limited"), "kept, never signed out")
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
        #expect(await session.state == .degraded(reason: "offline (not_connected)"))
        #expect(await session.currentTokens != nil, "the session is kept")
        online.withLock { $0 = true }
        #expect(try await client.send(HTTPRequest(url: url)).status == 200)
        #expect(await session.state == .signedIn)
    }
}
