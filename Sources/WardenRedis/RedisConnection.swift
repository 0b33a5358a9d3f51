import CHiredis
import Foundation
import WardenCore

/// A Redis reply, copied out of hiredis.
enum RedisReply: Sendable, Equatable {
    case status(String)
    case integer(Int64)
    case bulk([UInt8])
    case null
    case array([RedisReply])
}

/// One hiredis connection and the serial queue its blocking calls run on: the only file that touches hiredis.
/// A connection that fails is dropped and opened again by the next command.
final class RedisConnection: @unchecked Sendable {
    private let configuration: RedisConfiguration
    private let queue: DispatchQueue
    /// Touched only on `queue`.
    private var context: UnsafeMutablePointer<redisContext>?

    init(_ configuration: RedisConfiguration, number: Int) {
        self.configuration = configuration
        queue = DispatchQueue(label: "warden.redis.\(number)")
    }

    deinit { if let context { redisFree(context) } }

    /// Runs one command (binary-safe arguments) off the caller's thread. A command that waited in the queue for
    /// longer than the command timeout (behind others stuck on a frozen server) fails without being sent, so no
    /// caller waits much more than one timeout.
    func run(_ arguments: [[UInt8]]) async throws(RedisError) -> RedisReply {
        let enqueued = ContinuousClock.now
        let deadline = configuration.commandTimeout
        let result: Result<RedisReply, RedisError> = await withCheckedContinuation { continuation in
            queue.async {
                guard ContinuousClock.now - enqueued < deadline else {
                    continuation.resume(
                        returning: .failure(RedisError(.timedOut, "the command waited out its timeout")))
                    return
                }
                continuation.resume(returning: Result { () throws(RedisError) in try self.blockingRun(arguments) })
            }
        }
        return try result.get()
    }

    /// A command on the open connection, or on a new one. A pooled connection the server has closed since its last
    /// reply (a restart, an idle timeout) is noticed before anything is sent and opened again; a command is never
    /// sent twice, because a connection can break after the server ran it (a `SET NX` sent again would then find
    /// its own key and refuse a fresh proof as a replay). A failure during the command is the answer.
    private func blockingRun(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        if let context, Self.peerClosed(context.pointee.fd) {
            redisFree(context)
            self.context = nil
        }
        return try command(try open(), arguments)
    }

