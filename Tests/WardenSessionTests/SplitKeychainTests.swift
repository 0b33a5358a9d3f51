import Foundation
import Testing
import WardenCore

@testable import WardenSession
@testable import WardenStorage
@testable import WardenTesting

/// ``SplitTokenStore`` set up as the README shows — two Keychain stores, one service and account — over **one**
/// keychain that keys items the way Apple's does (class + service + account + access group).
@Suite("Split token store over one keychain")
struct SplitKeychainTests {
    static let group = "TEAMID.com.example.shared"

    struct Setup {
        let keychain: KeychainModel
        let store: SplitTokenStore

        init(
            accessGroup: String? = nil,
            user: @escaping @Sendable (KeychainModel.Prompt) -> Int32 = { _ in KeychainStatus.success }
        ) {
            keychain = KeychainModel(user: user)
            var background = KeychainQuery.Configuration()
            background.accessibility = .afterFirstUnlockThisDeviceOnly
            background.accessGroup = accessGroup
            var biometric = KeychainQuery.Configuration()
            biometric.accessibility = .whenPasscodeSetThisDeviceOnly
            biometric.accessControl = .biometryCurrentSet
            biometric.accessGroup = accessGroup
            store = SplitTokenStore(
                tokens: KeychainItemStore(
                    api: keychain.api, configuration: background, grantLock: ProcessGrantLock.shared),
                refreshTokens: KeychainItemStore(
                    api: keychain.api, configuration: biometric, grantLock: ProcessGrantLock.shared))
        }
    }

    static func tokens(_ refresh: String?, generation: UInt64 = 0) -> TokenSet {
        var set = TokenSet(
            accessToken: "at-\(generation)", refreshToken: refresh, idToken: nil, expiresAt: nil, scope: "openid",
            issuer: "https://id.example.com")
        set.generation = generation
        return set
    }

    @Test(arguments: [nil, SplitKeychainTests.group])
    func theTokenSetAndTheRefreshTokenAreTwoItemsWithTheirOwnProtection(accessGroup: String?) async throws {
        let setup = Setup(accessGroup: accessGroup)
        try await setup.store.saveTokens(Self.tokens("rt-0"), service: "svc", account: "alice")
        #expect(setup.keychain.keys.count == 2, "one primary key would mean the token set overwrote the refresh token")
        let main = try #require(setup.keychain.stored("svc", "alice", accessGroup: accessGroup))
        #expect(main.attributes[.accessible] == .accessibility(.afterFirstUnlockThisDeviceOnly))
        #expect(main.attributes[.accessControl] == nil)
        let protected = try #require(setup.keychain.stored("svc.refresh-token", "alice", accessGroup: accessGroup))
        #expect(
            protected.attributes[.accessControl] == .accessControl(.whenPasscodeSetThisDeviceOnly, .biometryCurrentSet))
        #expect(protected.attributes[.accessible] == nil)

