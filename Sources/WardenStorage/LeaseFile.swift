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
/// The lease is one line, `<owner> <expiry in Unix milliseconds>`; an empty, unreadable, non-finite or expired lease
/// is free.
///
/// The file is opened without following a link (`O_NOFOLLOW`) and used only when it is a regular file of this user
/// with one name (a planted link or hard link to another file would otherwise be truncated and written).
enum LeaseFile {
    /// A lease as read: who holds it and until when (Unix milliseconds).
    struct Lease: Equatable {
        let owner: String
        let expiry: Double
    }

    enum Outcome: Equatable {
        case claimed
        case heldByAnother
        /// Another process is reading or rewriting the lease this very moment (`flock` contended): try again.
        case busy
        case failed(String)
    }

    /// Takes (or renews) the lease for `owner` until `until` when it is free, expired or already `owner`'s — or
    /// when it is still exactly `stale`, a lease its waiter saw unchanged for a whole lease duration (its holder
    /// stopped renewing, whatever expiry it wrote: a wall clock moved back, `inf`). With `renewOnly`, only `owner`'s
    /// own lease is extended. A renewal always moves the expiry forward, so a live holder's lease always changes.
    static func claim(
        path: String, owner: String, now: Date, until: Date, renewOnly: Bool = false, stale: Lease? = nil
    ) -> Outcome {
        withLockedFile(path) { fd in
            let current = readLease(fd)
            if let current, current.owner != owner, current.expiry > now.timeIntervalSince1970 * 1000,
                current != stale
            {
                return .heldByAnother
            }
            if renewOnly, current?.owner != owner { return .heldByAnother }
            var milliseconds = (until.timeIntervalSince1970 * 1000).rounded()
            if let current, current.owner == owner, milliseconds <= current.expiry {
                milliseconds = current.expiry + 1
            }
            let line = "\(owner) \(Int64(milliseconds))\n"
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

    /// Creates the lease file at `path` when it is missing (empty, 0600, never through a link) and gives it the class
    /// `class`: new files inherit their directory's class, but one an older version created keeps the container's
    /// default until it is set here.
    static func prepare(path: String, protection: any FileProtection, class: DataProtectionClass) {
        let fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { return }  // a link planted there: the claim refuses it
        let mine = trusted(fd) == nil
        close(fd)
        if mine { _ = protection.protect(path, `class`) }
    }

    /// The parsed lease of the file at `path` (read without following a link), or nil.
    static func current(path: String) -> (owner: String, expiry: Date)? {
        guard let lease = lease(path: path) else { return nil }
        return (lease.owner, Date(timeIntervalSince1970: lease.expiry / 1000))
    }

    /// The lease of the file at `path` as written, or nil when there is none (or the file is not one to trust).
    static func lease(path: String) -> Lease? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard trusted(fd) == nil else { return nil }
        return readLease(fd)
    }

    /// Why the open file `fd` must not be used as a lease, or nil: it must be a regular file, this user's, with no
    /// other name (`st_nlink` 1) and no access for others.
    static func trusted(_ fd: Int32) -> String? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return "cannot stat the lease file" }
        guard Int(status.st_mode) & Int(S_IFMT) == Int(S_IFREG) else { return "the lease path is not a regular file" }
        guard status.st_uid == geteuid() else { return "the lease file belongs to another user" }
        guard status.st_nlink == 1 else { return "the lease file has another name (a hard link)" }
        guard Int(status.st_mode) & 0o077 == 0 else { return "the lease file is open to other users" }
        return nil
    }

    private static func withLockedFile(_ path: String, _ body: (Int32) -> Outcome) -> Outcome {
        // O_NOFOLLOW: a link planted at the lease's path fails the open (ELOOP) instead of having its target
        // truncated and written.
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else {
            return .failed(errno == ELOOP ? "the lease path is a symbolic link" : "open failed (errno \(errno))")
        }
        defer { close(fd) }
        if let distrust = trusted(fd) { return .failed(distrust) }
        // Non-blocking: a holder stopped inside this section (SIGSTOP) must not block anyone else's thread.
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return .busy }
        defer { flock(fd, LOCK_UN) }
        return body(fd)
    }

    private static func readLease(_ fd: Int32) -> Lease? {
        var buffer = [UInt8](repeating: 0, count: 256)
        guard lseek(fd, 0, SEEK_SET) == 0 else { return nil }
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return parse(String(decoding: buffer[0..<count], as: UTF8.self))
    }

    /// A lease line; an expiry that is not a finite number (`inf`, `nan`) is no lease.
    private static func parse(_ text: String) -> Lease? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard parts.count == 2, let expiry = Double(parts[1]), expiry.isFinite else { return nil }
        return Lease(owner: String(parts[0]), expiry: expiry)
    }

    private static func writeLease(_ fd: Int32, _ line: String) -> Bool {
        guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else { return false }
        let bytes = Array(line.utf8)
        guard !bytes.isEmpty else { return true }
        return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
    }
}
