// RFC 8252 loopback sign-in is for desktops: compiled where Package.swift defines WARDEN_LOOPBACK (macOS, Linux).
#if WARDEN_LOOPBACK
    // Every socket call Warden makes lives in this file (RFC 8252 §7.3 loopback listener and the local demo
    // provider), so the logic around it stays plain Swift.
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    enum Sockets {
        struct Failure: Error {
            let call: String
            let code: Int32
        }

        /// A new IPv4 TCP socket, or -1. Close-on-exec: a process the app starts (a browser, a helper) must not
        /// inherit the listener, or the port stays open after Warden closes it.
        private static func tcpSocket() -> Int32 {
            #if canImport(Glibc)
                return socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            #else
                let fd = socket(AF_INET, SOCK_STREAM, 0)
                if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                return fd
            #endif
        }

        /// 127.0.0.1:`port` — never INADDR_ANY.
        private static func loopbackAddress(port: UInt16) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            return address
        }

        /// Connects `fd` to 127.0.0.1:`port`; true on success.
        private static func connectLoopback(_ fd: Int32, port: UInt16) -> Bool {
            var address = loopbackAddress(port: port)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            } == 0
        }

        /// A listening TCP socket on the IPv4 loopback address (127.0.0.1) with an ephemeral port when `port` is 0.
        static func listenLoopback(port: UInt16 = 0, backlog: Int32 = 64) throws -> (descriptor: Int32, port: UInt16) {
            let fd = tcpSocket()
            guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = loopbackAddress(port: port)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw Failure(call: "bind", code: code)
            }
            guard listen(fd, backlog) == 0 else {
                let code = errno
                close(fd)
                throw Failure(call: "listen", code: code)
            }
            var actual = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            return (fd, UInt16(bigEndian: actual.sin_port))
        }

        /// Makes `fd` non-blocking (the server's event loop never waits on one peer).
        static func setNonBlocking(_ fd: Int32) {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }

        /// A connection waiting on the non-blocking listener `fd`, non-blocking itself; nil when none is waiting.
        static func acceptPending(_ fd: Int32) -> Int32? {
            while true {
                #if canImport(Glibc)
                    let client = Glibc.accept(fd, nil, nil)
                #else
                    let client = Darwin.accept(fd, nil, nil)
                #endif
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    return nil
                }
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                setNonBlocking(client)
                #if canImport(Darwin)
                    var noSigPipe: Int32 = 1
                    setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &noSigPipe, socklen_t(MemoryLayout<Int32>.size))
                #endif
                return client
            }
        }

        enum Available: Equatable {
            case bytes([UInt8])
            /// Nothing to read yet.
            case nothing
            /// The peer closed its side (or the connection broke).
            case closed
        }

        /// What a non-blocking `fd` has to read now, at most `maximum` bytes.
        static func readAvailable(_ fd: Int32, maximum: Int) -> Available {
            var buffer = [UInt8](repeating: 0, count: maximum)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, maximum, 0) }
                if count > 0 { return .bytes(Array(buffer.prefix(count))) }
                if count == 0 { return .closed }
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .nothing : .closed
            }
        }

        /// Which of `fds` are readable (or closed, or in error) within `timeoutMilliseconds`.
        static func readable(_ fds: [Int32], timeoutMilliseconds: Int32) -> Set<Int32> {
            var descriptors = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = descriptors.withUnsafeMutableBufferPointer { buffer in
                poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
            }
            guard ready > 0 else { return [] }
            return Set(descriptors.filter { $0.revents != 0 }.map(\.fd))
        }

        /// Writes everything to a non-blocking `fd` before `deadline` (best effort: a peer that does not read is
        /// dropped at the deadline).
        static func write(_ fd: Int32, _ bytes: [UInt8], until deadline: ContinuousClock.Instant) {
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                    let flags = Int32(MSG_NOSIGNAL)
                #else
                    let flags: Int32 = 0
                #endif
                let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, flags) }
                if written > 0 {
                    offset += written
                    continue
                }
                guard written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return }
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return }
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, Int32(clamping: left.components.seconds * 1000 + 1))
            }
        }

        /// Reads up to `maximum` bytes; empty at end of stream or on error/timeout.
        static func read(_ fd: Int32, maximum: Int) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: maximum)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, maximum, 0) }
            return count > 0 ? Array(buffer.prefix(count)) : []
        }

        /// Writes everything (best effort), within 5 s.
        static func write(_ fd: Int32, _ bytes: [UInt8]) {
            write(fd, bytes, until: ContinuousClock.now + .seconds(5))
        }

        static func close(_ fd: Int32) {
            #if canImport(Glibc)
                _ = Glibc.close(fd)
            #else
                _ = Darwin.close(fd)
            #endif
        }

        /// A connection to 127.0.0.1:`port` that sends nothing (tests of idle peers), or -1; the caller closes it.
        static func connectIdle(port: UInt16) -> Int32 {
            let fd = tcpSocket()
            guard fd >= 0 else { return -1 }
            guard connectLoopback(fd, port: port) else {
                close(fd)
                return -1
            }
            return fd
        }

        /// Connects to 127.0.0.1:`port`, sends `bytes`, and returns what comes back until the peer closes, or until
        /// `timeoutSeconds` pass without a byte (tests).
        static func exchange(port: UInt16, _ bytes: [UInt8], timeoutSeconds: Int = 5) -> [UInt8] {
            let fd = tcpSocket()
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            guard connectLoopback(fd, port: port) else { return [] }
            var timeout = timeval(tv_sec: .init(timeoutSeconds), tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            write(fd, bytes)
            var response: [UInt8] = []
            while true {
                let chunk = read(fd, maximum: 4096)
                if chunk.isEmpty { break }
                response += chunk
            }
            return response
        }

        /// Whether something listens on 127.0.0.1:`port` (used by tests of "connection refused").
        static func canConnect(port: UInt16) -> Bool {
            let fd = tcpSocket()
            guard fd >= 0 else { return false }
            defer { close(fd) }
            return connectLoopback(fd, port: port)
        }

        /// Binds a socket to 127.0.0.1:`port` without listening: connections to the port are refused, yet no other
        /// socket is handed the port meanwhile (the kernel's port-0 choice skips bound ports). -1 when it cannot.
        static func reserveLoopback(port: UInt16) -> Int32 {
            let fd = tcpSocket()
            guard fd >= 0 else { return -1 }
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = loopbackAddress(port: port)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                return -1
            }
            return fd
        }
    }
#endif
