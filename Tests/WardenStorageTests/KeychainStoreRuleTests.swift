import Foundation
import Testing
import WardenCore

@testable import WardenStorage
@testable import WardenTesting

/// The fail-closed, serialisation and per-read-context rules of the Keychain store, on their portable parts.
@Suite("Keychain store rules")
struct KeychainStoreRuleTests {
    /// The Apple seam answers `accessControlUnavailable` when `SecAccessControlCreateWithFlags` fails: the save
    /// must throw a misconfiguration, and must not retry without the protection.
    @Test func aMissingAccessControlFailsClosed() throws {
        let fake = KeychainModel()
        fake.forcedStatus = KeychainStatus.accessControlUnavailable
        var configuration = KeychainQuery.Configuration()
        configuration.accessControl = .biometryCurrentSet
        let logic = KeychainLogic(api: fake.api, configuration: configuration)
        let error = #expect(throws: StorageError.self) { try logic.save(Data("rt".utf8), service: "s", account: "a") }
        #expect(error?.code == .accessControlUnavailable && error?.failureKind == .misconfiguration)
        // The model answers every call with the status (the staging look-up included): what matters is that nothing
        // was written in another way after the refusal — no update, no second add.
        #expect(!fake.calls.contains("update") && fake.calls.filter { $0 == "add" }.count <= 1, "\(fake.calls)")
        fake.forcedStatus = nil
        #expect(fake.stored("s", "a") == nil)
    }

    /// Each protected read asks the seam for a new authentication context; unprotected reads ask for none.
    @Test func protectedReadsGetTheirOwnContext() {
        var protected = KeychainQuery.Configuration()
        protected.accessControl = .biometryCurrentSet
        #expect(
            KeychainQuery.load(protected, service: "s", account: "a").attributes[.authenticationContext] == .context)
        #expect(KeychainQuery.load(.init(), service: "s", account: "a").attributes[.authenticationContext] == nil)
        #expect(
            KeychainQuery.add(protected, service: "s", account: "a", data: Data()).attributes[.authenticationContext]
                == nil)
    }

    /// Blocking calls run one at a time, on the queue's own thread, never on the cooperative pool.
    @Test func blockingCallsAreSerialisedOffTheCooperativePool() async throws {
        let queue = BlockingCallQueue(label: "test.keychain")
        let running = Locked(0)
        let maximum = Locked(0)
        let onQueue = Locked(true)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await queue.run { () throws(StorageError) in
                        if !queue.isCurrent { onQueue.withLock { $0 = false } }
                        let now = running.withLock { value -> Int in
                            value += 1
                            return value
                        }
                        maximum.withLock { $0 = max($0, now) }
                        usleep(500)
                        running.withLock { $0 -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(maximum.current == 1, "calls overlapped")
        #expect(onQueue.current)
        #expect(!queue.isCurrent, "the test itself is not on the queue")
        await #expect(throws: StorageError(.locked)) {
            try await queue.run { () throws(StorageError) in throw StorageError(.locked) }
        }
    }
}
