import Foundation
import Testing
import WardenCore

@testable import WardenStorage

@Suite("Platform store")
struct PlatformStoreTests {
    #if WARDEN_SECRET_SERVICE
        @Test func linuxHasTheSecretServiceAndNoKeychain() {
            #expect(PlatformStore.secure == .secretService)
            #expect(PlatformStore.isAvailable(.secretService))
            #expect(!PlatformStore.isAvailable(.keychain))
        }

        @Test func theDefaultIsASecretServiceStoreWithTheGivenLock() throws {
            let lock = FileGrantLock(
                directory: FileManager.default.temporaryDirectory.appendingPathComponent("warden-locks-\(UUID())"))
            let store = try PlatformStore.make(grantLock: lock)
            let secretService = try #require(store as? SecretServiceStore)
            #expect((secretService.grantLock as? FileGrantLock)?.directory == lock.directory)
            #expect(try PlatformStore.make(.secretService) is SecretServiceStore)
        }

        /// Runs inside scripts/with-keyring (CI requires it: StoreContractTests.secretServiceRunsInCI).
        @Test(.enabled(if: Stores.inSecretServiceSession, "needs the private keyring of scripts/with-keyring"))
        func theDefaultStoreKeepsASecretInTheRealKeyring() async throws {
            let store = try PlatformStore.make()
            let service = Stores.service()
            try await store.save(Data("refresh-token".utf8), service: service, account: "alice")
            // A second store from the factory (another launch) reads what the first wrote: it is the keyring.
            #expect(
                try await PlatformStore.make().load(service: service, account: "alice") == Data("refresh-token".utf8))
            try await store.deleteAll(service: service)
        }
    #endif

    @Test func aStoreThisPlatformLacksIsATypedErrorNamingIt() throws {
        let missing: PlatformStore.Kind = PlatformStore.secure == .keychain ? .secretService : .keychain
        let error = #expect(throws: StorageError.self) { try PlatformStore.make(missing) }
        #expect(error?.code == .serviceUnavailable)
        #expect(error?.failureKind == .misconfiguration)
        #expect(error?.reason.contains(missing == .keychain ? "Keychain" : "Secret Service") == true)
    }
}
