import Foundation
import Testing
import WardenCore
import WardenTestSupport

@testable import WardenStorage

@Suite("Grant locks")
struct GrantLockTests {
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("warden-locks-\(UUID())")
    }

    @Test func aLiveHolderMakesTheNextOneGiveUpWithATransientTimeout() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lock = FileGrantLock(directory: directory, timeout: .seconds(1), clock: ImmediateClock())
        let held = try await lock.acquire(service: "svc", account: "a")
        let error = await #expect(throws: StorageError(.lockTimeout)) {
            try await lock.acquire(service: "svc", account: "a")
        }
        #expect(error?.failureKind == .transient)
        // Another grant is another lease.
        await (try await lock.acquire(service: "svc", account: "b")).release()
        #expect(await held.isHeld())
        await held.release()
        #expect(!(await held.isHeld()))
        let next = try await lock.acquire(service: "svc", account: "a")
        #expect(await next.isHeld())
        await next.release()
    }

    @Test func aLeaseThatStoppedBeingRenewedIsTakenOverAndItsHolderKnows() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let now: NowProvider = { clock.current }
        let lock = FileGrantLock(directory: directory, leaseDuration: .seconds(10), timeout: .zero, now: now)
        let crashed = try await lock.acquire(service: "svc", account: "a")
        clock.withLock { $0 += 9 }
        await #expect(throws: StorageError(.lockTimeout)) { try await lock.acquire(service: "svc", account: "a") }
        clock.withLock { $0 += 2 }  // 11 s without a renewal: the lease ran out
        #expect(!(await crashed.isHeld()), "a holder past its lease must not spend the refresh token")
        let taker = try await lock.acquire(service: "svc", account: "a")
        // The late holder's release leaves the new holder's lease alone.
        await crashed.release()
        #expect(await taker.isHeld())
        await taker.release()
    }

    @Test func theLeaseFileHoldsNoNameAndNoSecret() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lock = FileGrantLock(directory: directory)
        let service = "com.example.secret-service-name"
        let lease = try await lock.acquire(service: service, account: "alice@example.com")
        let file = lock.file(service: service, account: "alice@example.com")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!file.lastPathComponent.contains("alice") && !text.contains("alice") && !text.contains(service))
        #expect(text.contains("/\(ProcessInfo.processInfo.processIdentifier) "))
        await lease.release()
        #expect(try Data(contentsOf: file).isEmpty)
        await #expect(throws: StorageError(.invalidName)) { try await lock.acquire(service: "", account: "a") }
    }

    @Test func inProcessHoldersTakeTurns() async throws {
        let lock = ProcessGrantLock()
        let first = try await lock.acquire(service: "svc", account: "a")
        let order = Locked<[String]>([])
        let second = Task {
            let lease = try await lock.acquire(service: "svc", account: "a")
            order.withLock { $0.append("second") }
            await lease.release()
        }
        for _ in 0..<100 { await Task.yield() }
        order.withLock { $0.append("first releases") }
        await first.release()
        await first.release()  // a second release is harmless
        try await second.value
        #expect(order.current == ["first releases", "second"])
    }
}
