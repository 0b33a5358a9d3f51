import Foundation
import Testing
import WardenCore
import WardenTestSupport
import WardenTesting

@testable import WardenStorage

/// Each rule of the Keychain model (`WardenTesting.KeychainModel`, K1–K10), through the public store an app builds
/// over it: what an app's own tests see.
@Suite("The Keychain model's rules, through the store an app builds")
struct KeychainModelRuleTests {
    static let secret = Data("rt-0".utf8)

    /// K5: the lock state decides per class.
    @Test func theLockStateDecidesPerClass() async throws {
        let model = KeychainModel()
        let foreground = model.store(accessibility: .whenUnlockedThisDeviceOnly)
        let background = model.store(accessibility: .afterFirstUnlockThisDeviceOnly)
        try await foreground.save(Self.secret, service: "fg", account: "a")
        try await background.save(Self.secret, service: "bg", account: "a")
        model.deviceState = .locked
        let locked = await #expect(throws: StorageError.self) {
            _ = try await foreground.load(service: "fg", account: "a")
        }
        #expect(locked?.code == .interactionNotAllowed && locked?.failureKind == .transient)
        #expect(try await background.load(service: "bg", account: "a") == Self.secret)
        await #expect(throws: StorageError(.interactionNotAllowed)) {
            try await foreground.save(Self.secret, service: "fg2", account: "a")
        }
        model.deviceState = .beforeFirstUnlock
        await #expect(throws: StorageError(.interactionNotAllowed)) {
            _ = try await background.load(service: "bg", account: "a")
        }
        model.deviceState = .unlocked
        #expect(try await foreground.load(service: "fg", account: "a") == Self.secret)
    }

    /// K6, K8: a protected read prompts once; adding and deleting never do; a read of nothing shows nothing.
    @Test func readsPromptAddsAndDeletesDoNot() async throws {
        let model = KeychainModel()
        let store = model.store(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet)
        #expect(try await store.load(service: "svc", account: "a") == nil)
        try await store.save(Self.secret, service: "svc", account: "a")
        #expect(model.prompts.isEmpty)
        #expect(try await store.load(service: "svc", account: "a") == Self.secret)
        #expect(model.prompts.map(\.operation) == [.read])
        try await store.delete(service: "svc", account: "a")
        #expect(model.prompts.count == 1)
    }

    /// K12 through the store an app builds: with an in-app reuse window, the context that passed one prompt is passed
    /// again and the next reads of the window do not prompt; after the window, a cancelled prompt, or a deletion (a
    /// sign-out), the next read prompts. Without a window every read prompts.
    @Test func anAuthenticatedContextCoversTheReadsOfItsWindowOnly() async throws {
        let clock = ManualDate()
        let model = KeychainModel()
        let store = model.store(
            accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet,
            reuse: KeychainAuthenticationReuse(inApp: 30), now: clock.now)
        try await store.save(Self.secret, service: "svc", account: "a")
        #expect(try await store.load(service: "svc", account: "a") == Self.secret)
        clock.advance(10)
        #expect(try await store.load(service: "svc", account: "a") == Self.secret)
        #expect(model.prompts.count == 1, "the second read of the window used the authenticated context")
        clock.advance(25)
        _ = try await store.load(service: "svc", account: "a")
        #expect(model.prompts.count == 2, "after the window the context is new")
        try await store.delete(service: "svc", account: "a")
        try await store.save(Self.secret, service: "svc", account: "a")
        _ = try await store.load(service: "svc", account: "a")
        #expect(model.prompts.count == 3, "a deletion drops the context")

        let cancelling = Locked(true)
        let cancelModel = KeychainModel(user: { _ in cancelling.withLock { $0 } ? -128 : 0 })
        let cancelStore = cancelModel.store(
            accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet,
            reuse: KeychainAuthenticationReuse(inApp: 30), now: clock.now)
        try await cancelStore.save(Self.secret, service: "svc", account: "a")
        await #expect(throws: StorageError(.userCancelled)) {
            _ = try await cancelStore.load(service: "svc", account: "a")
        }
        cancelling.withLock { $0 = false }
        _ = try await cancelStore.load(service: "svc", account: "a")
        _ = try await cancelStore.load(service: "svc", account: "a")
        #expect(cancelModel.prompts.count == 2, "a cancelled prompt authenticated nothing; the next one did")

        let plainModel = KeychainModel()
        let plain = plainModel.store(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet)
        try await plain.save(Self.secret, service: "svc", account: "a")
        for _ in 0..<3 { _ = try await plain.load(service: "svc", account: "a") }
        #expect(plainModel.prompts.count == 3)
    }

    /// K7 with Warden's store: replacing a protected item is adds and deletes, so it never prompts (the rule is what
    /// an in-place `SecItemUpdate` would cost: see BiometricRotationTests for the count through a session).
    @Test func replacingAProtectedItemThroughTheStoreNeverPrompts() async throws {
        let model = KeychainModel(user: { _ in -128 })  // the user cancels anything asked
        let store = model.store(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet)
        try await store.save(Self.secret, service: "svc", account: "a")
        try await store.save(Data("rt-1".utf8), service: "svc", account: "a")
        #expect(model.prompts.isEmpty)
        await #expect(throws: StorageError(.userCancelled)) { _ = try await store.load(service: "svc", account: "a") }
    }

    /// K9: re-enrolling invalidates biometric items only; K10: biometry the app cannot use fails the read with no
    /// prompt and no fallback.
    @Test func biometryChangesInvalidateOrLockBiometricItems() async throws {
        let model = KeychainModel()
        let bound = model.store(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet)
        let plain = model.store(accessibility: .afterFirstUnlockThisDeviceOnly)
        try await bound.save(Self.secret, service: "rt", account: "a")
        try await plain.save(Self.secret, service: "at", account: "a")
        model.biometry = .unavailable
        let error = await #expect(throws: StorageError.self) { _ = try await bound.load(service: "rt", account: "a") }
        #expect(error?.code == .authenticationFailed)
        #expect(model.prompts.isEmpty, "no sheet, no passcode fallback")
        model.biometry = .enrolled
        #expect(try await bound.load(service: "rt", account: "a") == Self.secret)
        model.reenrolBiometry()
        #expect(try await bound.load(service: "rt", account: "a") == nil)
        #expect(try await plain.load(service: "at", account: "a") == Self.secret)
    }

    /// K1, K2: the primary key, and the default group.
    @Test func twoStoresOfOneServiceAndAccountShareAnItemUnlessTheirGroupsDiffer() async throws {
        let model = KeychainModel(defaultAccessGroup: "TEAM.app")
        let app = model.store()
        let shared = model.store(accessGroup: "TEAM.shared")
        let defaultGroup = model.store(accessGroup: "TEAM.app")
        try await app.save(Data("one".utf8), service: "svc", account: "a")
        try await shared.save(Data("two".utf8), service: "svc", account: "a")
        #expect(try await defaultGroup.load(service: "svc", account: "a") == Data("one".utf8))
        #expect(try await shared.load(service: "svc", account: "a") == Data("two".utf8))
    }
}

/// A Keychain prompt's text gets the check LocalAuthentication's reasons get: a blank one is never handed to
/// `LAContext` (which raises an Objective-C exception for a blank reason); the system's own text is shown instead.
@Suite("Keychain prompt text")
struct KeychainPromptTextTests {
    @Test(arguments: ["", " ", "\t\n", "\u{0}", "\u{3000}\u{0007}"])
    func aBlankPromptIsNotUsed(_ prompt: String) {
        #expect(KeychainPromptText.presentable(prompt) == nil)
    }

    @Test func aRealPromptIsUsedAsWritten() {
        #expect(KeychainPromptText.presentable("Unlock your account") == "Unlock your account")
        #expect(KeychainPromptText.presentable(nil) == nil)
    }
}
