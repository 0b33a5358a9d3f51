import Foundation
import Testing
import WardenCore
import WardenStorage

@testable import WardenOAuth
@testable import WardenSession

/// The session's policies as a value: one test per transition and per race, waiters are plain `Int`s, time is a
/// `Date` passed in, nothing sleeps and nothing does I/O.
@Suite("Session state machine")
struct SessionStateMachineTests {
    typealias Machine = SessionStateMachine<Int>
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func tokens(_ generation: UInt64, expiresIn: TimeInterval = -10, refresh: String? = nil) -> TokenSet {
        var set = TokenSet(
            accessToken: "at-\(generation)", refreshToken: refresh ?? "rt-\(generation)", idToken: nil,
            expiresAt: t0.addingTimeInterval(expiresIn), scope: nil, issuer: "https://id.example.com")
        set.generation = generation
        return set
    }

    static func machine(_ tokens: TokenSet? = Self.tokens(0), stored: Bool = true, maximumRefreshes: Int = 5)
        -> Machine
    {
        Machine(
            tokens: tokens, stored: stored, maximumRefreshes: maximumRefreshes, refreshWindow: 30,
            backoffPolicy: AuthSession.refreshBackoff(jitter: { 0.5 }))
    }

    /// The machine after `tokenRequested` started a round and the store read returned what memory holds.
    static func sending(_ machine: inout Machine) -> TokenSet? {
        guard case .lockAndReadStore(let epoch) = machine.tokenRequested(.validFor(60), now: t0),
            case .sendRefresh(let spent, epoch) = machine.storeRead(.success(machine.tokens), epoch: epoch, now: t0)
        else { return nil }
        return spent
    }

    static func finish(_ action: Machine.Action) -> Machine.Finish? {
        switch action {
        case .finish(let end), .purge(let end): end
        default: nil
        }
    }

    @Test func aValidTokenIsServedWithoutAnyIO() {
        var machine = Self.machine(Self.tokens(0, expiresIn: 3600))
        guard case .deliver("at-0", persistFirst: nil) = machine.tokenRequested(.validFor(60), now: Self.t0) else {
            Issue.record("not delivered from memory")
            return
        }
        #expect(machine.flight == nil && machine.refreshesSent == 0)
    }

    @Test func aTokenWithoutExpiryIsServed() {
        var set = Self.tokens(0)
        set.expiresAt = nil
        var machine = Self.machine(set)
        guard case .deliver("at-0", _) = machine.tokenRequested(.validFor(1e9), now: Self.t0) else {
            Issue.record("a token with no announced expiry was not served")
            return
        }
    }

    @Test func signedOutFailsAtOnce() {
        var machine = Self.machine(nil)
        guard case .fail(let error) = machine.tokenRequested(.validFor(60), now: Self.t0) else {
            Issue.record("a signed-out machine did not fail")
            return
        }
        #expect(error.code == .signedOut && machine.state == .signedOut(reason: .noSession))
    }

    @Test func callersDuringARoundWaitAndAllGetItsResult() throws {
        var machine = Self.machine()
        guard case .lockAndReadStore(let epoch) = machine.tokenRequested(.validFor(60), now: Self.t0) else {
            Issue.record("no round started")
            return
        }
        for waiter in 1...3 {
            guard case .wait = machine.tokenRequested(.validFor(60), now: Self.t0) else {
                Issue.record("caller \(waiter) started a second round")
                return
            }
            let joined = machine.join(waiter)
            #expect(joined)
        }
        guard
            case .sendRefresh(let spent, epoch) = machine.storeRead(
                .success(Self.tokens(0)), epoch: epoch, now: Self.t0)
        else {
            Issue.record("the refresh was not sent")
            return
        }
        guard
            case .persist(let fresh, _) = machine.refreshSucceeded(
                Self.tokens(1, expiresIn: 3600), epoch: epoch, now: Self.t0)
        else {
            Issue.record("the refreshed set was not persisted first")
            return
        }
        #expect(spent.refreshToken?.unredacted() == "rt-0")
        #expect(machine.tokens?.accessToken.unredacted() == "at-0", "not visible before the write")
        let end = try #require(Self.finish(machine.persisted(fresh, epoch: epoch, error: nil)))
        #expect(end.waiters == [1, 2, 3])
        #expect(try end.result.get() == "at-1")
        #expect(machine.tokens?.generation == 1 && machine.refreshesSent == 1 && machine.flight == nil)
    }

    @Test func joinWithoutARoundIsRefused() {
        var machine = Self.machine()
        let joined = machine.join(7)
        #expect(!joined)
    }

