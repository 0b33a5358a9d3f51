import Foundation
import WardenCore

/// Where a resource server remembers the `jti`s it accepted, so a replayed proof is refused (RFC 9449 §11.1).
/// Implement it over Redis or SQL for several instances; ``InMemoryDPoPReplayCache`` serves one process.
public protocol DPoPReplayCache: Sendable {
    /// Records `jti` (of the key `thumbprint`) until `expires`; returns false when it was already recorded.
    func insert(_ jti: String, thumbprint: String, expires: Date, now: Date) async -> Bool
}

/// An in-memory replay cache with a time-to-live per entry and a size bound: when full, expired entries are
/// dropped first, and if none has expired new proofs are refused rather than old entries forgotten (forgetting
/// would reopen the replay window).
///
/// Thread-safety: an actor.
public actor InMemoryDPoPReplayCache: DPoPReplayCache {
    private var entries: [String: Date] = [:]
    public let capacity: Int

    public init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }

    public var count: Int { entries.count }

    public func insert(_ jti: String, thumbprint: String, expires: Date, now: Date) -> Bool {
        let key = thumbprint + " " + jti
        if let existing = entries[key], existing > now { return false }
        if entries.count >= capacity { entries = entries.filter { $0.value > now } }
        guard entries.count < capacity else { return false }
        entries[key] = expires
        return true
    }
}
