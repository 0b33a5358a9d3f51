import Foundation
import WardenCore

/// Where a resource server remembers the `jti`s it accepted, so a replayed proof is refused (RFC 9449 §11.1).
/// Implement it over Redis or SQL for several instances; ``InMemoryDPoPReplayCache`` serves one process.
///
/// The verifier calls it last, after every other check passed: a refused proof never takes room.
public protocol DPoPReplayCache: Sendable {
    /// Records `jti` (of the key `thumbprint`) until `expires`; returns false when it was already recorded, or
    /// when the store can no longer vouch that a proof this old from this key is fresh.
    ///
    /// - Throws: when the store cannot answer (unreachable, timed out, an error reply). The verifier then refuses
    ///   the proof with ``DPoPErrorDomain/Code/replayCacheUnavailable`` — never "not seen before".
    func insert(_ jti: String, thumbprint: String, expires: Date, now: Date) async throws -> Bool
}

/// An in-memory replay cache for one process.
///
/// Each entry lives for the proof's acceptance window (the verifier passes `iat + maxAge + leeway`), so size
/// ``capacity`` as the peak proof rate times that window (``init(peakProofsPerSecond:acceptanceWindow:perKeyCapacity:)``).
/// The bounds degrade one key at a time, never everyone:
/// - a key holding ``perKeyCapacity`` live entries, or the key holding the most when the whole cache is full,
///   forgets its oldest entry and from then on refuses its own proofs that are no newer than it (its acceptance
///   window shrinks): forgetting never reopens a replay;
/// - a key that stays under its fair share of the cache is never refused for room.
///
/// Thread-safety: an actor.
public actor InMemoryDPoPReplayCache: DPoPReplayCache {
    private struct Entry: Hashable {
        let thumbprint: String
        let jti: String
    }
    private var table: OwnerQuotaTable<String, Entry, Void>
    /// Live entries kept at most.
    public nonisolated let capacity: Int
    /// Live entries one key may hold.
    public nonisolated let perKeyCapacity: Int

    /// - Parameters:
    ///   - capacity: live entries kept at most (about 100 bytes each).
    ///   - perKeyCapacity: live entries one proof key may hold (a client's requests per acceptance window).
    public init(capacity: Int = 100_000, perKeyCapacity: Int = 10_000) {
        table = OwnerQuotaTable(capacity: capacity, perOwnerCapacity: perKeyCapacity, remembersEvictions: true)
        self.capacity = table.capacity
        self.perKeyCapacity = table.perOwnerCapacity
    }

    /// A cache sized for a peak proof rate over the verifier's acceptance window (`maxAge + leeway`).
    public init(peakProofsPerSecond: Int, acceptanceWindow: TimeInterval = 305, perKeyCapacity: Int = 10_000) {
        let capacity = Double(max(1, peakProofsPerSecond)) * max(1, acceptanceWindow)
        self.init(capacity: Int(min(capacity, Double(Int.max / 2))), perKeyCapacity: perKeyCapacity)
    }

    /// Entries held (live, or expired and not yet dropped).
    public var count: Int { table.count }

    /// Entries held for one key.
    public func count(forKey thumbprint: String) -> Int { table.count(of: thumbprint) }

    public func insert(_ jti: String, thumbprint: String, expires: Date, now: Date) -> Bool {
        guard expires > now else { return false }
        let entry = Entry(thumbprint: thumbprint, jti: jti)
        return table.insert(entry, owner: thumbprint, expires: expires, value: (), now: now) == .inserted
    }
}
