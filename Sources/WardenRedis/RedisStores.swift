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
/// ``PasskeyErrorDomain/Code/challengeStoreUnavailable``.
///
/// Expiry is Redis's: a binding that asks for challenges without end fills memory only for their lifetime; rate-limit
/// issuance per session. Run Redis with `maxmemory-policy noeviction` (an evicted challenge is only a failed sign-in,
/// but an evicted DPoP `jti` is a replay): a full Redis then answers `-OOM` and the store refuses (transient).
public struct RedisChallengeStore: ChallengeStore {
    /// The client the store's commands run on; its key prefix starts every key.
    public let client: RedisClient
    let now: NowProvider

    /// A store over `client`; `now` is the clock a challenge's remaining lifetime (the `PX` of `SET`) is counted from.
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

    /// The string whose UTF-8 is exactly `bytes`, or nil when they are not UTF-8. Foundation's
    /// `String(bytes:encoding:)` drops a leading U+FEFF, which would let a challenge issued for "\u{FEFF}alice" be
    /// redeemed for "alice"; the binding must come back byte for byte, as the in-memory store keeps it.
    static func exactString(_ bytes: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    static func decode(_ bytes: [UInt8], value: [UInt8]) -> PasskeyChallenge? {
        let parts = bytes.split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].elementsEqual("v1".utf8),
            let ceremony = PasskeyChallenge.Ceremony(rawValue: String(decoding: parts[1], as: UTF8.self)),
            let milliseconds = Int64(String(decoding: parts[2], as: UTF8.self)),
            let binding = Self.exactString(parts[3])
        else { return nil }
        return PasskeyChallenge(
            restoring: value, binding: binding, ceremony: ceremony,
            expires: Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000))
    }
}

/// The DPoP `jti` replay cache in Redis, shared by every instance of a resource server or token endpoint: a proof is
/// accepted once across all of them.
///
/// ``insert(_:thumbprint:expires:now:)`` records the `jti` with `SET key 1 NX PX <until expires>` inside one Lua
/// script (Redis runs it atomically): of two instances racing on one proof, one gets it. The same script keeps, per
/// proof key, a sorted set of its live entries (score: expiry); a key holding ``perKeyCapacity`` of them has its new
/// proofs refused (as not fresh) until some expire, so one key flooding the cache fills neither memory nor anyone
/// else's quota. Keys: the prefix, `dpop:{SHA-256 of the thumbprint}` (the set) and `…:<SHA-256 of thumbprint and
/// jti>` (the `jti`); the braces keep both in one Redis Cluster slot. When Redis cannot answer, the store throws and
/// ``DPoPVerifier`` refuses with the transient ``DPoPErrorDomain/Code/replayCacheUnavailable``.
///
/// The instances' clocks must agree within the verifier's `leeway`: `now` and `expires` come from the instance.
/// A Redis that loses data (a restart without `appendonly yes` and `appendfsync always`, a failover to a lagging
/// replica, an eviction) forgets `jti`s of the last acceptance window: run it with AOF and `maxmemory-policy
/// noeviction`, under which a full Redis answers `-OOM` and proofs are refused (transient), never replayed.
public struct RedisDPoPReplayCache: DPoPReplayCache {
    /// The client the cache's commands and script run on; its key prefix starts every key.
    public let client: RedisClient
    /// Live entries one proof key may hold (10,000 by default, as ``InMemoryDPoPReplayCache``).
    public let perKeyCapacity: Int

    /// A cache over `client`; `perKeyCapacity` (default 10,000) is raised to at least 1.
    public init(client: RedisClient, perKeyCapacity: Int = 10_000) {
        self.client = client
        self.perKeyCapacity = max(1, perKeyCapacity)
    }

    public func insert(_ jti: String, thumbprint: String, expires: Date, now: Date) async throws -> Bool {
        let milliseconds = max(1, Int64((expires.timeIntervalSince(now) * 1000).rounded(.up)))
        let owner =
            Array((client.configuration.keyPrefix + "dpop:{").utf8) + RedisClient.hexDigest(Array(thumbprint.utf8))
            + Array("}".utf8)
        let entry = owner + Array(":".utf8) + RedisClient.hexDigest(Array(thumbprint.utf8) + [0] + Array(jti.utf8))
        let nowMilliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let reply = try await client.eval(
            Self.insertScript, keys: [entry, owner],
            arguments: [
                Array(String(milliseconds).utf8), Array(String(nowMilliseconds).utf8),
                Array(String(perKeyCapacity).utf8),
            ])
        switch reply {
        case .integer(1): return true
        case .integer(0), .integer(-1): return false
        default: throw RedisError(.unexpectedReply, "the replay script answered neither 1, 0 nor -1")
        }
    }

    /// KEYS: the jti's key, the proof key's set. ARGV: lifetime ms, now (Unix ms), per-key capacity.
    /// 1 recorded, 0 seen before, -1 this key holds its capacity of live entries.
    static let insertScript = """
        local ttl = tonumber(ARGV[1])
        local now = tonumber(ARGV[2])
        if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
        redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
        if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return -1 end
        if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ttl) then return 0 end
        redis.call('ZADD', KEYS[2], now + ttl, KEYS[1])
        if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
        return 1
        """
}
