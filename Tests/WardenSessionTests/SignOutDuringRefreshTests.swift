import Foundation
import Testing
import WardenCore
import WardenStorage
import WardenTestSupport

@testable import WardenOAuth
@testable import WardenSession

/// A token endpoint that holds each refresh until the test releases it.
actor GatedProvider: TokenRefresher {
    private var gate: CheckedContinuation<Void, Never>?
    private(set) var started = false
    private(set) var revoked: [String] = []

    func refresh(refreshToken: String, scope: String?) async throws(OAuthError) -> TokenResponse {
        started = true
        await withCheckedContinuation { gate = $0 }
        return TokenResponse(accessToken: "at-late", expiresIn: 3600, refreshToken: "rt-late", idToken: nil, scope: nil)
    }
    func release() {
        gate?.resume()
        gate = nil
    }
    func revoke(token: String, hint: String) async throws(OAuthError) { revoked.append(hint) }
}

/// A store whose saves wait for the test.
actor GatedStore: DelegatingStore {
    nonisolated let inner = InMemoryStore()
    var gated = false
    private var gate: CheckedContinuation<Void, Never>?
    private(set) var saving = false
    func gateSaves() { gated = true }
    func release() {
        gate?.resume()
        gate = nil
    }
    func save(_ data: Data, service: String, account: String) async throws(StorageError) {
        if gated, service == "svc" {  // the token set only; a pending-revocation record is not held
            saving = true
            await withCheckedContinuation { gate = $0 }
        }
        try await inner.save(data, service: service, account: account)
    }
}

@Suite("Sign-out during a refresh")
struct SignOutDuringRefreshTests {
    @Test func aRefreshThatReturnsAfterSignOutIsDiscarded() async throws {
        let clock = ManualDate()
        let provider = GatedProvider()
        let store = GatedStore()
        let session = AuthSession(
            tokens: Fixture.expired(clock), store: store, service: "svc", account: "a", refresher: provider,
            now: clock.now)
        try await session.persist()
        let caller = Task { try await session.validAccessToken() }
        while !(await provider.started) { await Task.yield() }
        await session.signOut()
        await provider.release()
        await #expect(throws: SessionError(.signedOut, "")) { try await caller.value }
        #expect(try await store.load(service: "svc", account: "a") == nil, "nothing written back after the purge")
        #expect(await session.currentTokens == nil)
        guard case .signedOut = await session.state else {
            Issue.record("still signed in")
            return
        }
    }

    @Test func aWriteInFlightDuringSignOutIsPurgedAgain() async throws {
        let clock = ManualDate()
        let store = GatedStore()
        let session = AuthSession(
            tokens: Fixture.expired(clock), store: store, service: "svc", account: "a", refresher: FakeProvider(),
            now: clock.now)
        await store.gateSaves()
        let caller = Task { try await session.validAccessToken() }
        while !(await store.saving) { await Task.yield() }
        await session.signOut()
        await store.release()
        await #expect(throws: SessionError(.signedOut, "")) { try await caller.value }
        #expect(try await store.load(service: "svc", account: "a") == nil, "the late write was purged")
        #expect(await session.currentTokens == nil)
    }
}
