import Foundation
import Testing
import WardenCore
import WardenJOSE

@_spi(Fuzzing) @testable import WardenCrypto
@testable import WardenPasskeys

@Suite("Challenges and ChallengeStore")
struct ChallengeTests {
    @Test func challengesAre32FreshBytes() throws {
        let values = try (0..<1000).map { _ in try PasskeyChallenge(binding: "s", ceremony: .registration).value }
        #expect(values.allSatisfy { $0.count == 32 })
        #expect(Set(values).count == 1000)
    }

    @Test func oneTimeBoundAndExpiring() async throws {
        let store = InMemoryChallengeStore()
        let now = Date()
        let issued = try await store.issue(binding: "session-1", ceremony: .authentication, now: now)
        #expect(
            try await store.redeem(issued.value, binding: "session-1", ceremony: .authentication, now: now) == issued)
        await #expect(throws: PasskeyError(.challengeUnknown)) {
            try await store.redeem(issued.value, binding: "session-1", ceremony: .authentication, now: now)
        }
        let other = try await store.issue(binding: "session-1", ceremony: .authentication, now: now)
        await #expect(throws: PasskeyError(.challengeBindingMismatch)) {
            try await store.redeem(other.value, binding: "session-2", ceremony: .authentication, now: now)
        }
        // A failed redemption burns the challenge too.
        await #expect(throws: PasskeyError(.challengeUnknown)) {
            try await store.redeem(other.value, binding: "session-1", ceremony: .authentication, now: now)
        }
        let registration = try await store.issue(binding: "session-1", ceremony: .registration, now: now)
        await #expect(throws: PasskeyError(.challengeBindingMismatch)) {
            try await store.redeem(registration.value, binding: "session-1", ceremony: .authentication, now: now)
        }
        let old = try await store.issue(binding: "session-1", ceremony: .registration, lifetime: 60, now: now)
        await #expect(throws: PasskeyError(.challengeExpired)) {
            try await store.redeem(old.value, binding: "session-1", ceremony: .registration, now: now + 61)
        }
        await #expect(throws: PasskeyError(.challengeUnknown)) {
            try await store.redeem([1, 2, 3], binding: "session-1", ceremony: .registration, now: now)
        }
    }

    @Test func concurrentRedemptionSucceedsOnce() async throws {
        let store = InMemoryChallengeStore()
        let issued = try await store.issue(binding: "s", ceremony: .authentication)
        let successes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    (try? await store.redeem(issued.value, binding: "s", ceremony: .authentication)) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(successes == 1)
    }

    @Test func capacityIsBounded() async throws {
        let store = InMemoryChallengeStore(capacity: 10)
        for _ in 0..<50 { _ = try await store.issue(binding: "s", ceremony: .registration) }
        #expect(await store.count == 10)
    }

    /// A store that cannot answer (a remote one down): issuing and redeeming refuse with a transient, typed error,
    /// never "unknown challenge"; a PasskeyError the store raises itself passes through.
    @Test func aStoreThatCannotAnswerIsATransientRefusal() async throws {
        struct Down: Error {}
        struct FailingStore: ChallengeStore {
            let error: any Error
            func put(_ challenge: PasskeyChallenge) async throws { throw error }
            func take(_ value: [UInt8]) async throws -> PasskeyChallenge? { throw error }
        }
        let down = FailingStore(error: Down())
        let refused = await #expect(throws: PasskeyError(.challengeStoreUnavailable)) {
            _ = try await down.redeem([1, 2, 3], binding: "s", ceremony: .authentication)
        }
        #expect(refused?.failureKind == .transient)
        await #expect(throws: PasskeyError(.challengeStoreUnavailable)) {
            _ = try await down.issue(binding: "s", ceremony: .registration)
        }
        let own = FailingStore(error: PasskeyError(.challengeExpired))
        await #expect(throws: PasskeyError(.challengeExpired)) {
            _ = try await own.redeem([1], binding: "s", ceremony: .authentication)
        }
        // A challenge kept outside the process comes back whole.
        let restored = PasskeyChallenge(
            restoring: [9, 9], binding: "b", ceremony: .registration, expires: Date(timeIntervalSince1970: 5))
        #expect(restored.value == [9, 9] && restored.binding == "b" && restored.expires.timeIntervalSince1970 == 5)
    }

    /// Issue 32 item 6: one binding issuing challenges without end keeps only its own last few; other sessions'
    /// challenges stay redeemable.

    @Test func oneBindingCannotPushOutAnothersChallenge() async throws {
        let store = InMemoryChallengeStore(capacity: 100, perBindingCapacity: 8)
        let now = Date()
        let legit = try await store.issue(binding: "alice", ceremony: .authentication, now: now)
        var flood: [PasskeyChallenge] = []
        for _ in 0..<1000 {
            flood.append(try await store.issue(binding: "mallory", ceremony: .authentication, now: now))
        }
        #expect(await store.count(forBinding: "mallory") == 8)
        #expect(
            try await store.redeem(legit.value, binding: "alice", ceremony: .authentication, now: now) == legit)
        // The flooding session's newest challenge works, its oldest was dropped.
        _ = try await store.redeem(flood.last!.value, binding: "mallory", ceremony: .authentication, now: now)
        await #expect(throws: PasskeyError(.challengeUnknown)) {
            try await store.redeem(flood[0].value, binding: "mallory", ceremony: .authentication, now: now)
        }
    }

    /// Many bindings fill the store: room is taken from the binding holding the most, never from one under its fair
    /// share; expired challenges make room first.
    @Test func aFullStoreTakesRoomFromTheBusiestBinding() async throws {
        let clock = Locked(Date())
        let store = InMemoryChallengeStore(capacity: 50, perBindingCapacity: 16, now: { clock.current })
        let now = clock.current
        let legit = try await store.issue(binding: "alice", ceremony: .registration, now: now)
        for index in 0..<150 {
            _ = try await store.issue(binding: "bot-\(index % 30)", ceremony: .registration, now: now)
        }
        #expect(await store.count == 50)
        #expect(await store.count(forBinding: "alice") == 1)
        #expect(try await store.redeem(legit.value, binding: "alice", ceremony: .registration, now: now) == legit)
        // After the lifetime the flood has expired: once the store is full again, the expired ones go first.
        clock.withLock { $0 += PasskeyChallenge.defaultLifetime + 1 }
        let first = try await store.issue(binding: "bob", ceremony: .registration, now: clock.current)
        #expect(await store.count == 50)
        let second = try await store.issue(binding: "bob", ceremony: .registration, now: clock.current)
        #expect(await store.count == 2)
        for challenge in [first, second] {
            _ = try await store.redeem(challenge.value, binding: "bob", ceremony: .registration, now: clock.current)
        }
    }

    @Test func redeemFromClientData() async throws {
        let store = InMemoryChallengeStore()
        let issued = try await store.issue(binding: "s", ceremony: .registration)
        let json = Array(
            #"{"type":"webauthn.create","challenge":"\#(issued.base64URL)","origin":"https://example.com"}"#.utf8)
        #expect(try await store.redeem(clientDataJSON: json, binding: "s", ceremony: .registration) == issued)
    }
}
