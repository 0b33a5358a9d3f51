import Foundation
import Testing
import WardenCore

@_spi(Fuzzing) @testable import WardenRedis

/// A real `redis-server` (Debian's, installed by scripts/install-deps) on a free loopback port, in its own
/// temporary directory, for one test. Stopped by ``stop()`` or when the test ends (deinit).
final class RedisServer: @unchecked Sendable {
    let port: Int
    let directory: URL
    let arguments: [String]
    /// The running server's pid (spawned directly: Foundation's `Process.waitUntilExit` can hang in async tests).
    private var pid: pid_t?

    /// Starts a server with extra configuration (`["--requirepass", "pw"]`, `["--appendonly", "yes"]`).
    init(_ arguments: [String] = []) throws {
        port = try Self.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("warden-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.arguments = arguments
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    static let binary = ["/usr/bin/redis-server", "/usr/local/bin/redis-server", "/opt/homebrew/bin/redis-server"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Starts (or starts again, same port and data directory) and waits until it answers.
    func start() throws {
        guard let binary = Self.binary else {
            throw ServerError("redis-server is not installed (scripts/install-deps installs Debian's redis-server)")
        }
        let argv =
            [
                binary, "--port", String(port), "--bind", "127.0.0.1", "--dir", directory.path, "--save", "",
                "--daemonize", "no", "--loglevel", "warning", "--logfile", directory.appendingPathComponent("log").path,
            ] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        // The spawning thread (a test's, or libdispatch's) may block signals, and a child inherits the mask: start
        // the server with every signal unblocked and at its default action, so SIGTERM stops it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let status = posix_spawn(&child, binary, nil, &attributes, &cArguments, environ)
        guard status == 0 else { throw ServerError("posix_spawn redis-server: \(status)") }
        pid = child
        // Ready: a PING is answered +PONG (a server loading its AOF accepts connections but answers -LOADING).
        for _ in 0..<500 {
            if Self.pong(port) { return }
            var exitStatus: Int32 = 0
            if waitpid(child, &exitStatus, WNOHANG) == child {
                pid = nil
                break
            }
            usleep(10_000)
        }
        throw ServerError("redis-server did not start on port \(port): \(log())")
    }

    /// Stops the server (SIGTERM, as a service manager would) and waits for it to exit.
    func stop() {
        guard let pid else { return }
        kill(pid, SIGCONT)  // a paused server cannot act on SIGTERM
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        self.pid = nil
    }

    /// Freezes or thaws the server (SIGSTOP / SIGCONT): it keeps its socket but answers nothing.
    func pause(_ paused: Bool) {
        guard let pid else { return }
        kill(pid, paused ? SIGSTOP : SIGCONT)
    }

    var url: String { "redis://127.0.0.1:\(port)" }

    func configuration(
        password: String? = nil, username: String? = nil, prefix: String = "test:",
        commandTimeout: Duration = .seconds(2)
    ) -> RedisConfiguration {
        RedisConfiguration(
            port: port, username: username, password: password.map { Redacted($0) }, keyPrefix: prefix,
            commandTimeout: commandTimeout)
    }

    func client(password: String? = nil, username: String? = nil, prefix: String = "test:") throws -> RedisClient {
        try RedisClient(configuration(password: password, username: username, prefix: prefix))
    }

    func log() -> String {
        (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A random loopback port nothing is bound to right now, below the kernel's ephemeral range (32768 and up on
    /// Linux). Not the kernel's choice for port 0: that is where the other suites' local providers listen, and a
    /// provider simulating an outage closes its port for a while — a Redis started there would take it, and the
    /// provider could not come back.
    static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw ServerError("socket() failed") }
            defer { close(fd) }
            if onLoopback(port, { bind(fd, $0, $1) }) { return port }
        }
        throw ServerError("no free loopback port in 20000-31999")
    }

    /// Calls `body` (bind, connect) with 127.0.0.1:`port`; true when it returns 0.
    static func onLoopback(_ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Whether the server on `port` answers `PING` with `+PONG` (over a plain socket, not the client under test).
    static func pong(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard onLoopback(port, { connect(fd, $0, $1) }) else { return false }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let ping = Array("PING\r\n".utf8)
        guard send(fd, ping, ping.count, Int32(MSG_NOSIGNAL)) == ping.count else { return false }
        var reply = [UInt8](repeating: 0, count: 64)
        let count = recv(fd, &reply, reply.count, 0)
        // A server with requirepass answers -NOAUTH: ready too.
        return count > 0 && (reply[0] == UInt8(ascii: "+") || reply.starts(with: Array("-NOAUTH".utf8)))
    }
}
