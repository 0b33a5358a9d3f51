import Foundation
import Testing
import WardenCore
import WardenTestSupport
import WardenTesting

@testable import WardenStorage

/// The grant lease on a locked phone, over the data protection model (`WardenTesting.DataProtectionModel`, D1–D6): an
/// app with the Data Protection capability creates files `complete` by default (D2), unreadable while locked (D3), so
/// an extension woken on a locked phone could never take the lease; the lock directory and its lease files are
/// `completeUntilFirstUserAuthentication` (D4).
@Suite("Lock files on a locked phone")
struct LockFileProtectionTests {
    @Test func theLockDirectoryAndLeaseOpenOnALockedPhoneWithDataProtectionOn() async throws {
        let container = FileManager.default.temporaryDirectory.appendingPathComponent("warden-group-\(UUID())")
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: container) }
        let model = DataProtectionModel(container: container.path, dataProtectionCapability: true)
        var lock = FileGrantLock(directory: container.appendingPathComponent("warden-locks"))
        lock.protection = model
        await (try await lock.acquire(service: "svc", account: "a")).release()
        let lease = lock.file(service: "svc", account: "a").path
        model.deviceState = .locked
        #expect(model.canOpen(lock.directory.path) && model.canOpen(lease))
        #expect(model.protection(of: lease) == .completeUntilFirstUserAuthentication)
        // The rule the fix answers: anything else the app creates in the container is `complete` and closed now.
        #expect(!model.canOpen(container.appendingPathComponent("cache.json").path))
        // Before the first unlock since boot, nothing but `none` opens: the lease waits (documented, not a bug).
        model.deviceState = .beforeFirstUnlock
        #expect(!model.canOpen(lease))
    }

    /// A lease file an older version created under the container's default class is given the lease's class at the
    /// next acquisition (new files inherit the directory's; an existing one keeps its own until set).
    @Test func aLeaseFileFromAnOlderVersionGetsTheLeasesClass() async throws {
        let container = FileManager.default.temporaryDirectory.appendingPathComponent("warden-group-\(UUID())")
        let directory = container.appendingPathComponent("warden-locks")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: container) }
        let model = DataProtectionModel(container: container.path)
        var lock = FileGrantLock(directory: directory)
        let lease = lock.file(service: "svc", account: "a").path
        #expect(FileManager.default.createFile(atPath: lease, contents: nil, attributes: [.posixPermissions: 0o600]))
        #expect(model.protection(of: lease) == .complete)
        lock.protection = model
        await (try await lock.acquire(service: "svc", account: "a")).release()
        #expect(model.protection(of: lease) == .completeUntilFirstUserAuthentication)
    }
}
