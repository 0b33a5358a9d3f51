import Foundation

/// A value protected by a lock, for the few places where an actor would force `async` on a synchronous API.
///
/// Thread-safety: every access to `value` happens inside `withLock` under an `NSLock`; this is why the type can
/// be `@unchecked Sendable`. (Synchronization's `Mutex` needs iOS 18 / macOS 15, newer than our deployment
/// targets.)
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the box with an initial value.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Locked where Value: Sendable {
    /// A copy of the current value.
    package var current: Value { withLock { $0 } }
}
