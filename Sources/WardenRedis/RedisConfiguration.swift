import Foundation
import WardenCore

/// Where the Redis server is and how to talk to it.
///
/// ```swift
/// let redis = try RedisConfiguration(url: "redis://warden@redis.internal:6379/2",
///                                    password: Redacted(environment["REDIS_PASSWORD"]!))
/// ```
///
/// TLS: WardenRedis speaks plain RESP (its socket I/O is its own, hiredis only formats commands and reads replies),
/// so `rediss://` is refused with ``RedisErrorDomain/Code/invalidConfiguration``;
/// reach a remote server over a private network or a TLS tunnel (stunnel, spiped) on loopback.
public struct RedisConfiguration: Sendable {
    /// A host name, an IPv4 address or an IPv6 address (without brackets).
    public var host: String
    /// The TCP port, 1...65535 (6379 by default).
    public var port: Int
    /// The ACL user (`AUTH user password`); nil authenticates as `default` when a password is set.
    public var username: String?
    /// The password, never printed (``Redacted``).
    public var password: Redacted<String>?
    /// The logical database (`SELECT`), 0...15 on a default server.
    public var database: Int
    /// Prepended to every key, so several services can share one server (`warden:` by default).
    public var keyPrefix: String
    /// How long connecting (and authenticating) may take.
    public var connectTimeout: Duration
    /// How long one command may take once sent.
    public var commandTimeout: Duration
    /// How many connections run commands in parallel (each its own blocking queue).
    public var connections: Int

    /// A configuration from its parts, checked by ``RedisClient/init(_:)``; by default `127.0.0.1:6379`, database 0,
    /// prefix `warden:`, a 2-second connect and 1-second command timeout, and 4 connections.
    public init(
        host: String = "127.0.0.1", port: Int = 6379, username: String? = nil, password: Redacted<String>? = nil,
        database: Int = 0, keyPrefix: String = "warden:", connectTimeout: Duration = .seconds(2),
        commandTimeout: Duration = .seconds(1), connections: Int = 4
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.keyPrefix = keyPrefix
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.connections = connections
    }

    /// Reads `redis://[user[:password]@]host[:port][/database]`. A password in the URL is taken (percent-decoded)
    /// unless `password` is given; prefer passing it apart, so the URL can be logged.
    ///
    /// - Throws: ``RedisErrorDomain/Code/invalidConfiguration`` for another scheme (`rediss://` included: no TLS in this
    ///   here), a missing host, a port or database out of range.
    public init(
        url text: String, password: Redacted<String>? = nil, keyPrefix: String = "warden:",
        connectTimeout: Duration = .seconds(2), commandTimeout: Duration = .seconds(1), connections: Int = 4
    ) throws(RedisError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw RedisError(.invalidConfiguration, "not a redis:// URL")
        }
        if scheme == "rediss" {
            throw RedisError(
                .invalidConfiguration,
                "rediss:// needs TLS, which WardenRedis does not speak: use a private network or a TLS tunnel")
        }
        guard scheme == "redis" else { throw RedisError(.invalidConfiguration, "the scheme must be redis://") }
        guard var host = components.host, !host.isEmpty else {
            throw RedisError(.invalidConfiguration, "the URL names no host")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? 6379
        guard (1...65_535).contains(port) else {
            throw RedisError(.invalidConfiguration, "port \(port) is out of range")
        }
        var database = 0
        let path = components.path.drop { $0 == "/" }
        if !path.isEmpty {
            guard let number = Int(path), (0...1_000_000).contains(number) else {
                throw RedisError(.invalidConfiguration, "the path must be a database number")
            }
            database = number
        }
        let user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap {
            $0.isEmpty ? nil : $0
        }
        let urlPassword = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }.map(Redacted.init)
        self.init(
            host: host, port: port, username: user, password: password ?? urlPassword, database: database,
            keyPrefix: keyPrefix, connectTimeout: connectTimeout, commandTimeout: commandTimeout,
            connections: connections)
    }

    /// `redis://host:port/db`: safe to print. Neither the password nor the user is shown: a password written in the
    /// user position (`redis://s3cret@host`, a common slip for `redis://:s3cret@host`) is read as a user name.
    public var displayURL: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "redis://\(shownHost):\(port)/\(database)"
    }
}
