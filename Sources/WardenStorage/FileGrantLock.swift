import Foundation
import WardenCore

/// The cross-process ``GrantLock``: a **lease** in a small file of a directory every holder can reach — the app
/// group container on Apple platforms (the app and its extensions), the directory beside the file store or under
/// `$XDG_RUNTIME_DIR` on Linux.
///
/// Why a lease and not a lock held for the whole refresh: iOS terminates a suspended app that holds a file lock in
/// a shared container (exception `0xdead10cc`), and a refresh can be suspended mid-request. So `flock` is held only
/// for the microseconds it takes to read and rewrite the lease (`owner expiry`), never across an `await`, and a
/// holder proves it is alive by renewing the lease every third of ``leaseDuration``.
///
/// - **A crashed or suspended holder** stops renewing: the others wait at most ``leaseDuration`` (10 s by
///   default) after its last renewal, then take the lease over.
/// - **A live holder that takes long** (a slow token endpoint) keeps renewing; the others give up after
///   ``timeout`` with ``StorageErrorDomain/Code/lockTimeout`` (transient, the session is kept).
/// - The lease file holds no secret: a random owner id, the process id and a time.
///
/// ```swift
/// let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example")!
/// let store = KeychainStore(accessGroup: "TEAMID.com.example.shared",
///                           grantLock: FileGrantLock(directory: group.appendingPathComponent("warden-locks")))
/// ```
///
/// Thread-safety: a value; every file operation is a short non-blocking system call.
public struct FileGrantLock: GrantLock {
    /// The directory of the lease files, shared by every holder.
    public let directory: URL
    /// How long a holder that stopped renewing (crashed, killed, suspended) blocks the others.
    public let leaseDuration: Duration
    /// How long to wait for a live holder before failing with ``StorageErrorDomain/Code/lockTimeout``.
    public let timeout: Duration
    let pollInterval: Duration
    let now: NowProvider
    let clock: any Clock<Duration>
    /// Sets the class of the lock directory and lease files (the platform's; the data protection model in tests).
    package var protection: any FileProtection = SystemFileProtection()

    /// The data protection class of the lock directory and its lease files: usable after the first unlock, locked or
    /// not. An app with the Data Protection capability creates files `complete` by default (unreadable while locked),
    /// and an extension woken on a locked phone (a notification service, a widget) could then never take the lease.
    package static let fileProtection = DataProtectionClass.completeUntilFirstUserAuthentication

    /// The longest lease any holder can take (``leaseDuration`` is clamped to it).
    static let maximumLeaseSeconds: Double = 300

    /// A lock whose lease files live in `directory` (created 0700 on first use; it must be shared by every holder).
    ///
    /// - Parameters:
    ///   - directory: created (0700) when missing; must be shared by every holder.
    ///   - leaseDuration: clamped to 1...300 s; default 10 s.
    ///   - timeout: how long to wait for a live holder, at least zero; default 60 s.
    public init(
        directory: URL, leaseDuration: Duration = .seconds(10), timeout: Duration = .seconds(60),
        now: @escaping NowProvider = systemNow, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.directory = directory
        self.leaseDuration = min(max(leaseDuration, .seconds(1)), .seconds(300))
        self.timeout = max(timeout, .zero)
        self.pollInterval = .milliseconds(25)
        self.now = now
        self.clock = clock
    }

    /// The lease file of one grant: a 64-bit FNV-1a hash of the names, so no name reaches the file system and
    /// every length fits a file name (a collision only makes two grants share a lock).
    public func file(service: String, account: String) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(service.utf8) + [0] + Array(account.utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return directory.appendingPathComponent(String(format: "grant-%016llx.lease", hash))
    }

    public func acquire(service: String, account: String) async throws(StorageError) -> GrantLease {
        try CredentialStoreLimits.check(service: service, account: account)
        let path = file(service: service, account: account).path
        try LockDirectory.prepare(directory, protection: protection, class: Self.fileProtection)
        LeaseFile.prepare(path: path, protection: protection, class: Self.fileProtection)
        let owner = UUID().uuidString + "/" + String(ProcessInfo.processInfo.processIdentifier)
        var waited = Duration.zero
        // The lease as last seen and since when (in this waiter's own time): a lease that stays exactly the same
        // for a whole lease duration has a holder that stopped renewing, whatever expiry it wrote (a wall clock
        // moved back after a crash, `1e300`), and is taken over — never waited on for ever.
        var seen: (lease: LeaseFile.Lease, since: Duration)?
        while true {
            let current = LeaseFile.lease(path: path)
            if current != seen?.lease { seen = current.map { ($0, waited) } }
            // A lease's remaining time is bounded by the longest duration any holder can set: one further away (a
            // wall clock moved back after its holder crashed, `1e300`) is taken over at once. A live holder whose
            // clock moved back notices at its next check before spending the refresh token (`isHeld`).
            let impossible = current.flatMap { lease -> LeaseFile.Lease? in
                lease.expiry > (now().timeIntervalSince1970 + Self.maximumLeaseSeconds + 5) * 1000 ? lease : nil
            }
            let stale = impossible ?? seen.flatMap { waited - $0.since >= leaseDuration ? $0.lease : nil }
            switch LeaseFile.claim(path: path, owner: owner, now: now(), until: expiry(), stale: stale) {
            case .claimed:
                return lease(path: path, owner: owner)
            case .heldByAnother, .busy:
                break
            case .failed(let reason):
                throw StorageError(.backendFailure, "the grant lock file cannot be used: \(reason)")
            }
            guard waited < timeout else {
                throw StorageError(
                    .lockTimeout, "another holder of this grant has been refreshing it for over \(timeout)")
            }
            waited += pollInterval
            do { try await clock.sleep(for: pollInterval) } catch {
                throw StorageError(.lockTimeout, "cancelled while waiting for another holder of this grant")
            }
        }
    }

    private func expiry() -> Date {
        let components = leaseDuration.components
        return now().addingTimeInterval(Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }

    private func lease(path: String, owner: String) -> GrantLease {
        let renewal = Task { [self] in
            while !Task.isCancelled {
                try? await clock.sleep(for: leaseDuration / 3)
                if Task.isCancelled { break }
                _ = LeaseFile.claim(path: path, owner: owner, now: now(), until: expiry(), renewOnly: true)
            }
        }
        let released = Released()
        return GrantLease(
            release: { [clock] in
                guard released.take() else { return }
                renewal.cancel()
                // A waiter polling the file may hold its flock for a moment: retry, so the next holder never waits
                // out a lease that was given back.
                for _ in 0..<40 {
                    guard LeaseFile.clear(path: path, owner: owner) == .busy else { return }
                    try? await clock.sleep(for: .milliseconds(5))
                }
            },
            isHeld: { [now] in LeaseFile.holds(path: path, owner: owner, now: now()) })
    }
}
