import Foundation
import Testing
import WardenCore
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

@Suite("AuthSession")
struct AuthSessionTests {
    /// One error shape: a SessionError without a reason reads as its code in words, like every other Warden error.
    @Test func aSessionErrorWithoutAReasonSaysItsCode() {
        #expect(SessionError(.signedOut).reason == "signed out")
        let (loop, line) = (SessionError(.refreshLoop), #line)
        #expect(loop.description == "refresh_loop: refresh loop (WardenSessionTests/AuthSessionTests.swift:\(line))")
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
            #expect(await session.state == .degraded(reason: .refreshFailed(error.code)))
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
        #expect(await session.state == .degraded(reason: .storeUnavailable(.interactionNotAllowed)))
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
        #expect(await iterator.next() == .signedOut(reason: .userSignedOut))
    }

    /// Every observer of `stateUpdates()` sees every change (a view model and a logger both see the sign-out), where
    /// readers of the one `states` stream would compete for its elements; a stream whose observer stopped is dropped.
    @Test func everySubscriberSeesEveryChange() async throws {
        let (_, _, _, session) = Fixture.expiredSession()
        try await session.persist()
        var first = session.stateUpdates().makeAsyncIterator()
        var second = session.stateUpdates().makeAsyncIterator()
        do { _ = session.stateUpdates() }  // an observer that went away at once
        #expect(await first.next() == .signedIn)
        #expect(await second.next() == .signedIn)
        await session.signOut()
        #expect(await first.next() == .signedOut(reason: .userSignedOut))
        #expect(await second.next() == .signedOut(reason: .userSignedOut))
        var late = session.stateUpdates().makeAsyncIterator()
        #expect(await late.next() == .signedOut(reason: .userSignedOut), "a late observer starts from now")
    }
}
