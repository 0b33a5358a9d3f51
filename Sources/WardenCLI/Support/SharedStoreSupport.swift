import Foundation
import WardenCore
import WardenOAuth
import WardenPasskeys

#if WARDEN_REDIS
    import WardenRedis
#endif

/// The one-time stores a verifying command keeps its state in: in memory for one run, or a Redis server that several
/// `warden` processes (instances of one relying party) share. The password comes from `WARDEN_REDIS_PASSWORD`, or
/// from the URL (visible in `ps`).
enum SharedStores {
    static let passwordVariable = "WARDEN_REDIS_PASSWORD"

    #if WARDEN_REDIS
        static func client(_ url: String, io: CommandIO) throws -> RedisClient {
            do {
                let password = io.environment[passwordVariable].flatMap { $0.isEmpty ? nil : Redacted($0) }
                return try RedisClient(RedisConfiguration(url: url, password: password))
            } catch {
                throw CLIError.usage(error.reason, code: error.codeName)
            }
        }
    #endif

    /// The DPoP replay cache `--replay-cache URL` names, or a fresh in-memory one.
    static func replayCache(_ arguments: ParsedArguments, io: CommandIO) throws -> any DPoPReplayCache {
        guard let url = arguments.value("replay-cache") else { return InMemoryDPoPReplayCache() }
        #if WARDEN_REDIS
            return RedisDPoPReplayCache(client: try client(url, io: io))
        #else
            _ = url  // never echoed: a URL may carry the password
            throw CLIError.usage(
                "this build of warden has no Redis support (WardenRedis is for Linux and macOS servers)")
        #endif
    }

    /// The challenge store `--challenge-store URL` names, if any.
    static func challengeStore(_ arguments: ParsedArguments, io: CommandIO) throws -> (any ChallengeStore)? {
        guard let url = arguments.value("challenge-store") else { return nil }
        #if WARDEN_REDIS
            return RedisChallengeStore(client: try client(url, io: io))
        #else
            _ = url  // never echoed: a URL may carry the password
            throw CLIError.usage(
                "this build of warden has no Redis support (WardenRedis is for Linux and macOS servers)")
        #endif
    }
}
