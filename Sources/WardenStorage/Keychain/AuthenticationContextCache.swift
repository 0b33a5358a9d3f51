import Foundation
import WardenCore

/// How long one biometric authentication unlocks a store's protected reads.
///
/// Two different things, often confused:
/// - ``afterDeviceUnlock`` is `LAContext.touchIDAuthenticationAllowableReuseDuration`: a read does not prompt if the
///   user unlocked **the device** with Face ID / Touch ID within that many seconds (at most 300). It never reuses an
///   evaluation made in the app.
/// - ``inApp`` keeps **one** `LAContext` for that many seconds: after the user passed its prompt once, the store's
///   further protected reads within the window use the same, already-authenticated context and do not prompt; after
///   the window the context is invalidated and the next read prompts again.
///
/// Both default to 0: every protected read prompts.
public struct KeychainAuthenticationReuse: Sendable, Equatable {
    /// Seconds after a biometric device unlock during which a read does not prompt (0...300).
    public var afterDeviceUnlock: TimeInterval
    /// Seconds one in-app authentication keeps unlocking this store's protected reads (0...3600).
    public var inApp: TimeInterval

    /// The longest window `LAContext` accepts for a device-unlock reuse.
    public static let maximumAfterDeviceUnlock: TimeInterval = 300
    /// The longest in-app window Warden accepts.
    public static let maximumInApp: TimeInterval = 3600

    /// Every protected read prompts.
    public static let none = KeychainAuthenticationReuse()

    /// Reuse windows in seconds, both 0 by default; each is clamped to 0...``maximumAfterDeviceUnlock`` or
    /// 0...``maximumInApp``, and a value that is not finite becomes 0.
    public init(afterDeviceUnlock: TimeInterval = 0, inApp: TimeInterval = 0) {
        self.afterDeviceUnlock = Self.clamp(afterDeviceUnlock, Self.maximumAfterDeviceUnlock)
        self.inApp = Self.clamp(inApp, Self.maximumInApp)
    }

    private static func clamp(_ value: TimeInterval, _ maximum: TimeInterval) -> TimeInterval {
        value.isFinite ? min(max(value, 0), maximum) : 0
    }
}

/// Hands out the authentication context of each protected read: a new one per read, or — with an in-app reuse
/// window — one context kept for the window and invalidated after it. Generic over the context so that the rule is
/// tested on Linux; the Keychain store uses it with `LAContext`.
///
/// Thread-safety: behind a lock.
package final class AuthenticationContextCache<Context>: @unchecked Sendable {  // Locked-guarded
    private let window: TimeInterval
    private let make: () -> Context
    private let invalidate: (Context) -> Void
    private let now: NowProvider
    /// The kept context, and when a read with it succeeded (the window starts there; nil: not authenticated yet).
    private let cached = Locked<(context: Context, authenticated: Date?)?>(nil)

    package init(
        window: TimeInterval, now: @escaping NowProvider = systemNow, make: @escaping () -> Context,
        invalidate: @escaping (Context) -> Void
    ) {
        self.window = window
        self.now = now
        self.make = make
        self.invalidate = invalidate
    }

    /// The context for the next protected read: the kept one while its window runs, else a new one.
    package func context() -> Context {
        guard window > 0 else { return make() }
        let time = now()
        var expired: Context?
        let context = cached.withLock { cached -> Context in
            if let current = cached, let authenticated = current.authenticated,
                time >= authenticated, time.timeIntervalSince(authenticated) < window
            {
                return current.context
            }
            expired = cached?.context
            let fresh = make()
            cached = (fresh, nil)
            return fresh
        }
        if let expired { invalidate(expired) }
        return context
    }

    /// A read with the kept context succeeded: the user authenticated, and the window starts now.
    package func readSucceeded() {
        let time = now()
        cached.withLock { cached in
            if let current = cached, current.authenticated == nil { cached = (current.context, time) }
        }
    }

    /// Drops the kept context (the items were deleted — a sign-out —, or a read was cancelled or failed to
    /// authenticate): the next read prompts.
    package func reset() {
        let dropped = cached.withLock { cached -> Context? in
            defer { cached = nil }
            return cached?.context
        }
        if let dropped { invalidate(dropped) }
    }
}
