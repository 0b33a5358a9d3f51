import Foundation
import WardenCore
import WardenCrypto

/// A small pool of Redis connections (``RedisConfiguration/connections``), each running its bounded blocking calls
/// on its own queue; commands go round-robin. Shared by the stores built on one server.
public final class RedisClient: Sendable {
    /// The configuration the client was made with, already checked.
    public let configuration: RedisConfiguration
    private let pool: [RedisConnection]
    private let next = Locked(0)
    /// Whether the server lacks `GETDEL` (Redis before 6.2): takes then run a Lua script instead.
    private let noGetDel = Locked(false)

    /// A client; connections open on first use, so this never blocks or fails.
    ///
    /// - Throws: ``RedisErrorDomain/Code/libraryMissing`` when hiredis is not installed (the error names the package);
    ///   ``RedisErrorDomain/Code/invalidConfiguration`` for an empty host, a port, database or pool size out of
    ///   range, or a key prefix with control characters.
    public init(_ configuration: RedisConfiguration) throws(RedisError) {
        guard !configuration.host.isEmpty, (1...65_535).contains(configuration.port) else {
            throw RedisError(.invalidConfiguration, "the host is empty or the port out of range")
        }
        guard (0...1_000_000).contains(configuration.database), (1...64).contains(configuration.connections) else {
            throw RedisError(.invalidConfiguration, "the database or the number of connections is out of range")
        }
        guard configuration.keyPrefix.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }),
            configuration.keyPrefix.utf8.count <= 128
        else { throw RedisError(.invalidConfiguration, "the key prefix must be printable and at most 128 bytes") }
        // A socket timeout rounds to microseconds and 0 means none: at least a millisecond.
        guard configuration.connectTimeout >= .milliseconds(1), configuration.commandTimeout >= .milliseconds(1) else {
            throw RedisError(.invalidConfiguration, "timeouts must be at least 1 ms")
        }
        try Hiredis.load()
        self.configuration = configuration
        pool = (0..<configuration.connections).map { RedisConnection(configuration, number: $0) }
    }

    /// Runs one command.
    func run(_ arguments: [[UInt8]]) async throws(RedisError) -> RedisReply {
        let index = next.withLock { value in
            defer { value = (value + 1) % pool.count }
            return value
        }
        return try await pool[index].run(arguments)
    }

    /// `PING`: whether the server answers (and accepts our credentials).
    public func ping() async throws(RedisError) {
        guard case .status("PONG") = try await run([Array("PING".utf8)]) else { throw RedisError(.unexpectedReply) }
    }

    /// The namespaced key for a one-time value: the prefix, the kind, and the SHA-256 of the value (never the
    /// value itself, so a key listing or a slow log shows no challenge and no `jti`).
    func key(_ kind: String, _ value: [UInt8]) -> [UInt8] {
        Array((configuration.keyPrefix + kind + ":").utf8) + Self.hexDigest(value)
    }

    /// Lower-case hex of the SHA-256 of `value`.
    static func hexDigest(_ value: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in HashFunction.sha256.hash(value) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return hex
    }

    /// Runs a Lua script (`EVAL`) over `keys` with `arguments`; Redis runs it atomically.
    func eval(_ script: String, keys: [[UInt8]], arguments: [[UInt8]]) async throws(RedisError) -> RedisReply {
        try await run([Array("EVAL".utf8), Array(script.utf8), Array(String(keys.count).utf8)] + keys + arguments)
    }

    /// `SET key value NX PX ms`: true when the key was new (and now holds `value` until the expiry).
    func setIfAbsent(_ key: [UInt8], _ value: [UInt8], milliseconds: Int64) async throws(RedisError) -> Bool {
        let reply = try await run([
            Array("SET".utf8), key, value, Array("NX".utf8), Array("PX".utf8), Array(String(max(1, milliseconds)).utf8),
        ])
        switch reply {
        case .status("OK"): return true
        case .null: return false
        default: throw RedisError(.unexpectedReply, "SET NX answered neither OK nor nil")
        }
    }

    /// Reads and deletes `key` in one atomic step: `GETDEL`, or a Lua script on servers before 6.2.
    func take(_ key: [UInt8]) async throws(RedisError) -> [UInt8]? {
        let reply: RedisReply
        if noGetDel.withLock({ $0 }) {
            reply = try await eval(Self.takeScript, keys: [key], arguments: [])
        } else {
            do {
                reply = try await run([Array("GETDEL".utf8), key])
            } catch  where error.code == .errorReply && error.reason.lowercased().contains("unknown command") {
                noGetDel.withLock { $0 = true }
                return try await take(key)
            }
        }
        switch reply {
        case .bulk(let bytes): return bytes
        case .null: return nil
        default: throw RedisError(.unexpectedReply, "GETDEL answered neither a string nor nil")
        }
    }

    /// GET then DEL as one script (Redis runs a script atomically).
    static let takeScript = "local v = redis.call('GET', KEYS[1]) if v then redis.call('DEL', KEYS[1]) end return v"
}
