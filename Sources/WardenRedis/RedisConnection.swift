import Foundation
import WardenCore

/// One Redis connection and the serial queue its blocking calls run on. A connection that fails, or that sends
/// anything it was not asked for, is dropped and opened again by the next command.
///
/// Every command is bounded as a whole: connecting and authenticating by ``RedisConfiguration/connectTimeout``,
/// writing the command and reading its whole reply by one ``RedisConfiguration/commandTimeout`` deadline (a server
/// that trickles its reply a byte at a time cannot hold a verification), the reply by ``RedisReplyReader``'s size.
///
/// Thread-safety: `@unchecked Sendable` because `socket` is touched only on `queue`, which serialises every use.
final class RedisConnection: @unchecked Sendable {
    private let configuration: RedisConfiguration
    private let queue: DispatchQueue
    /// Touched only on `queue`.
    private var socket: RedisSocket?

    init(_ configuration: RedisConfiguration, number: Int) {
        self.configuration = configuration
        queue = DispatchQueue(label: "warden.redis.\(number)")
    }

    /// Runs one command (binary-safe arguments) off the caller's thread. A command that waited in the queue for
    /// longer than the command timeout (behind others stuck on a frozen server) fails without being sent, so no
    /// caller waits much more than one timeout.
    func run(_ arguments: [[UInt8]]) async throws(RedisError) -> RedisReply {
        let enqueued = ContinuousClock.now
        let timeout = configuration.commandTimeout
        let result: Result<RedisReply, RedisError> = await withCheckedContinuation { continuation in
            queue.async {
                guard ContinuousClock.now - enqueued < timeout else {
                    continuation.resume(
                        returning: .failure(RedisError(.timedOut, "the command waited out its timeout")))
                    return
                }
                // do/catch rather than Result(catching:), whose typed-throws form the Swift 5.8 library of older
                // SDKs lacks.
                do throws(RedisError) {
                    continuation.resume(returning: .success(try self.blockingRun(arguments)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// A command on the open connection, or on a new one. A pooled connection that has anything to read before a
    /// command is sent — the server closed it (a restart, an idle timeout), or it sent something unasked — is
    /// dropped and opened again; a command is never sent twice, because a connection can break after the server ran
    /// it (a `SET NX` sent again would then find its own key and refuse a fresh proof as a replay). A failure during
    /// the command is the answer.
    private func blockingRun(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        if let socket, socket.hasPendingInput { self.socket = nil }
        let socket = try open()
        do {
            return try command(socket, arguments, deadline: .now + configuration.commandTimeout)
        } catch {
            // An error reply leaves the connection in step; anything else leaves it unusable.
            if error.code != .errorReply && error.code != .authenticationFailed { self.socket = nil }
            throw error
        }
    }

    private func open() throws(RedisError) -> RedisSocket {
        if let socket { return socket }
        let deadline = ContinuousClock.now + configuration.connectTimeout
        let opened: RedisSocket
        do throws(RedisError) {
            opened = try RedisSocket.connect(host: configuration.host, port: configuration.port, deadline: deadline)
        } catch  where error.code == .unreachable {
            throw RedisError(.unreachable, "\(configuration.displayURL): \(error.reason)")
        }
        if let password = configuration.password {
            var auth: [[UInt8]] = [Array("AUTH".utf8)]
            if let user = configuration.username { auth.append(Array(user.utf8)) }
            auth.append(Array(password.unredacted().utf8))
            do throws(RedisError) {
                _ = try command(opened, auth, deadline: deadline)
            } catch  where error.code == .errorReply {
                throw RedisError(.authenticationFailed, "AUTH was refused for \(configuration.displayURL)")
            }
        }
        if configuration.database != 0 {
            do throws(RedisError) {
                _ = try command(
                    opened, [Array("SELECT".utf8), Array(String(configuration.database).utf8)], deadline: deadline)
            } catch  where error.code == .errorReply {
                // No such database on this server: an operator must change the URL; retrying cannot help.
                throw RedisError(
                    .invalidConfiguration, "SELECT \(configuration.database) was refused: \(error.reason.prefix(120))")
            }
        }
        socket = opened
        return opened
    }

    private func command(_ socket: RedisSocket, _ arguments: [[UInt8]], deadline: ContinuousClock.Instant)
        throws(RedisError) -> RedisReply
    {
        try socket.send(try Hiredis.format(arguments), until: deadline)
        let reader = try RedisReplyReader()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try socket.receive(into: buffer, until: deadline)
            guard count > 0 else { throw RedisError(.connectionLost, "the server closed the connection") }
            switch try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
            case nil: continue
            case .reply(let reply): return reply
            case .malformed(let why): throw RedisError(.unexpectedReply, why)
            case .errorReply(let message):
                // NOAUTH / WRONGPASS: the server wants credentials this configuration does not have.
                if message.hasPrefix("NOAUTH") || message.hasPrefix("WRONGPASS") {
                    throw RedisError(.authenticationFailed, "\(configuration.displayURL): \(message.prefix(120))")
                }
                throw RedisError(.errorReply, String(message.prefix(200)))
            }
        }
    }
}
