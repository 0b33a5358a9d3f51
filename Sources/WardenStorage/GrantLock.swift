import Foundation
import WardenCore

/// Serialises the refreshes of one stored grant among everyone who holds it: the app, its share, widget and
/// notification extensions, a second `AuthClient` in the same process, a second `warden` process.
///
/// Providers rotate refresh tokens and revoke the whole grant when an old one is presented again (RFC 9700
/// §4.14.2). Two holders that each refresh from what they hold in memory therefore sign every holder out. The
/// session takes this lock, re-reads the store, adopts tokens another holder already stored, and only then spends
/// the stored refresh token; the lock lives with the store (``CredentialStore/grantLock``) because every holder of
/// the store must see the same one.
///
/// ```swift
/// let lease = try await store.grantLock.acquire(service: "com.example.tokens", account: "alice")
/// defer { Task { await lease.release() } }
/// ```
///
/// Thread-safety: implementations are `Sendable` and safe to call concurrently.
public protocol GrantLock: Sendable {
    /// Waits until this caller holds the grant of `service`/`account`, or throws
    /// ``StorageErrorDomain/Code/lockTimeout`` (transient) when a live holder does not finish in time.
    func acquire(service: String, account: String) async throws(StorageError) -> GrantLease
}

/// A held ``GrantLock``; ``release()`` it on every path (a crashed holder's lease runs out by itself).
public struct GrantLease: Sendable {
    private let onRelease: @Sendable () async -> Void
    private let checkHeld: @Sendable () async -> Bool

    /// A lease whose release runs `release` (implementations make a second call harmless) and that answers
    /// `isHeld` (a lease that can run out, as ``FileGrantLock``'s, says when it has).
    public init(
        release: @escaping @Sendable () async -> Void, isHeld: @escaping @Sendable () async -> Bool = { true }
    ) {
        onRelease = release
        checkHeld = isHeld
    }

    /// Gives the grant back to the next holder.
    public func release() async { await onRelease() }

    /// Whether this holder still holds the grant: false once a lease ran out (the holder was suspended past it)
    /// and another holder may have taken over. Checked before a refresh token is spent.
    public func isHeld() async -> Bool { await checkHeld() }
}

/// The in-process ``GrantLock``: holders in one process (two `AuthClient`s, a widget timeline and the app in a
/// simulator run) wait for each other in arrival order. The default of stores that have no shared directory to
/// hold a cross-process lock.
///
/// Thread-safety: an actor.
public actor ProcessGrantLock: GrantLock {
    /// The lock of this process.
    public static let shared = ProcessGrantLock()

    private var held: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// A separate lock (tests use one per case).
    public init() {}

    public func acquire(service: String, account: String) async throws(StorageError) -> GrantLease {
        let key = service + "\u{0}" + account
        if held.contains(key) {
            await withCheckedContinuation { waiting[key, default: []].append($0) }
        } else {
            held.insert(key)
        }
        let released = Released()
        return GrantLease { [self] in
            guard released.take() else { return }
            await self.release(key)
        }
    }

    private func release(_ key: String) {
        if var queue = waiting[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[key] = queue.isEmpty ? nil : queue
            next.resume()  // ownership passes straight to the next waiter: `held` stays set
        } else {
            held.remove(key)
        }
    }
}

/// Makes a lease's release happen once however often it is called.
final class Released: Sendable {
    private let done = Locked(false)
    /// True the first time only.
    func take() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
