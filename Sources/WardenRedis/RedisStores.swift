import Foundation
import WardenCore
import WardenOAuth
import WardenPasskeys

/// WebAuthn challenges in Redis, shared by every instance of a relying party: a challenge issued by one instance is
/// redeemed on any other, exactly once.
///
/// ``put(_:)`` is `SET key value NX PX <lifetime>`; ``take(_:)`` is `GETDEL` (a Lua script before Redis 6.2), so
/// two instances racing on one challenge get it once. The key is the prefix, `challenge:` and the SHA-256 of the
/// challenge. When Redis cannot answer, the store throws a ``RedisError`` and `redeem` refuses with the transient
/// ``PasskeyError/Code/challengeStoreUnavailable``.
///
/// Expiry is Redis's: a binding that asks for challenges without end fills memory only for their lifetime. Size
/// `maxmemory` with a `volatile-*` eviction policy, or rate-limit issuance per session.
public struct RedisChallengeStore: ChallengeStore {
    public let client: RedisClient
    let now: NowProvider

    public init(client: RedisClient, now: @escaping NowProvider = systemNow) {
        self.client = client
        self.now = now
    }

    public func put(_ challenge: PasskeyChallenge) async throws {
        let milliseconds = Int64((challenge.expires.timeIntervalSince(now()) * 1000).rounded(.up))
        guard milliseconds > 0 else { return }  // already expired: it could never be redeemed
        let stored = try await client.setIfAbsent(
            client.key("challenge", challenge.value), Self.encode(challenge), milliseconds: milliseconds)
        // 32 CSPRNG bytes never repeat; a collision means the store is not what it seems.
        guard stored else { throw RedisError(.unexpectedReply, "a challenge with this value is already stored") }
    }

    public func take(_ value: [UInt8]) async throws -> PasskeyChallenge? {
        guard let bytes = try await client.take(client.key("challenge", value)) else { return nil }
        guard let challenge = Self.decode(bytes, value: value) else {
            throw RedisError(.unexpectedReply, "the stored challenge is not in Warden's format")
        }
        return challenge
    }

    /// `v1`, the ceremony, the expiry in Unix milliseconds and the binding, one per line (the binding last: it may
    /// hold anything).
    static func encode(_ challenge: PasskeyChallenge) -> [UInt8] {
        let expires = Int64((challenge.expires.timeIntervalSince1970 * 1000).rounded(.down))
        return Array("v1\n\(challenge.ceremony.rawValue)\n\(expires)\n".utf8) + Array(challenge.binding.utf8)
    }

    static func decode(_ bytes: [UInt8], value: [UInt8]) -> PasskeyChallenge? {
        let parts = bytes.split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].elementsEqual("v1".utf8),
            let ceremony = PasskeyChallenge.Ceremony(rawValue: String(decoding: parts[1], as: UTF8.self)),
            let milliseconds = Int64(String(decoding: parts[2], as: UTF8.self)),
            let binding = String(validating: parts[3], as: UTF8.self)
        else { return nil }
        return PasskeyChallenge(
            restoring: value, binding: binding, ceremony: ceremony,
            expires: Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000))
    }
}

/// The DPoP `jti` replay cache in Redis, shared by every instance of a resource server or token endpoint: a proof is
/// accepted once across all of them.
///
/// ``insert(_:thumbprint:expires:now:)`` is `SET key 1 NX PX <until expires>`: of two instances racing on one
/// proof, one gets `OK`. The key is the prefix, `dpop:` and the SHA-256 of the key thumbprint and the `jti`. When
/// Redis cannot answer, the store throws and ``DPoPVerifier`` refuses with the transient
/// ``DPoPError/Code/replayCacheUnavailable``.
///
/// A Redis that loses its data (a restart without persistence, a failover to a lagging replica) forgets the `jti`s
/// of the last acceptance window: run it with `appendonly yes` where a replay within that window matters.
public struct RedisDPoPReplayCache: DPoPReplayCache {
    public let client: RedisClient

    public init(client: RedisClient) { self.client = client }

    public func insert(_ jti: String, thumbprint: String, expires: Date, now: Date) async throws -> Bool {
        let milliseconds = Int64((expires.timeIntervalSince(now) * 1000).rounded(.up))
        let key = client.key("dpop", Array(thumbprint.utf8) + [0] + Array(jti.utf8))
        return try await client.setIfAbsent(key, [0x31], milliseconds: max(1, milliseconds))
    }
}
