import Foundation
import Testing
import WardenCore

@testable import WardenStorage
@testable import WardenTesting

@Suite("Keychain logic (portable, against a fake Keychain)")
struct KeychainLogicTests {
    @Test func addThenUpdateOnDuplicate() throws {
        let fake = KeychainModel()
        let logic = KeychainLogic(api: fake.api, configuration: .init())
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
        let logic = KeychainLogic(api: fake.api, configuration: configuration)
        try logic.save(Data("1".utf8), service: "s", account: "a")
        try logic.save(Data("2".utf8), service: "s", account: "a")
        #expect(try logic.load(service: "s", account: "a") == Data("2".utf8))
    }

    @Test func defaultQueryIsThisDeviceOnlyAndDataProtection() throws {
        let fake = KeychainModel()
        try KeychainLogic(api: fake.api, configuration: .init()).save(Data("x".utf8), service: "s", account: "a")
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
        try KeychainLogic(api: fake.api, configuration: configuration).save(Data("x".utf8), service: "s", account: "a")
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
        let logic = KeychainLogic(api: fake.api, configuration: .init())
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