        #expect(try await setup.store.loadRefreshToken(service: "svc", account: "alice") == "rt-0")
        let set = try #require(await setup.store.loadTokens(service: "svc", account: "alice"))
        #expect(set.refreshToken == nil && set.refreshTokenHeldSeparately && set.accessToken.unredacted() == "at-0")
    }

    /// A rotation updates both items in place; neither changes the other's protection.
    @Test func aRotationUpdatesBothItemsAndKeepsEachProtection() async throws {
        let setup = Setup()
        try await setup.store.saveTokens(Self.tokens("rt-0"), service: "svc", account: "alice")
        try await setup.store.saveTokens(Self.tokens("rt-1", generation: 1), service: "svc", account: "alice")
        #expect(setup.keychain.keys.count == 2)
        #expect(try await setup.store.loadRefreshToken(service: "svc", account: "alice") == "rt-1")
        let set = try #require(await setup.store.loadTokens(service: "svc", account: "alice"))
        #expect(set.generation == 1 && set.accessToken.unredacted() == "at-1")
        let protected = try #require(setup.keychain.stored("svc.refresh-token", "alice"))
        #expect(
            protected.attributes[.accessControl] == .accessControl(.whenPasscodeSetThisDeviceOnly, .biometryCurrentSet))
        let main = try #require(setup.keychain.stored("svc", "alice"))
        #expect(main.attributes[.accessible] == .accessibility(.afterFirstUnlockThisDeviceOnly))
    }

    /// Reading the token set — every launch, every extension — never reads the access-controlled item.
    @Test func restoringNeverReadsTheProtectedItem() async throws {
        let prompts = Locked(0)
        let setup = Setup(user: { _ in
            prompts.withLock { $0 += 1 }
            return KeychainStatus.success
        })
        try await setup.store.saveTokens(Self.tokens("rt-0"), service: "svc", account: "alice")
        for _ in 0..<3 { _ = try await setup.store.loadTokens(service: "svc", account: "alice") }
        #expect(prompts.current == 0)
        #expect(try await setup.store.loadRefreshToken(service: "svc", account: "alice") == "rt-0")
        #expect(prompts.current == 1)
    }

    @Test func deletingTheTokensAndPurgingTheRecordsRemoveBothItemsAndAccountsListsOnlyTheGrants() async throws {
        let setup = Setup()
        for account in ["alice", "bob"] {
            try await setup.store.saveTokens(Self.tokens("rt-\(account)"), service: "svc", account: account)
        }
        #expect(try await setup.store.records.accounts(service: "svc") == ["alice", "bob"])
        try await setup.store.deleteTokens(service: "svc", account: "alice")
        #expect(setup.keychain.keys.map(\.account) == ["bob", "bob"])
        try await setup.store.records.deleteAll(service: "svc")
        #expect(setup.keychain.keys.isEmpty)
    }

    /// The first launch of a reinstall purges the refresh-token items too: restoring a session over the split store
    /// with a sentinel purges the store's records, which reach both halves.
    @Test func theInstallSentinelPurgesTheRefreshTokenItems() async throws {
        let setup = Setup()
        try await setup.store.saveTokens(Self.tokens("rt-old"), service: "svc", account: "alice")
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("warden-split-\(UUID())/marker")
        defer { try? FileManager.default.removeItem(at: marker.deletingLastPathComponent()) }
        let sentinel = InstallSentinel(appID: "com.example.app", markerFile: marker)
        let session = try await AuthSession.restore(
            store: setup.store, service: "svc", account: "alice", refresher: FakeProvider(), sentinel: sentinel)
        #expect(await session.currentTokens == nil)
        #expect(setup.keychain.keys.isEmpty, "the refresh-token item of the previous install is gone too")
        // The second launch of this install keeps what it stores.
        try await setup.store.saveTokens(Self.tokens("rt-new"), service: "svc", account: "alice")
        #expect(
            try await sentinel.purgeIfFirstLaunch(store: setup.store.records, services: ["svc"]) == .alreadyInstalled)
        #expect(setup.keychain.keys.count == 2)
    }

    @Test func aSetWithoutRefreshTokenDeletesTheProtectedItem() async throws {
        let setup = Setup()
        try await setup.store.saveTokens(Self.tokens("rt-0"), service: "svc", account: "alice")
        try await setup.store.saveTokens(Self.tokens(nil), service: "svc", account: "alice")
        #expect(setup.keychain.keys.map(\.service) == ["svc"])
        #expect(try await setup.store.loadRefreshToken(service: "svc", account: "alice") == nil)
    }

    /// Two separate stores (other access groups, non-Keychain stores) kept the refresh token under the token set's
    /// service before 0.1.0: it is moved on first use, and sign-out removes any leftover.
    @Test func aRefreshTokenFromBeforeTheOwnServiceIsMigratedAndPurged() async throws {
        let tokens = InMemoryStore()
        let refreshTokens = InMemoryStore()
        let store = SplitTokenStore(tokens: tokens, refreshTokens: refreshTokens)
        var set = Self.tokens(nil)
        set.refreshTokenHeldSeparately = true
        try await tokens.save(try set.encoded(), service: "svc", account: "alice")
        try await refreshTokens.save(Data("rt-legacy".utf8), service: "svc", account: "alice")
        #expect(try await store.loadRefreshToken(service: "svc", account: "alice") == "rt-legacy")
        #expect(try await refreshTokens.load(service: "svc", account: "alice") == nil, "moved, not copied")
        #expect(try await refreshTokens.load(service: "svc.refresh-token", account: "alice") == Data("rt-legacy".utf8))

        try await refreshTokens.save(Data("rt-leftover".utf8), service: "svc", account: "bob")
        try await store.records.deleteAll(service: "svc")
        #expect(try await refreshTokens.accounts(service: "svc").isEmpty)
        #expect(try await refreshTokens.accounts(service: "svc.refresh-token").isEmpty)
    }

    /// In one Keychain the old layout left the token set under the shared key: nothing to migrate, no prompt.
    @Test func aSharedLegacyItemIsNotMistakenForARefreshToken() async throws {
        let setup = Setup()
        var set = Self.tokens(nil)
        set.refreshTokenHeldSeparately = true
        let tokensHalf = try #require(setup.store.tokens as? KeychainItemStore)
        try await tokensHalf.save(try set.encoded(), service: "svc", account: "alice")
        #expect(try await setup.store.loadRefreshToken(service: "svc", account: "alice") == nil)
        #expect(setup.keychain.keys.map(\.service) == ["svc"], "the token set is left in place")
    }

    @Test func aServiceNameWithNoRoomForTheSuffixIsRefused() async throws {
        let setup = Setup()
        let name = String(repeating: "s", count: CredentialStoreLimits.maximumNameBytes - 5)
        let error = await #expect(throws: StorageError.self) {
            try await setup.store.saveTokens(Self.tokens("rt"), service: name, account: "alice")
        }
        #expect(error?.code == .invalidName)
        #expect(error?.reason.contains("refresh-token item") == true)
        #expect(setup.keychain.keys.isEmpty, "nothing is half-written")
        #expect(try SplitTokenStore.refreshTokenService(for: "svc") == "svc.refresh-token")
    }

    /// A biometric read waits in `SecItemCopyMatching` until the user answers. Meanwhile the other Keychain calls of
    /// the process — a background task saving or reading an access token — go on.
    @Test func aPendingPromptDoesNotHoldUpOtherKeychainCalls() async throws {
        let promptUp = Locked(false)
        let answer = DispatchSemaphore(value: 0)
        let answeredInTime = Locked(false)
        let setup = Setup(user: { _ in
            promptUp.withLock { $0 = true }
            // The user answers only after the other calls ran; if they were queued behind the prompt the wait
            // times out (generously: the test machine may be busy) instead of hanging the test.
            answeredInTime.withLock { $0 = answer.wait(timeout: .now() + 30) == .success }
            return KeychainStatus.success
        })
        try await setup.store.saveTokens(Self.tokens("rt-0"), service: "svc", account: "alice")
        let read = Task { try await setup.store.loadRefreshToken(service: "svc", account: "alice") }
        // Polled without blocking a cooperative thread (the other calls need one to resume).
        let deadline = Date() + 30
        while !promptUp.current, Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
        try #require(promptUp.current, "the protected read never reached the prompt")
        let other = KeychainItemStore(
            api: setup.keychain.api, configuration: .init(), grantLock: ProcessGrantLock.shared)
        try await other.save(Data("background".utf8), service: "other", account: "bob")
        #expect(try await other.load(service: "other", account: "bob") == Data("background".utf8))
        #expect(try await setup.store.loadTokens(service: "svc", account: "alice") != nil)
        answer.signal()
        #expect(try await read.value == "rt-0")
        #expect(answeredInTime.current, "the unprotected calls waited behind the prompt")
    }
}
