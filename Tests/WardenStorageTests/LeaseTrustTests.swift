import Foundation
import Testing
import WardenCore
import WardenTestSupport

@testable import WardenStorage

#if canImport(Glibc)
    import Glibc
#endif

/// The grant lease trusts nothing it did not make: a link or hard link planted at a lease's path is never written
/// through, a lock directory someone else controls is refused, and a lease whose expiry can never come (`1e300`,
/// `inf`, a wall clock moved back after a crash) is taken over once it has not changed for a lease duration.
@Suite("Grant lease: planted files and impossible expiries")
struct LeaseTrustTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("warden-lease-\(UUID())")
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url
    }

    static let victimText = "precious content\n"

    @Test func aLinkPlantedAtTheLeasePathIsNeverWrittenThrough() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim.txt")
        try Data(Self.victimText.utf8).write(to: victim)
        let lock = FileGrantLock(directory: directory, timeout: .zero, clock: ImmediateClock())
        let leasePath = lock.file(service: "svc", account: "a").path
        try FileManager.default.createSymbolicLink(atPath: leasePath, withDestinationPath: victim.path)
        let error = await #expect(throws: StorageError.self) { try await lock.acquire(service: "svc", account: "a") }
        #expect(error?.code == .backendFailure && error?.reason.contains("symbolic link") == true)
        #expect(try String(contentsOf: victim, encoding: .utf8) == Self.victimText)
    }

    @Test func aHardLinkAtTheLeasePathIsNeverWritten() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim.txt")
        try Data(Self.victimText.utf8).write(to: victim)
        #expect(chmod(victim.path, 0o600) == 0)
        let lock = FileGrantLock(directory: directory, timeout: .zero, clock: ImmediateClock())
        #expect(link(victim.path, lock.file(service: "svc", account: "a").path) == 0)
        let error = await #expect(throws: StorageError.self) { try await lock.acquire(service: "svc", account: "a") }
        #expect(error?.reason.contains("hard link") == true, "\(String(describing: error))")
        #expect(try String(contentsOf: victim, encoding: .utf8) == Self.victimText)
    }

    @Test func aLockDirectoryThatIsALinkOrOpenToOthersIsRefused() async throws {
        let base = try Self.directory()
        defer { try? FileManager.default.removeItem(at: base) }
        let real = base.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let linked = base.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: real.path)
        let open = base.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
        #expect(chmod(open.path, 0o777) == 0)
        for (directory, why) in [(linked, "symbolic link"), (open, "others can write")] {
            let lock = FileGrantLock(directory: directory, timeout: .zero, clock: ImmediateClock())
            let error = await #expect(throws: StorageError.self) {
                try await lock.acquire(service: "svc", account: "a")
            }
            #expect(error?.code == .serviceUnavailable && error?.reason.contains(why) == true, "\(why)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: real.path).isEmpty)
    }

    /// The rest of what the lease refuses to use, each planted: a directory at the lease's path, a lease file others can
    /// read, and a file where the lock directory should be.
    @Test func aLeasePathThatIsNotAPrivateRegularFileIsRefused() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lock = FileGrantLock(directory: directory, timeout: .zero, clock: ImmediateClock())
        let path = lock.file(service: "svc", account: "a").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let notRegular = await #expect(throws: StorageError.self) {
            try await lock.acquire(service: "svc", account: "a")
        }
        #expect(notRegular?.code == .backendFailure, "\(String(describing: notRegular))")
        try FileManager.default.removeItem(atPath: path)
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(chmod(path, 0o644) == 0)
        let open = await #expect(throws: StorageError.self) { try await lock.acquire(service: "svc", account: "a") }
        #expect(open?.reason.contains("open to other users") == true, "\(String(describing: open))")
        let file = directory.appendingPathComponent("not-a-directory")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let misplaced = FileGrantLock(directory: file, timeout: .zero, clock: ImmediateClock())
        let error = await #expect(throws: StorageError.self) {
            try await misplaced.acquire(service: "svc", account: "a")
        }
        #expect(error?.code == .serviceUnavailable && error?.reason.contains("not a directory") == true)
    }

    /// A crashed holder's lease whose expiry never comes: before, every refresh waited out its 60 s timeout and
    /// failed (exit 75), for ever. Now a lease unchanged for a lease duration is taken over.
    @Test(arguments: ["1e300", "inf", "nan", "\(Int64.max)"])
    func aLeaseThatCanNeverExpireIsRecovered(_ expiry: String) async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lock = FileGrantLock(
            directory: directory, leaseDuration: .seconds(1), timeout: .seconds(5), clock: ImmediateClock())
        let path = lock.file(service: "svc", account: "a").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("crashed/42 \(expiry)\n".utf8)))
        #expect(chmod(path, 0o600) == 0)
        let lease = try await lock.acquire(service: "svc", account: "a")
        #expect(await lease.isHeld())
        await lease.release()
    }

    /// A lease further away than any holder can set is taken over at once, whatever the waiter's timeout (a 300 s lease
    /// with a timeout of 1 s: watching it unchanged for a lease duration would never finish).
    @Test func aLeaseBeyondAnyDurationIsTakenOverAtOnceEvenWithAShortTimeout() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualDate()
        let lock = FileGrantLock(
            directory: directory, leaseDuration: .seconds(300), timeout: .seconds(1), now: clock.now,
            clock: ImmediateClock())
        let path = lock.file(service: "svc", account: "a").path
        let far = Int64((clock.date.current.timeIntervalSince1970 + 3600) * 1000)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("crashed/7 \(far)\n".utf8)))
        #expect(chmod(path, 0o600) == 0)
        let lease = try await lock.acquire(service: "svc", account: "a")
        #expect(await lease.isHeld())
        await lease.release()
        // A lease within the longest duration is a live holder's: waited for, then a transient timeout.
        let near = Int64((clock.date.current.timeIntervalSince1970 + 200) * 1000)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("live/8 \(near)\n".utf8)))
        #expect(chmod(path, 0o600) == 0)
        await #expect(throws: StorageError(.lockTimeout)) { _ = try await lock.acquire(service: "svc", account: "a") }
    }

    /// The same for a wall clock moved back an hour after the holder crashed: its lease looks an hour too long.
    @Test func aWallClockMovedBackDoesNotBlockRefreshesForAnHour() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualDate()
        let crashed = FileGrantLock(directory: directory, leaseDuration: .seconds(1), now: clock.now)
        let path = crashed.file(service: "svc", account: "a").path
        #expect(
            LeaseFile.claim(path: path, owner: "crashed/1", now: clock.date.current, until: clock.date.current + 1)
                == .claimed)
        clock.advance(-3600)
        let lock = FileGrantLock(
            directory: directory, leaseDuration: .seconds(1), timeout: .seconds(5), now: clock.now,
            clock: ImmediateClock())
        let lease = try await lock.acquire(service: "svc", account: "a")
        #expect(LeaseFile.current(path: path)?.owner != "crashed/1")
        await lease.release()
    }
}
