import Foundation
import Testing
import WardenCore

@testable import WardenStorage

/// A fake that behaves like the Keychain: duplicate on add, not found, and injectable statuses (interaction not
/// allowed, missing entitlement -34018, ...).
final class FakeKeychain: KeychainAPI, @unchecked Sendable {  // NSLock-guarded
    private let lock = NSLock()
    private var items: [String: [String: (Data, KeychainQuery)]] = [:]
    var forcedStatus: Int32?
    private(set) var calls: [String] = []

    func key(_ query: KeychainQuery) -> (String, String?) {
        guard case .string(let service)? = query.attributes[.service] else { return ("", nil) }
        if case .string(let account)? = query.attributes[.account] { return (service, account) }
        return (service, nil)
    }

    func add(_ query: KeychainQuery) -> Int32 {
        lock.withLock {
            calls.append("add")
            if let forcedStatus { return forcedStatus }
            let (service, account) = key(query)
            guard let account, case .data(let data)? = query.attributes[.valueData] else { return -50 }
            if items[service]?[account] != nil { return KeychainStatus.duplicateItem }
            items[service, default: [:]][account] = (data, query)
            return 0
        }
    }

    func update(_ query: KeychainQuery, _ attributes: KeychainQuery) -> Int32 {
        lock.withLock {
            calls.append("update")
            if let forcedStatus { return forcedStatus }
            let (service, account) = key(query)
            guard let account, let existing = items[service]?[account],
                case .data(let data)? = attributes.attributes[.valueData]
            else {
                return KeychainStatus.itemNotFound
            }
            items[service]![account] = (data, existing.1)
            return 0
        }
    }

    func copyData(_ query: KeychainQuery) -> (Int32, Data?) {
        lock.withLock {
            calls.append("copy")
            if let forcedStatus { return (forcedStatus, nil) }
            let (service, account) = key(query)
            guard let account, let item = items[service]?[account] else { return (KeychainStatus.itemNotFound, nil) }
            return (0, item.0)
        }
    }

    func copyAccounts(_ query: KeychainQuery) -> (Int32, [String]) {
        lock.withLock {
            if let forcedStatus { return (forcedStatus, []) }
            let accounts = Array((items[key(query).0] ?? [:]).keys)
            return accounts.isEmpty ? (KeychainStatus.itemNotFound, []) : (0, accounts)
        }
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        lock.withLock {
            calls.append("delete")
            if let forcedStatus { return forcedStatus }
            let (service, account) = key(query)
            if let account {
                guard items[service]?[account] != nil else { return KeychainStatus.itemNotFound }
                items[service]![account] = nil
            } else {
                guard items[service] != nil else { return KeychainStatus.itemNotFound }
                items[service] = nil
            }
            return 0
        }
    }

    func stored(_ service: String, _ account: String) -> KeychainQuery? {
        lock.withLock { items[service]?[account]?.1 }
    }
}

@Suite("Keychain logic (portable, against a fake Keychain)")
struct KeychainLogicTests {
    @Test func addThenUpdateOnDuplicate() throws {
        let fake = FakeKeychain()
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

    @Test func defaultQueryIsThisDeviceOnlyAndDataProtection() throws {
        let fake = FakeKeychain()
        try KeychainLogic(api: fake, configuration: .init()).save(Data("x".utf8), service: "s", account: "a")
        let query = try #require(fake.stored("s", "a"))
        #expect(query.attributes[.accessible] == .accessibility(.whenUnlockedThisDeviceOnly))
        #expect(query.attributes[.dataProtectionKeychain] == .bool(true))
        #expect(query.attributes[.itemClass] == .genericPassword)
        #expect(query.attributes[.accessControl] == nil)
    }

    @Test func biometricItemsUseAccessControlInsteadOfAccessible() throws {
        let fake = FakeKeychain()
        var configuration = KeychainQuery.Configuration()
        configuration.accessibility = .whenPasscodeSetThisDeviceOnly
        configuration.accessControl = .biometryCurrentSet
        configuration.accessGroup = "TEAMID.com.example.shared"
        try KeychainLogic(api: fake, configuration: configuration).save(Data("x".utf8), service: "s", account: "a")
        let query = try #require(fake.stored("s", "a"))
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
        let fake = FakeKeychain()
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
