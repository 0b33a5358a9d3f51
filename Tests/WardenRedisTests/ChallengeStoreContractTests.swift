import Foundation
import Testing
import WardenCore
import WardenPasskeys

@_spi(Fuzzing) @testable import WardenRedis

/// One contract, both challenge stores: what `InMemoryChallengeStore` does, `RedisChallengeStore` does byte for byte
/// (the binding included: a challenge issued for "\u{FEFF}alice" is never redeemed for "alice").
@Suite("challenge store contract (in memory and on a real redis-server)", .serialized)
struct ChallengeStoreContractTests {
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case memory, redis
        var testDescription: String { rawValue }
    }

    /// The store, and the server it needs kept alive.
    static func store(_ kind: Kind) throws -> (any ChallengeStore, RedisServer?) {
        switch kind {
        case .memory: return (InMemoryChallengeStore(), nil)
        case .redis:
            let server = try RedisServer()
            return (RedisChallengeStore(client: try server.client()), server)
        }
    }

    /// Bindings that differ only in ways a lenient decoder or a Unicode-aware comparison would erase.
    static let lookalikes: [(issued: String, presented: String)] = [
        ("\u{FEFF}alice", "alice"),
        ("alice", "\u{FEFF}alice"),
        ("caf\u{E9}", "cafe\u{301}"),  // NFC and NFD: canonically equivalent, different bytes
        ("bob\u{0}", "bob"),
        ("Alice", "alice"),
    ]

    @Test(arguments: Kind.allCases)
    func aLookalikeBindingNeverRedeems(_ kind: Kind) async throws {
        let (store, server) = try Self.store(kind)
        defer { withExtendedLifetime(server) {} }
        for (issued, presented) in Self.lookalikes {
            let challenge = try await store.issue(binding: issued, ceremony: .authentication)
            await #expect(throws: PasskeyError(.challengeBindingMismatch), "\(kind): \(Array(issued.utf8))") {
                _ = try await store.redeem(challenge.value, binding: presented, ceremony: .authentication)
            }
            // The attempt spent it: the rightful owner cannot use it either (one use, whatever happens).
            await #expect(throws: PasskeyError(.challengeUnknown)) {
                _ = try await store.redeem(challenge.value, binding: issued, ceremony: .authentication)
            }
        }
    }

    @Test(arguments: Kind.allCases)
    func theExactBindingRedeemsOnceAndComesBackByteForByte(_ kind: Kind) async throws {
        let (store, server) = try Self.store(kind)
        defer { withExtendedLifetime(server) {} }
        for binding in ["\u{FEFF}alice", "cafe\u{301}", "line\nbreak", "👩‍💻"] {
            let challenge = try await store.issue(binding: binding, ceremony: .registration)
            let redeemed = try await store.redeem(challenge.value, binding: binding, ceremony: .registration)
            #expect(Array(redeemed.binding.utf8) == Array(binding.utf8) && redeemed.value == challenge.value)
            await #expect(throws: PasskeyError(.challengeUnknown)) {
                _ = try await store.redeem(challenge.value, binding: binding, ceremony: .registration)
            }
        }
    }

    @Test(arguments: Kind.allCases)
    func anotherCeremonyOrAnExpiredChallengeIsRefused(_ kind: Kind) async throws {
        let (store, server) = try Self.store(kind)
        defer { withExtendedLifetime(server) {} }
        let registration = try await store.issue(binding: "s", ceremony: .registration)
        await #expect(throws: PasskeyError(.challengeBindingMismatch)) {
            _ = try await store.redeem(registration.value, binding: "s", ceremony: .authentication)
        }
        let expiring = try await store.issue(binding: "s", ceremony: .authentication, lifetime: 60)
        await #expect(throws: PasskeyError(.challengeExpired)) {
            _ = try await store.redeem(
                expiring.value, binding: "s", ceremony: .authentication, now: Date().addingTimeInterval(61))
        }
        await #expect(throws: PasskeyError(.challengeUnknown)) {
            _ = try await store.redeem([UInt8](repeating: 7, count: 32), binding: "s", ceremony: .authentication)
        }
    }

    /// The stored record's binding is decoded to exactly its bytes; bytes that are not UTF-8 are no challenge.
    @Test func theRecordsBindingIsDecodedExactly() {
        let record = Array("v1\nauthentication\n0\n".utf8)
        #expect(
            RedisChallengeStore.decode(record + [0xEF, 0xBB, 0xBF] + Array("alice".utf8), value: [1])?.binding
                .utf8.count == 8)
        #expect(RedisChallengeStore.decode(record + [0xC3, 0x28], value: [1]) == nil)
    }
}
