import WardenCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One non-blocking TCP connection to Redis, every call bounded by a deadline: the only file that calls `socket`,
/// `connect`, `poll`, `send` and `recv` for WardenRedis. Writes never raise SIGPIPE (`MSG_NOSIGNAL` on Linux,
/// `SO_NOSIGPIPE` on Apple systems), so nothing process-wide is changed.
///
/// Not thread-safe: owned by one ``RedisConnection`` and used on its queue.
final class RedisSocket {
    let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Connects to `host:port` before `deadline`, trying each address the name resolves to.
    static func connect(host: String, port: Int, deadline: ContinuousClock.Instant) throws(RedisError) -> RedisSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw RedisError(.unreachable, "cannot resolve the host: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError: RedisError = RedisError(.unreachable, "no address to connect to")
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let current = address {
            address = current.pointee.ai_next
            let fd = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            let candidate = RedisSocket(descriptor: fd)
            candidate.configure()
            if systemConnect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 { return candidate }
            guard errno == EINPROGRESS else {
                lastError = RedisError(.unreachable, "cannot connect: \(String(cString: strerror(errno)))")
                continue
            }
            do throws(RedisError) {
                try candidate.wait(for: Int16(POLLOUT), until: deadline, connecting: true)
            } catch {
                lastError = error
                continue
            }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 else {
                lastError = RedisError(.unreachable, "cannot connect: \(String(cString: strerror(failure)))")
                continue
            }
            return candidate
        }
        throw lastError
    }

    private func configure() {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var on: Int32 = 1
        #if canImport(Darwin)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Writes every byte before `deadline`.
    func send(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(RedisError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                systemSend(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try wait(for: Int16(POLLOUT), until: deadline, connecting: false)
            } else {
                throw RedisError(
                    .connectionLost, "the connection broke while sending: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Reads what is there (at most `buffer.count` bytes), waiting until `deadline` for something to arrive.
    /// Returns 0 when the server closed the connection.
    func receive(into buffer: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant)
        throws(RedisError) -> Int
    {
        while true {
            let got = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if got >= 0 { return got }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw RedisError(.connectionLost, "the connection broke: \(String(cString: strerror(errno)))")
            }
            try wait(for: Int16(POLLIN), until: deadline, connecting: false)
        }
    }

    /// Whether the idle connection has anything to read: the server closed it, or sent something nobody asked for.
    /// Either way it cannot carry the next command.
    var hasPendingInput: Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) != 0
    }

    private func wait(for events: Int16, until deadline: ContinuousClock.Instant, connecting: Bool) throws(RedisError) {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw RedisError(.timedOut, connecting ? "connecting timed out" : "the command timed out")
            }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var poller = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR {
                throw RedisError(.connectionLost, "poll failed: \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// `connect(2)`, named apart from the static method that calls it.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

/// `send(2)` without SIGPIPE.
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
        return send(fd, bytes, count, 0)
    #else
        return send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #endif
}
