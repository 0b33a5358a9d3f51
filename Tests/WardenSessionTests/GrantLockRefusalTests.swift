import Foundation
import Testing
import WardenCore
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// The refresh behind a grant lock that another holder will not give up, or that ran out.
@Suite("Grant lock refusals")
struct GrantLockRefusalTests {
    /// A store whose lock refuses (another holder is stuck) or hands out a lease that already ran out.
    actor LockedOutStore: DelegatingStore {
        struct Refusing: GrantLock {
            let lost: Bool
            func acquire(service: String, account: String) async throws(StorageError) -> GrantLease {
                guard lost else { throw StorageError(.lockTimeout, "another holder is refreshing") }
                return GrantLease(release: {}, isHeld: { false })
            }
        }
        nonisolated let inner = InMemoryStore()
        nonisolated let grantLock: any GrantLock
        init(lost: Bool) { grantLock = Refusing(lost: lost) }
    }

    @Test(arguments: [false, true])
    func noRefreshTokenIsSpentWithoutTheLock(leaseLost: Bool) async throws {
        let clock = ManualDate()
        let provider = FakeProvider()
        let store = LockedOutStore(lost: leaseLost)
        let session = AuthSession(
            tokens: Fixture.expired(clock), store: store, service: "svc", account: "a", refresher: provider,
            now: clock.now)
        try await session.persist()
        let before = try await store.load(service: "svc", account: "a")
        let error = await #expect(throws: SessionError(.degraded, "")) { try await session.validAccessToken() }
        #expect(error?.failureKind == .transient)
        #expect(await provider.refreshes == 0, "the refresh token was spent without holding the grant")
        #expect(await session.state == .degraded(reason: .storeUnavailable(.lockTimeout)))
        #expect(try await store.load(service: "svc", account: "a") == before, "the session and store are kept")
    }
}
