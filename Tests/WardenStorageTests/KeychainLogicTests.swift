import Foundation
import Testing
import WardenCore

@testable import WardenStorage

@Suite("Keychain logic (portable, against a fake Keychain)")
struct KeychainLogicTests {
    @Test func addThenUpdateOnDuplicate() throws {
        let fake = KeychainModel()
        let logic = KeychainLogic(api: fake, configuration: .init())
        try logic.save(Data("1".utf8), service: "s", account: "a")
        try logic.save(Data("2".utf8), service: "s", account: "a")
        #expect(fake.calls == ["add", "add", "update"])
        #expect(try logic.load(service: "s", account: "a") == Data("2".utf8))
        #expect(try logic.load(service: "s", account: "missing") == nil)
        #expect(try logic.accounts(service: "s") == ["a"])
        #expect(try logic.accounts(service: "none").isEmpty)
        try logic.delete(service: "s", account: "a")
        try logic.delete(service: "s", account: "a")  // not found is fine
    }

    /// The macOS login keychain (`warden login` on a Mac): the file-based keychain takes kSecAttrAccessible only
    /// with kSecUseDataProtectionKeychain, so neither is sent, on the add or on the update.
    @Test func theFileKeychainGetsNoProtectionClass() throws {
        var configuration = KeychainQuery.Configuration()
        configuration.useDataProtectionKeychain = false
        let add = KeychainQuery.add(configuration, service: "s", account: "a", data: Data("x".utf8))
        #expect(add.attributes[.accessible] == nil && add.attributes[.dataProtectionKeychain] == nil)
        #expect(KeychainQuery.updateAttributes(configuration, data: Data("y".utf8)).attributes[.accessible] == nil)
        let fake = KeychainModel()
        let logic = KeychainLogic(api: fake, configuration: configuration)
        try logic.save(Data("1".utf8), service: "s", account: "a")
        try logic.save(Data("2".utf8), service: "s", account: "a")
        #expect(try logic.load(service: "s", account: "a") == Data("2".utf8))
    }

    @Test func defaultQueryIsThisDeviceOnlyAndDataProtection() throws {
        let fake = KeychainModel()
        try KeychainLogic(api: fake, configuration: .init()).save(Data("x".utf8), service: "s", account: "a")
        let query = try #require(fake.stored("s", "a"))
        #expect(query.attributes[.accessible] == .accessibility(.whenUnlockedThisDeviceOnly))
        #expect(query.attributes[.dataProtectionKeychain] == .bool(true))
        #expect(query.attributes[.itemClass] == .genericPassword)
        #expect(query.attributes[.accessControl] == nil)
    }

    @Test func biometricItemsUseAccessControlInsteadOfAccessible() throws {
        let fake = KeychainModel()
        var configuration = KeychainQuery.Configuration()
        configuration.accessibility = .whenPasscodeSetThisDeviceOnly
        configuration.accessControl = .biometryCurrentSet
        configuration.accessGroup = "TEAMID.com.example.shared"
        try KeychainLogic(api: fake, configuration: configuration).save(Data("x".utf8), service: "s", account: "a")
        #expect(fake.stored("s", "a") == nil, "the item is in the shared group, not the app's default one")
        let query = try #require(fake.stored("s", "a", accessGroup: "TEAMID.com.example.shared"))
        #expect(query.attributes[.accessControl] == .accessControl(.whenPasscodeSetThisDeviceOnly, .biometryCurrentSet))
        #expect(query.attributes[.accessible] == nil)
        #expect(query.attributes[.accessGroup] == .string("TEAMID.com.example.shared"))
    }

    @Test func onlySafeAccessibilityClassesExist() {
        #expect(KeychainAccessibility.allCases.allSatisfy { $0.rawValue.hasSuffix("ThisDeviceOnly") })
    }

    @Test(arguments: [
        (KeychainStatus.interactionNotAllowed, StorageError.Code.interactionNotAllowed, WardenCoreFailure.transient),
        (KeychainStatus.missingEntitlement, .missingEntitlement, .misconfiguration),
        (KeychainStatus.userCanceled, .userCancelled, .userCancelled),
        (KeychainStatus.authFailed, .authenticationFailed, .rejected),
        (KeychainStatus.notAvailable, .serviceUnavailable, .misconfiguration),
        (KeychainStatus.decode, .corruptedData, .rejected),
        (-99999, .backendFailure, .transient),
    ])
    func statusMapping(status: Int32, code: StorageError.Code, kind: WardenCoreFailure) {
        let fake = KeychainModel()
        fake.forcedStatus = status
        let logic = KeychainLogic(api: fake, configuration: .init())
        for operation in [
            { try logic.save(Data("x".utf8), service: "s", account: "a") },
            { _ = try logic.load(service: "s", account: "a") },
            { try logic.delete(service: "s", account: "a") }, { _ = try logic.accounts(service: "s") },
        ] as [() throws -> Void] {
            do {
                try operation()
                Issue.record("expected \(code)")
            } catch let error as StorageError {
                #expect(error.code == code)
                #expect(error.failureKind.rawValue == kind.rawValue)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }
}

typealias WardenCoreFailure = FailureKind

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
        let logic = KeychainLogic(api: fake, configuration: configuration)
        let error = #expect(throws: StorageError.self) { try logic.save(Data("rt".utf8), service: "s", account: "a") }
        #expect(error?.code == .accessControlUnavailable && error?.failureKind == .misconfiguration)
        #expect(fake.calls == ["add"], "no second attempt without the access control")
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
