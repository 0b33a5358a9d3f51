import Foundation
import Testing

@testable import WardenCore

/// The table behind the in-memory one-time stores, driven by random operations from many owners and checked
/// against what it promises, step by step: bounds, duplicates, and — with `remembersEvictions` — that no ID is ever
/// accepted twice while its first acceptance is live (eviction must not reopen a replay of the same proof, which
/// carries the same expiry).
@Suite("OwnerQuotaTable")
struct OwnerQuotaTableTests {
    /// A deterministic generator (SplitMix64), so a failure replays.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomTrafficKeepsEveryPromise(seed: UInt64) {
        var random = SplitMix(state: seed)
        var table = OwnerQuotaTable<Int, Int, Int>(capacity: 64, perOwnerCapacity: 12, remembersEvictions: true)
        let start = Date(timeIntervalSince1970: 1_000_000)
        var now = start
        /// Every accepted ID and when its acceptance expires (the replay property's reference).
        var accepted: [Int: Date] = [:]
        var madeExpiry: [Int: Date] = [:]
        var evictedSomething = false
        for step in 0..<20_000 {
            if random.next() % 10 == 0 { now += Double(random.next() % 5) }
            // Owner 0 floods; owners 1...40 are ordinary.
            let owner = random.next() % 3 == 0 ? 0 : Int(random.next() % 40) + 1
            // IDs belong to one owner (a jti names its key), repeat often (replays); expiries are near now.
            // An ID is a proof: its expiry is fixed when it is made (iat + window), a replay carries the same.
            let id = owner * 10_000 + Int(random.next() % 150)
            let expires = madeExpiry[id] ?? now + 1 + Double(random.next() % 30)
            madeExpiry[id] = expires
            guard expires > now else { continue }
            let result = table.insert(id, owner: owner, expires: expires, value: step, now: now)
            if let previous = accepted[id], previous > now {
                #expect(result != .inserted, "id \(id) accepted twice while live (step \(step))")
            }
            if result == .inserted { accepted[id] = expires }
            #expect(table.count <= 64)
            #expect(table.count(of: owner) <= 12)
            if result == .inserted, table.count == 64 { evictedSomething = true }
        }
        #expect(evictedSomething, "the traffic filled the table")
        #expect(accepted.count > 1000)
    }

    @Test func anOwnerUnderItsFairShareIsNeverEvicted() {
        var table = OwnerQuotaTable<String, Int, Void>(capacity: 20, perOwnerCapacity: 20, remembersEvictions: false)
        let now = Date()
        #expect(table.insert(-1, owner: "quiet", expires: now + 100, value: (), now: now) == .inserted)
        for id in 0..<500 { _ = table.insert(id, owner: "busy-\(id % 4)", expires: now + 100, value: (), now: now) }
        #expect(table.count == 20)
        #expect(table.entry(-1)?.owner == "quiet")
        #expect(table.remove(-1) != nil)
    }

    @Test func removalAndLookupByID() {
        var table = OwnerQuotaTable<String, Int, String>(capacity: 10, perOwnerCapacity: 5, remembersEvictions: false)
        let now = Date()
        for id in [3, 1, 2] { _ = table.insert(id, owner: "a", expires: now + Double(id), value: "v\(id)", now: now) }
        #expect(table.remove(2)?.value == "v2")
        #expect(table.remove(2) == nil)
        #expect(table.count(of: "a") == 2)
        table.dropAllExpired(now: now + 1)
        #expect(table.entry(1) == nil && table.entry(3)?.value == "v3")
        #expect(table.insert(3, owner: "a", expires: now + 9, value: "again", now: now) == .duplicate)
    }
}