    /// Whether the server closed (or reset) an idle connection: readable with nothing to read, or an error.
    private static func peerClosed(_ fd: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }  // nothing pending: still open
        if poller.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return true }
        var byte: UInt8 = 0
        let peeked = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    private func open() throws(RedisError) -> UnsafeMutablePointer<redisContext> {
        if let context { return context }
        guard
            let opened = redisConnectWithTimeout(
                configuration.host, Int32(configuration.port), Self.timeValue(configuration.connectTimeout))
        else {
            throw RedisError(.unreachable, "could not allocate a connection")
        }
        if opened.pointee.err != 0 {
            let error = Self.error(opened, connecting: true)
            redisFree(opened)
            throw error
        }
        guard redisSetTimeout(opened, Self.timeValue(configuration.connectTimeout)) == REDIS_OK else {
            redisFree(opened)
            throw RedisError(.unreachable, "could not set the connection's timeout")
        }
        do throws(RedisError) {
            if let password = configuration.password {
                var auth: [[UInt8]] = [Array("AUTH".utf8)]
                if let user = configuration.username { auth.append(Array(user.utf8)) }
                auth.append(Array(password.unredacted().utf8))
                do throws(RedisError) {
                    _ = try command(opened, auth, keepOnFailure: true)
                } catch  where error.code == .errorReply {
                    throw RedisError(.authenticationFailed, "AUTH was refused for \(configuration.displayURL)")
                }
            }
            if configuration.database != 0 {
                _ = try command(
                    opened, [Array("SELECT".utf8), Array(String(configuration.database).utf8)], keepOnFailure: true)
            }
        } catch {
            redisFree(opened)
            throw error
        }
        guard redisSetTimeout(opened, Self.timeValue(configuration.commandTimeout)) == REDIS_OK else {
            redisFree(opened)
            throw RedisError(.unreachable, "could not set the connection's timeout")
        }
        context = opened
        return opened
    }

    private func command(
        _ context: UnsafeMutablePointer<redisContext>, _ arguments: [[UInt8]], keepOnFailure: Bool = false
    ) throws(RedisError) -> RedisReply {
        let lengths = arguments.map(\.count)
        let raw: UnsafeMutableRawPointer? = withPointers(arguments) { pointers in
            lengths.withUnsafeBufferPointer { lengths in
                redisCommandArgv(context, Int32(arguments.count), pointers.baseAddress, lengths.baseAddress)
            }
        }
        guard let raw else {
            let error = Self.error(context, connecting: false)
            if !keepOnFailure {
                redisFree(context)
                self.context = nil
            }
            throw error
        }
        defer { freeReplyObject(raw) }
        let reply = Self.copy(raw.assumingMemoryBound(to: redisReply.self))
        if case .failure(let message) = reply {
            // NOAUTH / WRONGPASS: the server wants credentials this configuration does not have.
            if message.hasPrefix("NOAUTH") || message.hasPrefix("WRONGPASS") {
                throw RedisError(.authenticationFailed, "\(configuration.displayURL): \(message.prefix(120))")
            }
            throw RedisError(.errorReply, String(message.prefix(200)))
        }
        guard case .success(let value) = reply else { throw RedisError(.unexpectedReply) }
        return value
    }

    private enum Copied {
        case success(RedisReply)
        case failure(String)
    }

    private static func copy(_ reply: UnsafeMutablePointer<redisReply>) -> Copied {
        let value = reply.pointee
        func text() -> [UInt8] {
            guard let bytes = value.str, value.len > 0 else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: Int(value.len)))
        }
        switch value.type {
        case REDIS_REPLY_STRING: return .success(.bulk(text()))
        case REDIS_REPLY_STATUS: return .success(.status(String(decoding: text(), as: UTF8.self)))
        case REDIS_REPLY_INTEGER: return .success(.integer(value.integer))
        case REDIS_REPLY_NIL: return .success(.null)
        case REDIS_REPLY_ERROR: return .failure(String(decoding: text(), as: UTF8.self))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            for index in 0..<Int(value.elements) {
                guard let element = value.element[index], case .success(let copied) = copy(element) else {
                    return .failure("an error inside an array reply")
                }
                elements.append(copied)
            }
            return .success(.array(elements))
        default: return .failure("unknown reply type \(value.type)")
        }
    }

    private static func error(_ context: UnsafeMutablePointer<redisContext>, connecting: Bool) -> RedisError {
        let code = context.pointee.err
        let message = withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let lower = message.lowercased()
        if lower.contains("timed out") || lower.contains("temporarily unavailable") {
            return RedisError(.timedOut, connecting ? "connecting timed out" : "the command timed out")
        }
        if connecting { return RedisError(.unreachable, "cannot connect: \(message)") }
        if code == REDIS_ERR_EOF || code == REDIS_ERR_IO { return RedisError(.connectionLost, message) }
        return RedisError(.unexpectedReply, message)
    }

    private static func timeValue(_ duration: Duration) -> timeval {
        let (seconds, attoseconds) = duration.components
        var value = timeval()
        value.tv_sec = .init(max(0, seconds))
        value.tv_usec = .init(max(0, attoseconds / 1_000_000_000_000))
        return value
    }
}

/// C string pointers to each argument's bytes, valid inside `body` (hiredis copies them into its buffer).
private func withPointers<R>(
    _ arguments: [[UInt8]], _ body: (UnsafeMutableBufferPointer<UnsafePointer<CChar>?>) -> R
) -> R {
    let buffers = arguments.map { bytes -> UnsafeMutablePointer<CChar> in
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
        for (offset, byte) in bytes.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
        return buffer
    }
    defer { for buffer in buffers { buffer.deallocate() } }
    var pointers = buffers.map { UnsafePointer<CChar>?(UnsafePointer($0)) }
    return pointers.withUnsafeMutableBufferPointer { body($0) }
}
