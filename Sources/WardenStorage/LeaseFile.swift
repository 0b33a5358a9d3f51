import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The only place that calls `open`/`flock`/`read`/`write` for ``FileGrantLock``: read and rewrite one lease file
/// under a non-blocking `flock` that is never held across a suspension point.
///
/// The lease is one line, `<owner> <expiry in Unix milliseconds>`; an empty, unreadable or expired lease is free.
enum LeaseFile {
    enum Outcome: Equatable {
        case claimed
        case heldByAnother
        /// Another process is reading or rewriting the lease this very moment (`flock` contended): try again.
        case busy
        case failed(String)
    }

    /// Takes (or renews) the lease for `owner` until `until` when it is free, expired or already `owner`'s.
    /// With `renewOnly`, only `owner`'s own lease is extended.
    static func claim(path: String, owner: String, now: Date, until: Date, renewOnly: Bool = false) -> Outcome {
        withLockedFile(path) { fd in
            let current = readLease(fd)
            if let current, current.owner != owner, current.expiry > now.timeIntervalSince1970 * 1000 {
                return .heldByAnother
            }
            if renewOnly, current?.owner != owner { return .heldByAnother }
            let line = "\(owner) \(Int64((until.timeIntervalSince1970 * 1000).rounded()))\n"
            return writeLease(fd, line) ? .claimed : .failed("cannot write the lease")
        }
    }

    /// Whether `owner` holds an unexpired lease.
    static func holds(path: String, owner: String, now: Date) -> Bool {
        guard let lease = current(path: path) else { return false }
        return lease.owner == owner && lease.expiry > now
    }

    /// Ends `owner`'s lease (another owner's is left alone).
    static func clear(path: String, owner: String) -> Outcome {
        withLockedFile(path) { fd in
            guard readLease(fd)?.owner == owner else { return .heldByAnother }
            return writeLease(fd, "") ? .claimed : .failed("cannot clear the lease")
        }
    }

    /// The parsed lease of the file at `path`, for diagnostics and tests.
    static func current(path: String) -> (owner: String, expiry: Date)? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let lease = parse(text) else {
            return nil
        }
        return (lease.owner, Date(timeIntervalSince1970: lease.expiry / 1000))
    }

    private static func withLockedFile(_ path: String, _ body: (Int32) -> Outcome) -> Outcome {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failed("open failed (errno \(errno))") }
        defer { close(fd) }
        // Non-blocking: a holder stopped inside this section (SIGSTOP) must not block anyone else's thread.
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return .busy }
        defer { flock(fd, LOCK_UN) }
        return body(fd)
    }

    private static func readLease(_ fd: Int32) -> (owner: String, expiry: Double)? {
        var buffer = [UInt8](repeating: 0, count: 256)
        guard lseek(fd, 0, SEEK_SET) == 0 else { return nil }
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return parse(String(decoding: buffer[0..<count], as: UTF8.self))
    }

    private static func parse(_ text: String) -> (owner: String, expiry: Double)? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard parts.count == 2, let expiry = Double(parts[1]) else { return nil }
        return (String(parts[0]), expiry)
    }

    private static func writeLease(_ fd: Int32, _ line: String) -> Bool {
        guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else { return false }
        let bytes = Array(line.utf8)
        guard !bytes.isEmpty else { return true }
        return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
    }
}
