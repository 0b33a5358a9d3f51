import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenOAuth
import WardenPasskeys

@_spi(Fuzzing) @testable import WardenRedis

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
            let outcomes = await withTaskGroup(of: String.self) { group in
                for index in 0..<32 {
                    group.addTask {
                        do { return try await stores[index % 2].take(challenge.value) != nil ? "won" : "nil" } catch {
                            return "error: \(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            // One winner, and every loser was answered "already taken", none failed.
            #expect(
                outcomes.filter { $0 == "won" }.count == 1 && outcomes.filter { $0 == "nil" }.count == 31, "\(outcomes)"
            )
        }
    }

    @Test func concurrentInsertsOfOneJTIAcceptItOnce() async throws {
        let server = try RedisServer()
        let caches = [
            RedisDPoPReplayCache(client: try server.client()), RedisDPoPReplayCache(client: try server.client()),
        ]
        let now = Date()
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<64 {
                group.addTask {
                    do {
                        let inserted = try await caches[index % 2].insert(
                            "jti-1", thumbprint: "key-a", expires: now.addingTimeInterval(300), now: now)
                        return inserted ? "fresh" : "seen"
                    } catch {
                        return "error: \(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(
            outcomes.filter { $0 == "fresh" }.count == 1 && outcomes.filter { $0 == "seen" }.count == 63, "\(outcomes)")
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
        // The challenge, the jti, and the proof key's set of live entries.
        #expect(names.count == 3, "\(names)")
        for name in names {
            #expect(name.hasPrefix("test:challenge:") || name.hasPrefix("test:dpop:{"), "\(name)")
            let digest = (name.split(separator: ":").last ?? "").filter { $0 != "{" && $0 != "}" }
            #expect(digest.count == 64 && digest.allSatisfy(\.isHexDigit), "\(name)")
            #expect(!name.contains("visible-jti") && !name.contains(challenge.base64URL))
            guard case .integer(let ttl) = try await client.run([Array("PTTL".utf8), Array(name.utf8)]) else {
                Issue.record("PTTL did not answer an integer")
                continue
            }
            let window: Int64 = name.hasPrefix("test:challenge:") ? 120_000 : 65_000  // the set lives as its last entry
            #expect(ttl > window - 10_000 && ttl <= window, "\(name) expires in \(ttl) ms")
        }
    }

    @Test func entriesLapseWithTheirLifetime() async throws {
        let server = try RedisServer()
        let store = RedisChallengeStore(client: try server.client())
        let cache = RedisDPoPReplayCache(client: try server.client())
        let challenge = try Self.challenge(lifetime: 0.2)
        try await store.put(challenge)
        let key = store.client.key("challenge", challenge.value)
        #expect(try await store.client.run([Array("EXISTS".utf8), key]) == .integer(1))  // stored, then lapses
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

    /// A challenge already past its expiry when it is put is not stored (Redis cannot keep a key for a negative
    /// time): its redemption is refused, and nothing lingers in Redis.
    @Test func aChallengePutAfterItsExpiryIsNeverRedeemable() async throws {
        let server = try RedisServer()
        let store = RedisChallengeStore(client: try server.client())
        let expired = PasskeyChallenge(
            restoring: Array(repeating: 3, count: 32), binding: "s", ceremony: .authentication,
            expires: Date().addingTimeInterval(-1))
        try await store.put(expired)
        #expect(try await store.client.run([Array("DBSIZE".utf8)]) == .integer(0))
        await #expect(throws: PasskeyError(.challengeUnknown)) {
            _ = try await store.redeem(expired.value, binding: "s", ceremony: .authentication)
        }
    }

    @Test func aRestartedServerKeepsWhatItPersistedAndClientsReconnect() async throws {
        let server = try RedisServer(["--appendonly", "yes", "--appendfsync", "always"])
        // One pooled connection, so every command after the restart meets the connection the server closed.
        var configuration = server.configuration()
        configuration.connections = 1
        let client = try RedisClient(configuration)
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

    /// What the README warns about: without persistence a restart forgets the recorded jtis.
    @Test func aRestartWithoutPersistenceForgetsTheWindow() async throws {
        let server = try RedisServer()
        let cache = RedisDPoPReplayCache(client: try server.client())
        let now = Date()
        #expect(try await cache.insert("j", thumbprint: "k", expires: now.addingTimeInterval(300), now: now))
        server.stop()
        try server.start()
        #expect(try await cache.insert("j", thumbprint: "k", expires: now.addingTimeInterval(300), now: now))
    }

    @Test func oneKeyFillsOnlyItsOwnQuota() async throws {
        let server = try RedisServer()
        let cache = RedisDPoPReplayCache(client: try server.client(), perKeyCapacity: 3)
        let now = Date()
        for number in 0..<3 {
            #expect(
                try await cache.insert("j\(number)", thumbprint: "flood", expires: now.addingTimeInterval(1), now: now))
        }
        #expect(try await !cache.insert("j3", thumbprint: "flood", expires: now.addingTimeInterval(1), now: now))
        #expect(try await cache.insert("j0", thumbprint: "other", expires: now.addingTimeInterval(1), now: now))
        // Once its entries have lapsed (the verifier's clock says so), the key may record again.
        let later = now.addingTimeInterval(2)
        #expect(try await cache.insert("j4", thumbprint: "flood", expires: later.addingTimeInterval(1), now: later))
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
        var configuration = server.configuration(commandTimeout: .milliseconds(200))
        configuration.connections = 1
        let client = try RedisClient(configuration)
        let cache = RedisDPoPReplayCache(client: client)
        try await client.ping()
        server.pause(true)
        // Three at once on one connection: the first waits out its socket timeout, the ones queued behind it fail
        // on their deadline without being sent, so none waits for the others' timeouts too.
        let errors = await withTaskGroup(of: RedisError?.self) { group in
            for number in 0..<3 {
                group.addTask {
                    do {
                        _ = try await cache.insert(
                            "frozen-\(number)", thumbprint: "k", expires: Date().addingTimeInterval(60), now: Date())
                        return nil
                    } catch let error as RedisError {
                        return error
                    } catch {
                        return RedisError(.unexpectedReply)
                    }
                }
            }
            return await group.reduce(into: [RedisError?]()) { $0.append($1) }
        }
        #expect(errors.allSatisfy { $0?.code == .timedOut && $0?.failureKind == .transient }, "\(errors)")
        #expect(errors.contains { $0?.reason.contains("waited out its timeout") == true }, "\(errors)")
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
        // Through a ceremony: a configuration error naming the cause (not "retry later"), never an acceptance.
        let store = RedisChallengeStore(client: try server.client(password: "wrong-staple"))
        let refused = await #expect(throws: PasskeyError(.invalidConfiguration)) {
            _ = try await store.redeem([1], binding: "s", ceremony: .authentication)
        }
        #expect(refused?.reason.contains("redis_authentication_failed") == true)
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
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<16 {
                group.addTask {
                    do { return try await stores[index % 2].take(challenge.value) != nil ? "won" : "nil" } catch {
                        return "error: \(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(
            outcomes.filter { $0 == "won" }.count == 1 && outcomes.filter { $0 == "nil" }.count == 15, "\(outcomes)")
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
            RedisConfiguration(connectTimeout: .microseconds(999)),
            RedisConfiguration(connections: 0),
        ] {
            #expect(throws: RedisError(.invalidConfiguration)) { _ = try RedisClient(configuration) }
        }
    }
}