    @Test func tokensAnotherHolderStoredAreAdoptedWithoutARequest() throws {
        var machine = Self.machine()
        guard case .lockAndReadStore(let epoch) = machine.tokenRequested(.validFor(60), now: Self.t0) else {
            Issue.record("no round")
            return
        }
        _ = machine.join(1)
        let stored = Self.tokens(4, expiresIn: 3600)
        let end = try #require(Self.finish(machine.storeRead(.success(stored), epoch: epoch, now: Self.t0)))
        #expect(try end.result.get() == "at-4" && end.waiters == [1])
        #expect(machine.adoptions == 1 && machine.refreshesSent == 0 && machine.tokens == stored)
    }

    @Test func anExpiredAdoptedSetIsRefreshedWithItsOwnRefreshToken() {
        var machine = Self.machine()
        guard case .lockAndReadStore(let epoch) = machine.tokenRequested(.validFor(60), now: Self.t0),
            case .sendRefresh(let spent, _) = machine.storeRead(.success(Self.tokens(3)), epoch: epoch, now: Self.t0)
        else {
            Issue.record("not refreshed")
            return
        }
        #expect(spent.refreshToken?.unredacted() == "rt-3", "never the rotated-away rt-0")
        #expect(machine.adoptions == 1)
    }

    @Test func aSplitStoresCopyWithoutTheRefreshTokenIsNoNews() {
        var machine = Self.machine()
        var copy = Self.tokens(0)
        copy.refreshToken = nil
        copy.refreshTokenHeldSeparately = true
        guard case .lockAndReadStore(let epoch) = machine.tokenRequested(.validFor(60), now: Self.t0),
            case .sendRefresh(let spent, _) = machine.storeRead(.success(copy), epoch: epoch, now: Self.t0)
        else {
            Issue.record("not refreshed")
            return
        }
        #expect(spent.refreshToken?.unredacted() == "rt-0" && machine.adoptions == 0)
    }

    @Test func anEmptyStoreMeansAnotherHolderSignedOut() throws {
        var machine = Self.machine()
        guard case .lockAndReadStore(let epoch) = machine.tokenRequested(.validFor(60), now: Self.t0) else {
            Issue.record("no round started")
            return
        }
        let end = try #require(Self.finish(machine.storeRead(.success(nil), epoch: epoch, now: Self.t0)))
        #expect(throws: SessionError(.signedOut, "")) { try end.result.get() }
        #expect(machine.state == .signedOut(reason: .signedOutElsewhere))
        // Tokens never written yet (a session built over a sign-in before its first persist): not a sign-out.
        var fresh = Self.machine(stored: false)
        guard case .lockAndReadStore(let first) = fresh.tokenRequested(.validFor(60), now: Self.t0),
            case .sendRefresh = fresh.storeRead(.success(nil), epoch: first, now: Self.t0)
        else {
            Issue.record("an unwritten session followed an empty store")
            return
        }
    }

