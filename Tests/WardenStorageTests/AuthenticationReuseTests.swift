import Foundation
import Testing
import WardenCore

@testable import WardenStorage

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

    /// One authenticated context serves the reads of the window; after it, the context is invalidated and the next
    /// read prompts with a new one.
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
        clock.withLock { $0 += 29 }
        #expect(cache.context() == 1, "within the window: the same, already authenticated context")
        clock.withLock { $0 += 2 }
        #expect(cache.context() == 2)
        #expect(contexts.invalidated.current == [1])
        clock.withLock { $0 -= 3600 }  // the clock moved back: never stretch the window
        #expect(cache.context() == 3)
        cache.reset()
        #expect(contexts.invalidated.current == [1, 2, 3])
        #expect(cache.context() == 4)
    }

    @Test func windowsAreBounded() {
        #expect(KeychainAuthenticationReuse(afterDeviceUnlock: 900).afterDeviceUnlock == 300)
        #expect(KeychainAuthenticationReuse(inApp: -5).inApp == 0)
        #expect(KeychainAuthenticationReuse(inApp: .infinity).inApp == 0)
        #expect(KeychainAuthenticationReuse(inApp: 1e9).inApp == 3600)
        #expect(KeychainAuthenticationReuse.none == KeychainAuthenticationReuse(afterDeviceUnlock: 0, inApp: 0))
    }
}
