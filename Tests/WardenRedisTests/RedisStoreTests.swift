import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenOAuth
import WardenPasskeys

@testable import WardenRedis

/// The Redis one-time stores against a real `redis-server` on loopback (one per test, random port): exactly-once
/// under concurrency and across processes, expiry, restarts, a server that is down, frozen or refuses us.
@Suite("Redis one-time stores (real redis-server)", .serialized)
struct RedisStoreTests {
    static func challenge(_ binding: String = "session-1", lifetime: TimeInterval = 300) throws -> PasskeyChallenge {
        try PasskeyChallenge(binding: binding, ceremony: .authentication, lifetime: lifetime)
    }

    @Test func aChallengeIssuedByOneInstanceIsRedeemedOnAnotherOnce() async throws {
        let server = try RedisServer()
        let issuer = RedisChallengeStore(client: try server.client())
        let other = RedisChallengeStore(client: try server.client())
        let issued = try await issuer.issue(binding: "session-1", ceremony: .registration, lifetime: 120)
        let redeemed = try await other.redeem(issued.value, binding: "session-1", ceremony: .registration)
        #expect(redeemed.value == issued.value && redeemed.binding == "session-1" && redeemed.ceremony == .registration)
        #expect(abs(redeemed.expires.timeIntervalSince(issued.expires)) < 0.001)
        await #expect(throws: PasskeyError(.challengeUnknown)) {
            _ = try await issuer.redeem(issued.value, binding: "session-1", ceremony: .registration)
        }
        // Binding and ceremony still decide after the round trip (the store keeps them, not only the value).
        let second = try await issuer.issue(binding: "session-1", ceremony: .authentication)
        await #expect(throws: PasskeyError(.challengeBindingMismatch)) {
            _ = try await other.redeem(second.value, binding: "session-2", ceremony: .authentication)
        }
    }

    @Test func concurrentTakesOfOneChallengeGetItOnce() async throws {
        let server = try RedisServer()
        let stores = [
            RedisChallengeStore(client: try server.client()), RedisChallengeStore(client: try server.client()),
        ]
        for _ in 0..<10 {
            let challenge = try Self.challenge()
            try await stores[0].put(challenge)
            let winners = await withTaskGroup(of: Int.self) { group in
                for index in 0..<32 {
                    group.addTask { (try? await stores[index % 2].take(challenge.value)) != nil ? 1 : 0 }
                }
                return await group.reduce(0, +)
            }
            #expect(winners == 1)
        }
    }

    @Test func concurrentInsertsOfOneJTIAcceptItOnce() async throws {
        let server = try RedisServer()
        let caches = [
            RedisDPoPReplayCache(client: try server.client()), RedisDPoPReplayCache(client: try server.client()),
        ]
        let now = Date()
        let fresh = await withTaskGroup(of: Int.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let inserted = try? await caches[index % 2].insert(
                        "jti-1", thumbprint: "key-a", expires: now.addingTimeInterval(300), now: now)
                    return inserted == true ? 1 : 0
                }
            }
            return await group.reduce(0, +)
        }
        #expect(fresh == 1)
        // A jti is the sender's: another key may use the same one.
        #expect(
            try await caches[0].insert("jti-1", thumbprint: "key-b", expires: now.addingTimeInterval(300), now: now))
    }

    @Test func twoVerifiersSharingRedisAcceptAProofOnce() async throws {
        let server = try RedisServer()
        let verifiers = [
            DPoPVerifier(replayCache: RedisDPoPReplayCache(client: try server.client())),
            DPoPVerifier(replayCache: RedisDPoPReplayCache(client: try server.client())),
        ]
        let url = URL(string: "https://api.example.com/orders")!
        let proof = try DPoPProofFactory(key: try SoftwareDPoPKey()).proof(method: "POST", url: url)
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<16 {
                group.addTask {
                    do throws(DPoPError) {
                        _ = try await verifiers[index % 2].verify(proof, method: "POST", url: url)
                        return "accepted"
                    } catch {
                        return error.codeName
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == "accepted" }.count == 1)
        #expect(outcomes.filter { $0 == "dpop_replayed" }.count == 15)
    }

    @Test func keysAreNamespacedHashedAndExpireWithTheirWindow() async throws {
        let server = try RedisServer()
        let client = try server.client()
        let store = RedisChallengeStore(client: client)
        let cache = RedisDPoPReplayCache(client: client)
        let challenge = try Self.challenge(lifetime: 120)
        try await store.put(challenge)
        let now = Date()
        #expect(
            try await cache.insert("visible-jti", thumbprint: "thumb", expires: now.addingTimeInterval(65), now: now))
        guard case .array(let keys) = try await client.run([Array("KEYS".utf8), Array("*".utf8)]) else {
            Issue.record("KEYS did not answer an array")
            return
        }
        let names = keys.compactMap { reply -> String? in
            if case .bulk(let bytes) = reply { return String(decoding: bytes, as: UTF8.self) }
            return nil
        }
        #expect(names.count == 2)
        for name in names {
            #expect(name.hasPrefix("test:challenge:") || name.hasPrefix("test:dpop:"), "\(name)")
            let digest = name.split(separator: ":").last ?? ""
            #expect(digest.count == 64 && digest.allSatisfy(\.isHexDigit), "\(name)")
            #expect(!name.contains("visible-jti") && !name.contains(challenge.base64URL))
            guard case .integer(let ttl) = try await client.run([Array("PTTL".utf8), Array(name.utf8)]) else {
                Issue.record("PTTL did not answer an integer")
                continue
            }
            let window: Int64 = name.hasPrefix("test:challenge:") ? 120_000 : 65_000
            #expect(ttl > window - 10_000 && ttl <= window, "\(name) expires in \(ttl) ms")
        }
    }

    @Test func entriesLapseWithTheirLifetime() async throws {
        let server = try RedisServer()
        let store = RedisChallengeStore(client: try server.client())
        let cache = RedisDPoPReplayCache(client: try server.client())
        let challenge = try Self.challenge(lifetime: 0.2)
        try await store.put(challenge)
        let now = Date()
        #expect(try await cache.insert("short", thumbprint: "k", expires: now.addingTimeInterval(0.2), now: now))
        #expect(try await !cache.insert("short", thumbprint: "k", expires: now.addingTimeInterval(0.2), now: now))
        // Redis expires them (not this client): poll for up to five seconds.
        var lapsed = false
        for _ in 0..<100 where !lapsed {
            try await Task.sleep(for: .milliseconds(50))
            lapsed = try await cache.insert(
                "short", thumbprint: "k", expires: Date().addingTimeInterval(60), now: Date())
        }
        #expect(lapsed)
        #expect(try await store.take(challenge.value) == nil)
    }

    @Test func aRestartedServerKeepsWhatItPersistedAndClientsReconnect() async throws {
        let server = try RedisServer(["--appendonly", "yes", "--appendfsync", "always"])
        let client = try server.client()
        let cache = RedisDPoPReplayCache(client: client)
        let store = RedisChallengeStore(client: client)
        let now = Date()
        let expires = now.addingTimeInterval(300)
        #expect(try await cache.insert("before-restart", thumbprint: "k", expires: expires, now: now))
        let challenge = try Self.challenge()
        try await store.put(challenge)
        server.stop()
        try server.start()
        // The same client, whose connections the restart closed: no error, and the jti is still known.
        #expect(try await !cache.insert("before-restart", thumbprint: "k", expires: expires, now: now))
        #expect(try await cache.insert("after-restart", thumbprint: "k", expires: expires, now: now))
        #expect(try await store.take(challenge.value)?.value == challenge.value)
    }

    @Test func aServerThatIsDownRefusesWithTransientTypedErrors() async throws {
        let server = try RedisServer()
        let client = try server.client()
        let cache = RedisDPoPReplayCache(client: client)
        #expect(try await cache.insert("a", thumbprint: "k", expires: Date().addingTimeInterval(60), now: Date()))
        server.stop()
        let error = await #expect(throws: RedisError.self) {
            _ = try await cache.insert("b", thumbprint: "k", expires: Date().addingTimeInterval(60), now: Date())
        }
        #expect(error?.code == .unreachable && error?.failureKind == .transient)
        // Through the verifiers: never "not seen before", a transient refusal the client may retry.
        let verifier = DPoPVerifier(replayCache: cache)
        let url = URL(string: "https://api.example.com/")!
        let proof = try DPoPProofFactory(key: try SoftwareDPoPKey()).proof(method: "GET", url: url)
        let refused = await #expect(throws: DPoPError(.replayCacheUnavailable)) {
            _ = try await verifier.verify(proof, method: "GET", url: url)
        }
        #expect(refused?.failureKind == .transient)
        let store = RedisChallengeStore(client: client)
        let unavailable = await #expect(throws: PasskeyError(.challengeStoreUnavailable)) {
            _ = try await store.redeem([1, 2, 3], binding: "s", ceremony: .authentication)
        }
        #expect(unavailable?.failureKind == .transient)
        await #expect(throws: PasskeyError(.challengeStoreUnavailable)) {
            _ = try await store.issue(binding: "s", ceremony: .authentication)
        }
        // Never started at all: the same.
        let nowhere = try RedisClient(RedisConfiguration(port: try RedisServer.freePort()))
        await #expect(throws: RedisError(.unreachable)) { try await nowhere.ping() }
    }

    @Test func aFrozenServerTimesOutAndTheClientRecovers() async throws {
        let server = try RedisServer()
        let client = try RedisClient(server.configuration(commandTimeout: .milliseconds(200)))
        let cache = RedisDPoPReplayCache(client: client)
        try await client.ping()
        server.pause(true)
        let error = await #expect(throws: RedisError.self) {
            _ = try await cache.insert("frozen", thumbprint: "k", expires: Date().addingTimeInterval(60), now: Date())
        }
        #expect(error?.code == .timedOut && error?.failureKind == .transient)
        server.pause(false)
        for _ in 0..<8 { try await client.ping() }  // every pooled connection works again
    }

    @Test func aWrongPasswordOrMissingOneIsRefusedAndNeverPrinted() async throws {
        let server = try RedisServer(["--requirepass", "right-horse-battery"])
        for password in ["wrong-staple", nil] {
            let error = await #expect(throws: RedisError.self) {
                try await server.client(password: password).ping()
            }
            #expect(error?.code == .authenticationFailed && error?.failureKind == .misconfiguration)
            let printed = error.map { "\($0)" } ?? ""
            #expect(!printed.contains("staple"))
        }
        try await server.client(password: "right-horse-battery").ping()
        let configuration = server.configuration(password: "right-horse-battery")
        #expect(!"\(configuration)".contains("horse") && !configuration.displayURL.contains("horse"))
        // Through a verifier: a transient refusal, never an acceptance.
        let store = RedisChallengeStore(client: try server.client(password: "wrong-staple"))
        await #expect(throws: PasskeyError(.challengeStoreUnavailable)) {
            _ = try await store.redeem([1], binding: "s", ceremony: .authentication)
        }
    }

    @Test func anACLUserLimitedToThePrefixWorksAndCannotLeaveIt() async throws {
        let server = try RedisServer(["--user", "default", "off", "--user", "rp", "on", ">rp-pass", "~test:*", "+@all"])
        let store = RedisChallengeStore(client: try server.client(password: "rp-pass", username: "rp"))
        let challenge = try Self.challenge()
        try await store.put(challenge)
        #expect(try await store.take(challenge.value)?.binding == "session-1")
        let outside = RedisChallengeStore(client: try server.client(password: "rp-pass", username: "rp", prefix: "x:"))
        await #expect(throws: RedisError(.errorReply)) { try await outside.put(try Self.challenge()) }
        await #expect(throws: RedisError(.authenticationFailed)) {
            try await server.client(password: "rp-pass", username: "intruder").ping()
        }
    }

    @Test func withoutGETDELTheTakeIsALuaScriptAndStillOnce() async throws {
        let server = try RedisServer(["--rename-command", "GETDEL", ""])
        let client = try server.client()
        await #expect(throws: RedisError(.errorReply)) { _ = try await client.run([Array("GETDEL".utf8), [0x6B]]) }
        let stores = [RedisChallengeStore(client: client), RedisChallengeStore(client: try server.client())]
        let challenge = try Self.challenge()
        try await stores[0].put(challenge)
        let winners = await withTaskGroup(of: Int.self) { group in
            for index in 0..<16 {
                group.addTask { (try? await stores[index % 2].take(challenge.value)) != nil ? 1 : 0 }
            }
            return await group.reduce(0, +)
        }
        #expect(winners == 1)
    }

    @Test func aValueNotInWardensFormatIsAnErrorNotAChallenge() async throws {
        let server = try RedisServer()
        let client = try server.client()
        let value: [UInt8] = Array(repeating: 7, count: 32)
        _ = try await client.run([Array("SET".utf8), client.key("challenge", value), Array("v1\nlogin\nsoon".utf8)])
        let store = RedisChallengeStore(client: client)
        await #expect(throws: PasskeyError(.challengeStoreUnavailable)) {
            _ = try await store.redeem(value, binding: "s", ceremony: .authentication)
        }
    }

    @Test(arguments: [
        ("redis://cache.internal", "cache.internal", 6379, nil as String?, nil as String?, 0),
        ("redis://:p%40ss@10.0.0.5:6380/3", "10.0.0.5", 6380, nil, "p@ss", 3),
        ("redis://svc:pw@[::1]:7000/1", "::1", 7000, "svc", "pw", 1),
        ("REDIS://Host", "host", 6379, nil, nil, 0),
    ])
    func redisURLsAreRead(
        _ url: String, host: String, port: Int, user: String?, password: String?, database: Int
    ) throws {
        let configuration = try RedisConfiguration(url: url)
        #expect(configuration.host.lowercased() == host && configuration.port == port)
        #expect(configuration.username == user && configuration.password?.unredacted() == password)
        #expect(configuration.database == database)
        if let password { #expect(!configuration.displayURL.contains(password)) }
    }

    @Test(arguments: [
        "rediss://cache.internal", "http://cache.internal", "redis://", "redis://h:0", "redis://h/x", "redis://h/-1",
        "not a url",
    ])
    func unusableURLsAreRefused(_ url: String) {
        #expect(throws: RedisError(.invalidConfiguration)) { _ = try RedisConfiguration(url: url) }
    }

    @Test func unusableSettingsAreRefused() {
        for configuration in [
            RedisConfiguration(host: ""), RedisConfiguration(port: 0), RedisConfiguration(database: -1),
            RedisConfiguration(keyPrefix: "a\nb"), RedisConfiguration(commandTimeout: .zero),
            RedisConfiguration(connections: 0),
        ] {
            #expect(throws: RedisError(.invalidConfiguration)) { _ = try RedisClient(configuration) }
        }
    }
}