    @Test func anUnreadableStoreIsTransient() throws {
        var machine = Self.machine()
        guard case .lockAndReadStore(let epoch) = machine.tokenRequested(.validFor(60), now: Self.t0) else {
            Issue.record("no round started")
            return
        }
        let end = try #require(
            Self.finish(machine.storeRead(.failure(StorageError(.interactionNotAllowed)), epoch: epoch, now: Self.t0)))
        #expect(throws: SessionError(.degraded, "")) { try end.result.get() }
        #expect(machine.state == .degraded(reason: .storeUnavailable(.interactionNotAllowed)) && machine.tokens != nil)
    }

    @Test func transientFailureOpensAnEqualJitterBackoffWindow() throws {
        var machine = Self.machine()
        var waits: [TimeInterval] = []
        var now = Self.t0
        for _ in 1...4 {
            guard case .lockAndReadStore(let epoch) = machine.tokenRequested(.validFor(60), now: now),
                case .sendRefresh = machine.storeRead(.success(machine.tokens), epoch: epoch, now: now)
            else {
                Issue.record("no refresh")
                return
            }
            let end = try #require(Self.finish(machine.refreshFailed(OAuthError(.network), epoch: epoch, now: now)))
            let retryAt = try #require(
                { () -> Date? in
                    if case .failure(let error) = end.result { return error.retryAt }
                    return nil
                }())
            waits.append(retryAt.timeIntervalSince(now))
            guard case .fail(let early) = machine.tokenRequested(.validFor(60), now: retryAt.addingTimeInterval(-0.01))
            else {
                Issue.record("a refresh inside the backoff window")
                return
            }
            #expect(early.code == .degraded)
            now = retryAt
        }
        #expect(waits == [0.75, 1.5, 3, 6], "RetryPolicy's arithmetic, equal jitter at 0.5")
        #expect(machine.state == .degraded(reason: .refreshFailed(.network)))
    }

    @Test func retryAfterIsExactAndOutlivesTheNetworkReturn() throws {
        var machine = Self.machine()
        _ = Self.sending(&machine)
        let limited = OAuthError(.rateLimited, status: 429, retryAfter: 30, fromTokenEndpoint: true)
        _ = machine.refreshFailed(limited, epoch: 0, now: Self.t0)
        #expect(machine.backoff?.notBefore == Self.t0.addingTimeInterval(30))
        let retried = machine.networkBecameAvailable(now: Self.t0.addingTimeInterval(5))
        #expect(!retried, "Retry-After wins")
        #expect(machine.backoff != nil)
        guard case .fail(let error) = machine.tokenRequested(.validFor(60), now: Self.t0.addingTimeInterval(29)) else {
            Issue.record("retried before Retry-After")
            return
        }
        #expect(error.code == .rateLimited && error.retryAt == Self.t0.addingTimeInterval(30))
    }

    @Test func theNetworkReturnEndsAComputedBackoff() {
        var machine = Self.machine()
        _ = Self.sending(&machine)
        _ = machine.refreshFailed(OAuthError(.network), epoch: 0, now: Self.t0)
        machine.requestFailed(.notConnected)
        #expect(machine.state == .degraded(reason: .offline(.notConnected)))
        let retry = machine.networkBecameAvailable(now: Self.t0.addingTimeInterval(0.1))
        #expect(retry, "retry once now")
        #expect(machine.backoff == nil && machine.offline == nil)
        guard case .lockAndReadStore = machine.tokenRequested(.validFor(60), now: Self.t0.addingTimeInterval(0.1))
        else {
            Issue.record("still backing off after the network returned")
            return
        }
    }

    @Test func theNetworkReturnWithoutABackoffAsksForNothing() {
        var machine = Self.machine(Self.tokens(0, expiresIn: 3600))
        machine.requestFailed(.timedOut)
        let retry = machine.networkBecameAvailable(now: Self.t0)
        #expect(!retry)
        #expect(machine.state == .signedIn)
    }

    @Test func rejectionIsReadAgainBeforeSigningOut() throws {
        var machine = Self.machine()
        _ = Self.sending(&machine)
        guard
            case .rereadAfterRejection(let epoch) = machine.refreshFailed(
                OAuthError(.invalidGrant, fromTokenEndpoint: true), epoch: 0, now: Self.t0)
        else {
            Issue.record("signed out without reading the store again")
            return
        }
        // Another holder rotated meanwhile: adopted, not a revocation.
        let end = try #require(
            Self.finish(
                machine.storeReadAfterRejection(.success(Self.tokens(2, expiresIn: 3600)), epoch: epoch, now: Self.t0)))
        #expect(try end.result.get() == "at-2")
        #expect(machine.state == .signedIn && machine.adoptions == 1)
    }

    @Test func rejectionWithTheSameGrantStoredSignsOutAndPurges() throws {
        var machine = Self.machine()
        let spent = try #require(Self.sending(&machine))
        _ = machine.refreshFailed(OAuthError(.invalidGrant, fromTokenEndpoint: true), epoch: 0, now: Self.t0)
        guard case .purge(let end) = machine.storeReadAfterRejection(.success(spent), epoch: 0, now: Self.t0) else {
            Issue.record("not purged")
            return
        }
        #expect(throws: SessionError(.signedOut, "")) { try end.result.get() }
        #expect(machine.tokens == nil && machine.state == .signedOut(reason: .grantRejected))
    }

    @Test func signOutDuringARoundDiscardsEveryLaterStep() throws {
        for step in 0..<3 {
            var machine = Self.machine()
            guard case .lockAndReadStore(let epoch) = machine.tokenRequested(.validFor(60), now: Self.t0) else {
                return
            }
            _ = machine.join(9)
            if step > 0 { _ = machine.storeRead(.success(machine.tokens), epoch: epoch, now: Self.t0) }
            let ending = machine.signOutRequested()
            #expect(ending?.refreshToken?.unredacted() == "rt-0")
            let action: Machine.Action
            switch step {
            case 0: action = machine.storeRead(.success(Self.tokens(0)), epoch: epoch, now: Self.t0)
            case 1: action = machine.refreshSucceeded(Self.tokens(1, expiresIn: 3600), epoch: epoch, now: Self.t0)
            default: action = machine.persisted(Self.tokens(1, expiresIn: 3600), epoch: epoch, error: nil)
            }
            let end = try #require(Self.finish(action), "step \(step)")
            #expect(end.waiters == [9])
            #expect(throws: SessionError(.signedOut, "")) { try end.result.get() }
            if step == 2, case .finish = action { Issue.record("a write in flight at sign-out is not purged again") }
            #expect(machine.tokens == nil, "step \(step): nothing kept")
        }
    }

    @Test func aFailedWriteKeepsTheTokensInMemoryAndWritesThemAtTheNextCall() throws {
        var machine = Self.machine()
        _ = Self.sending(&machine)
        let fresh = Self.tokens(1, expiresIn: 3600)
        let end = try #require(Self.finish(machine.persisted(fresh, epoch: 0, error: StorageError(.locked))))
        #expect(throws: SessionError(.persistenceFailed, "")) { try end.result.get() }
        #expect(machine.needsPersist && machine.state == .degraded(reason: .tokensNotStored(.locked)))
        guard case .deliver("at-1", persistFirst: let stale?) = machine.tokenRequested(.validFor(60), now: Self.t0)
        else {
            Issue.record("the in-memory tokens did not serve")
            return
        }
        #expect(stale == fresh)
        machine.laterPersist(succeeded: true)
        #expect(!machine.needsPersist && machine.state == .signedIn)
    }

    @Test func aMissingVaultItemSignsOutAndALockedOneDoesNot() throws {
        var machine = Self.machine()
        _ = Self.sending(&machine)
        let locked = try #require(Self.finish(machine.refreshTokenUnavailable(StorageError(.userCancelled), epoch: 0)))
        #expect(throws: SessionError(.refreshTokenLocked, "")) { try locked.result.get() }
        #expect(machine.tokens != nil)
        _ = Self.sending(&machine)
        guard case .purge(let gone) = machine.refreshTokenUnavailable(nil, epoch: 0) else {
            Issue.record("a vanished vault item did not purge")
            return
        }
        #expect(throws: SessionError(.signedOut, "")) { try gone.result.get() }
    }

    @Test func noRefreshTokenSignsOut() {
        var machine = Self.machine()
        _ = Self.sending(&machine)
        guard case .purge(let end) = machine.noRefreshToken(epoch: 0) else {
            Issue.record("not purged")
            return
        }
        #expect(throws: SessionError(.noRefreshToken, "")) { try end.result.get() }
    }

    @Test func theLoopGuardCountsAnsweredRefreshes() {
        var machine = Self.machine(maximumRefreshes: 2)
        for generation in 1...2 {
            _ = Self.sending(&machine)
            _ = machine.refreshSucceeded(Self.tokens(UInt64(generation)), epoch: 0, now: Self.t0)
            _ = machine.persisted(Self.tokens(UInt64(generation)), epoch: 0, error: nil)
        }
        guard case .fail(let error) = machine.tokenRequested(.validFor(60), now: Self.t0.addingTimeInterval(29)) else {
            Issue.record("a third refresh within the window")
            return
        }
        #expect(error.code == .refreshLoop)
        guard case .lockAndReadStore = machine.tokenRequested(.validFor(60), now: Self.t0.addingTimeInterval(31)) else {
            Issue.record("the guard did not reopen after its window")
            return
        }
    }

    @Test func aRefusedTokenIsReplacedEvenWhileStillUnexpired() {
        var machine = Self.machine(Self.tokens(0, expiresIn: 3600))
        guard case .deliver("at-0", _) = machine.tokenRequested(.replacing("at-old"), now: Self.t0) else {
            Issue.record("a token that is no longer current was not simply returned")
            return
        }
        guard case .lockAndReadStore = machine.tokenRequested(.replacing("at-0"), now: Self.t0) else {
            Issue.record("the refused current token did not start a refresh")
            return
        }
        // A provider that announces no expiry: the refused token is still replaced, never handed back.
        var noExpiry = Self.tokens(0)
        noExpiry.expiresAt = nil
        var unexpiring = Self.machine(noExpiry)
        guard case .lockAndReadStore = unexpiring.tokenRequested(.replacing("at-0"), now: Self.t0) else {
            Issue.record("a refused token without expiry was handed back")
            return
        }
    }

    @Test func storedTokensBoundToAnotherDPoPKeyAreNotAdopted() throws {
        var machine = Self.machine()
        guard case .lockAndReadStore(let epoch) = machine.tokenRequested(.validFor(60), now: Self.t0) else {
            Issue.record("no round started")
            return
        }
        var bound = Self.tokens(2, expiresIn: 3600)
        bound.dpopThumbprint = "another-key"
        let end = try #require(Self.finish(machine.storeRead(.success(bound), epoch: epoch, now: Self.t0)))
        #expect(throws: SessionError(.signedOut, "")) { try end.result.get() }
        #expect(machine.adoptions == 0 && machine.tokens == nil)
    }
}
