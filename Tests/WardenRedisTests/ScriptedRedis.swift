import Foundation
import WardenCore

#if canImport(Glibc)
    import Glibc
#endif

/// A fake Redis on a loopback port that answers each connection's first command with scripted bytes, for the
/// behaviours a real server will not show: a reply trickled a byte at a time, a 300 MB reply, a second reply
/// nobody asked for. It records how many connections it accepted and how many bytes it managed to send.
///
/// Thread-safety: counters behind `Locked`; one thread per connection, each ending when the client hangs up.
final class ScriptedRedis: Sendable {
    /// What the server sends for the n-th connection's command.
    enum Answer: Sendable {
        /// These bytes at once.
        case bytes([UInt8])
        /// These bytes, one every `interval`, then silence until the client hangs up.
        case trickle([UInt8], interval: Duration)
        /// A bulk-string header announcing `length` bytes, then filler for as long as the client reads.
        case endless(length: Int)
    }

    let port: Int
    private let listener: Int32
    private let answers: [Answer]
    let accepted = Locked(0)
    let sent = Locked(0)

    init(_ answers: [Answer]) throws {
        self.answers = answers
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw RedisServer.ServerError("cannot listen on loopback")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let number = accepted.withLock { value -> Int in
                value += 1
                return value - 1
            }
            let answer = number < answers.count ? answers[number] : answers.last!
            Thread.detachNewThread { [self] in serve(connection, answer) }
        }
    }

    private func serve(_ connection: Int32, _ answer: Answer) {
        defer { close(connection) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        guard recv(connection, &buffer, buffer.count, 0) > 0 else { return }
        func write(_ bytes: [UInt8]) -> Bool {
            let count = send(connection, bytes, bytes.count, Int32(MSG_NOSIGNAL))
            if count > 0 { sent.withLock { $0 += count } }
            return count == bytes.count
        }
        switch answer {
        case .bytes(let bytes):
            _ = write(bytes)
        case .trickle(let bytes, let interval):
            for byte in bytes {
                guard write([byte]) else { return }
                Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18)
            }
        case .endless(let length):
            guard write(Array("$\(length)\r\n".utf8)) else { return }
            let filler = [UInt8](repeating: 0x41, count: 65_536)
            var total = 0
            while total < length, write(filler) { total += filler.count }
            return
        }
        // Keep the connection open until the client hangs up.
        while recv(connection, &buffer, buffer.count, 0) > 0 {}
    }
}
