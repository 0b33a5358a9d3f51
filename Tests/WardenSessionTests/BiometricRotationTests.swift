import Foundation
import Testing
import WardenCore
import WardenTestSupport

@testable import WardenSession
@testable import WardenStorage
@testable import WardenTesting

/// A biometric-bound refresh token rotated through a session, over the Keychain model whose rules say what prompts
/// (a read and an update of an access-controlled item; never an add or a delete): one Face ID per refresh, a prompt
/// the user cancels can never fail the write of a token the provider already rotated, and a process killed at any
/// step of the write leaves the newest token where the next launch looks.
@Suite("Biometric refresh-token rotation over the Keychain model")
struct BiometricRotationTests {
    /// The split store as the README sets it up, over one model; `user` answers every prompt after the first.
    static func setup(laterPrompts answer: Int32) -> (SplitKeychainTests.Setup, Locked<Int>) {
        let count = Locked(0)
        let setup = SplitKeychainTests.Setup(user: { _ in
            let number = count.withLock { value -> Int in
                value += 1
                return value
            }
            return number == 1 ? KeychainStatus.success : answer
        })
        return (setup, count)
    }

    @Test(arguments: [KeychainStatus.success, KeychainStatus.userCanceled, KeychainStatus.interactionNotAllowed])
    func aRefreshPromptsOnceAndNoLaterAnswerCanFailTheWrite(laterAnswer: Int32) async throws {
        let (setup, _) = Self.setup(laterPrompts: laterAnswer)
        let clock = ManualDate()
        try await setup.store.saveTokens(Fixture.expired(clock), service: "svc", account: "a")
        let provider = FakeProvider()
        let session = try await AuthSession.restore(
            store: setup.store, service: "svc", account: "a", refresher: provider, now: clock.now)
        #expect(try await session.validAccessToken() == "at-1")
        #expect(await session.state == .signedIn)
        // One prompt: the read of rt-0. Writing rt-1 asked nothing (an in-place update would have asked again, and a
        // cancel or the app in the background would have failed the write of a token the provider already spent).
        #expect(setup.keychain.prompts.map(\.operation) == [.read], "\(setup.keychain.prompts)")
        let stored = setup.keychain.peek("svc.refresh-token", "a")
        #expect(stored == Data("rt-1".utf8))
        #expect(setup.keychain.stored("svc.refresh-token.rotating.1", "a") == nil, "the staging item is gone")
        // Still biometric-bound after the replacement.
        #expect(
            setup.keychain.stored("svc.refresh-token", "a")?.attributes[.accessControl]
                == .accessControl(.whenPasscodeSetThisDeviceOnly, .biometryCurrentSet))
    }

    static var biometric: KeychainQuery.Configuration {
        var configuration = KeychainQuery.Configuration()
        configuration.accessibility = .whenPasscodeSetThisDeviceOnly
        configuration.accessControl = .biometryCurrentSet
        return configuration
    }

    /// Lets the first `limit` writes through, then refuses everything: the process died there.
    final class Dying: KeychainAPI, @unchecked Sendable {  // `writes` behind Locked
        let inner: KeychainModel
        let limit: Int
        let writes = Locked(0)
        init(_ inner: KeychainModel, limit: Int) {
            self.inner = inner
            self.limit = limit
        }
        private func allowed() -> Bool {
            writes.withLock { value -> Bool in
                value += 1
                return value <= limit
            }
        }
        func add(_ query: KeychainQuery) -> Int32 { allowed() ? inner.add(query) : KeychainStatus.notAvailable }
        func update(_ query: KeychainQuery, _ attributes: KeychainQuery) -> Int32 {
            allowed() ? inner.update(query, attributes) : KeychainStatus.notAvailable
        }
        func copyData(_ query: KeychainQuery) -> (Int32, Data?) { inner.copyData(query) }
        func copyAccounts(_ query: KeychainQuery) -> (Int32, [String]) { inner.copyAccounts(query) }
        func delete(_ query: KeychainQuery) -> Int32 { allowed() ? inner.delete(query) : KeychainStatus.notAvailable }
    }

    /// Killed after 0, 1, 2, 3 or 4 writes of a replacement: the next launch reads rt-1 once any write happened, rt-0
    /// before, and never nothing; no write prompted.
    @Test(arguments: 0...4)
    func aKillAtAnyStepLeavesTheNewestTokenFindable(writes: Int) throws {
        let model = KeychainModel()
        let logic = KeychainLogic(api: model.api, configuration: Self.biometric)
        try logic.save(Data("rt-0".utf8), service: "svc", account: "a")
        let promptsBefore = model.prompts.count
        let dying = KeychainLogic(api: Dying(model, limit: writes), configuration: Self.biometric)
        _ = try? dying.save(Data("rt-1".utf8), service: "svc", account: "a")
        #expect(model.prompts.count == promptsBefore, "a write prompted")
        let next = try logic.load(service: "svc", account: "a")
        #expect(
            next == Data((writes == 0 ? "rt-0" : "rt-1").utf8),
            "killed after \(writes) writes: \(String(describing: next))")
        // The launch after that writes again and ends clean: one item, no rotation item.
        try logic.save(Data("rt-2".utf8), service: "svc", account: "a")
        #expect(try logic.load(service: "svc", account: "a") == Data("rt-2".utf8))
        #expect(model.keys.map(\.service) == ["svc"])
    }

    /// Two deaths in a row: the first replacement is killed after it staged rt-1 and deleted the item (only the staging
    /// item holds the token), and the next launch's replacement (rt-2) is killed after each of its writes. Whatever the
    /// second kill's moment, the next read finds rt-2 once any of its writes happened, rt-1 before — never nothing.
    @Test(arguments: 0...6)
    func twoKillsInARowNeverLoseTheToken(writes: Int) throws {
        let model = KeychainModel()
        let logic = KeychainLogic(api: model.api, configuration: Self.biometric)
        try logic.save(Data("rt-0".utf8), service: "svc", account: "a")
        _ = try? KeychainLogic(api: Dying(model, limit: 2), configuration: Self.biometric)
            .save(Data("rt-1".utf8), service: "svc", account: "a")
        #expect(model.peek("svc", "a") == nil && model.peek("svc.rotating.1", "a") == Data("rt-1".utf8))
        #expect(try logic.load(service: "svc", account: "a") == Data("rt-1".utf8))
        _ = try? KeychainLogic(api: Dying(model, limit: writes), configuration: Self.biometric)
            .save(Data("rt-2".utf8), service: "svc", account: "a")
        let next = try logic.load(service: "svc", account: "a")
        #expect(
            next == Data((writes == 0 ? "rt-1" : "rt-2").utf8),
            "killed after \(writes) writes: \(String(describing: next))")
        try logic.save(Data("rt-3".utf8), service: "svc", account: "a")
        #expect(try logic.load(service: "svc", account: "a") == Data("rt-3".utf8))
        #expect(model.keys.map(\.service) == ["svc"], "the staging items are gone")
    }

    /// A plain store's delete (sign-out, a reinstall's purge, the Face-ID-off store) removes staging items a biometric
    /// store left: none is read back later as a newer token.
    @Test func aPlainStoresDeleteRemovesStagingItems() throws {
        let model = KeychainModel()
        _ = try? KeychainLogic(api: Dying(model, limit: 1), configuration: Self.biometric)
            .save(Data("rt-old".utf8), service: "svc", account: "a")
        #expect(model.peek("svc.rotating.1", "a") != nil)
        try KeychainLogic(api: model.api, configuration: .init()).delete(service: "svc", account: "a")
        #expect(model.keys.isEmpty)
        #expect(
            try KeychainLogic(api: model.api, configuration: Self.biometric).load(service: "svc", account: "a") == nil)
    }
}
