import Foundation
import Testing
import WardenCore

@testable import WardenStorage
@testable import WardenTesting

@Suite("Keychain authentication reuse")
struct AuthenticationReuseTests {
    final class Contexts: @unchecked Sendable {  // Locked-guarded
        let made = Locked(0)
        let invalidated = Locked<[Int]>([])
    }

    @Test func withoutAnInAppWindowEveryReadGetsANewContext() {
        let contexts = Contexts()
        let cache = AuthenticationContextCache<Int>(
            window: 0,
            make: {
                contexts.made.withLock {
                    $0 += 1
                    return $0
                }
            },
            invalidate: { id in contexts.invalidated.withLock { $0.append(id) } })
        let handed: [Int] = [cache.context(), cache.context(), cache.context()]
        #expect(handed == [1, 2, 3])
    }

    /// One authenticated context serves the reads of the window, which starts when a read with it succeeded; after
    /// it, or after a sign-out or a cancelled prompt, the context is invalidated and the next read prompts again.
    @Test func anInAppWindowKeepsOneContextAndInvalidatesItAfterwards() {
        let contexts = Contexts()
        let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
        let cache = AuthenticationContextCache<Int>(
            window: 30, now: { clock.current },
            make: {
                contexts.made.withLock {
                    $0 += 1
                    return $0
                }
            },
            invalidate: { id in contexts.invalidated.withLock { $0.append(id) } })
        #expect(cache.context() == 1)
        clock.withLock { $0 += 20 }  // the user takes 20 s to answer the prompt
        cache.readSucceeded()
        clock.withLock { $0 += 29 }
        #expect(cache.context() == 1, "within the window: the same, already authenticated context")
        clock.withLock { $0 += 2 }
        #expect(cache.context() == 2)
        #expect(contexts.invalidated.current == [1])
        cache.readSucceeded()
        clock.withLock { $0 -= 3600 }  // the clock moved back: never stretch the window
        #expect(cache.context() == 3)
        #expect(cache.context() == 4, "a context whose read did not succeed never unlocks the next read")
        cache.readSucceeded()
        cache.reset()  // a sign-out, a cancelled prompt
        #expect(contexts.invalidated.current == [1, 2, 3, 4])
        #expect(cache.context() == 5)
    }

    /// The Keychain logic tells the seam how each protected read ended and when items were deleted — what starts
    /// and drops the window.
    @Test func theKeychainLogicReportsProtectedReadsAndDeletions() throws {
        let keychain = KeychainModel()
        var protected = KeychainQuery.Configuration()
        protected.accessControl = .biometryCurrentSet
        let logic = KeychainLogic(api: keychain.api, configuration: protected)
        try logic.save(Data("rt".utf8), service: "s", account: "a")
        _ = try logic.load(service: "s", account: "a")
        _ = try logic.load(service: "s", account: "missing")
        try logic.delete(service: "s", account: "a")
        #expect(keychain.reported.readEnds == [KeychainStatus.success, KeychainStatus.itemNotFound])
        #expect(keychain.reported.deletions == 1)
        _ = try KeychainLogic(api: keychain.api, configuration: .init()).load(service: "s", account: "a")
        #expect(keychain.reported.readEnds.count == 2, "unprotected reads do not count")
    }

    @Test func windowsAreBounded() {
        #expect(KeychainAuthenticationReuse(afterDeviceUnlock: 900).afterDeviceUnlock == 300)
        #expect(KeychainAuthenticationReuse(inApp: -5).inApp == 0)
        #expect(KeychainAuthenticationReuse(inApp: .infinity).inApp == 0)
        #expect(KeychainAuthenticationReuse(inApp: 1e9).inApp == 3600)
        #expect(KeychainAuthenticationReuse.none == KeychainAuthenticationReuse(afterDeviceUnlock: 0, inApp: 0))
    }
}
