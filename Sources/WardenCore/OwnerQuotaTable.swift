import Foundation

/// The bounded, expiring table behind the in-memory one-time stores (DPoP `jti`s, WebAuthn challenges): entries
/// belong to an owner (a proof key, a session), expire, and are bounded twice — per owner and in total — so that one
/// owner filling the table degrades only that owner.
///
/// - Every entry expires; expired entries are dropped lazily, an owner's at each of its inserts, everyone's when the
///   table is full (at most once until the earliest remaining expiry passes: a full table is not rescanned per insert).
/// - An owner at ``perOwnerCapacity`` loses its own soonest-expiring entry to make room.
/// - A full table (after dropping what expired) takes the room from the owner holding the most entries: an owner
///   that stays under its fair share (``capacity`` / owners) is never the one evicted.
/// - With `remembersEvictions`, an owner's evicted entry raises that owner's *horizon*: later inserts for it that
///   expire no later than the horizon are refused. A replay cache uses this so eviction never reopens a replay: the
///   busy owner's acceptance window shrinks instead.
///
/// Cost: O(1) amortised per insert and per lookup, O(entries of one owner) to remove one entry by ID.
package struct OwnerQuotaTable<Owner: Hashable, ID: Hashable, Value> {
    package let capacity: Int
    package let perOwnerCapacity: Int
    package let remembersEvictions: Bool

    private struct Slot {
        /// Entries by expiry, soonest first (inserts arrive nearly in order: appending is the common case).
        var order: [(expires: Date, id: ID)] = []
        /// Entries before `head` in `order` are gone (amortised removal from the front).
        var head = 0
        var horizon: Date?
        var count: Int { order.count - head }

        mutating func compact() {
            if head > 32, head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
        }
    }

    private var entries: [ID: (owner: Owner, expires: Date, value: Value)] = [:]
    private var slots: [Owner: Slot] = [:]
    /// Owners by how many entries they hold (for finding the heaviest in O(1)).
    private var ownersByCount: [Int: Set<Owner>] = [:]
    private var heaviestCount = 0
    /// No entry expires, and no horizon passes, before this (a lower bound, exact after a full purge).
    private var earliestExpiry = Date.distantFuture

    /// What ``insert(_:owner:expires:value:now:)`` did.
    package enum InsertResult: Equatable {
        case inserted
        /// An entry with this ID is present and has not expired.
        case duplicate
        /// The owner's horizon is past this entry's expiry (see `remembersEvictions`).
        case beyondHorizon
    }

    package init(capacity: Int, perOwnerCapacity: Int, remembersEvictions: Bool) {
        self.capacity = max(1, capacity)
        self.perOwnerCapacity = max(1, min(perOwnerCapacity, capacity))
        self.remembersEvictions = remembersEvictions
    }

    /// Live and not-yet-dropped entries.
    package var count: Int { entries.count }

    /// Entries `owner` holds.
    package func count(of owner: Owner) -> Int { slots[owner]?.count ?? 0 }

    /// The entry with `id`, whether or not it has expired.
    package func entry(_ id: ID) -> (owner: Owner, expires: Date, value: Value)? { entries[id] }

    package mutating func insert(_ id: ID, owner: Owner, expires: Date, value: Value, now: Date) -> InsertResult {
        if let existing = entries[id] {
            if existing.expires > now { return .duplicate }
            remove(id)
        }
        dropExpired(of: owner, now: now)
        if let horizon = slots[owner]?.horizon, expires <= horizon { return .beyondHorizon }
        if count(of: owner) >= perOwnerCapacity {
            if !makesRoom(owner, for: expires) { return .beyondHorizon }
            evictSoonest(of: owner)
        }
        if entries.count >= capacity {
            dropAllExpired(now: now)
            if entries.count >= capacity, heaviestCount > 0 {
                // An owner among the heaviest pays for its own entry.
                let own = count(of: owner) == heaviestCount
                guard let victim = own ? owner : ownersByCount[heaviestCount]?.first else { return .beyondHorizon }
                if own, !makesRoom(owner, for: expires) { return .beyondHorizon }
                evictSoonest(of: victim)
            }
        }
        // Taken out of the dictionary while it changes: mutating a copy the dictionary still shares would copy the
        // owner's whole array on every insert (O(entries) each, quadratic for a busy owner).
        var slot = slots.removeValue(forKey: owner) ?? Slot()
        let before = slot.count
        if let last = slot.order.last, slot.count > 0, last.expires > expires {
            let index = slot.order[slot.head...].partitioningIndex { $0.expires > expires }
            slot.order.insert((expires, id), at: index)
        } else {
            slot.order.append((expires, id))
        }
        slots[owner] = slot
        entries[id] = (owner, expires, value)
        moved(owner, from: before, to: before + 1)
        earliestExpiry = min(earliestExpiry, expires)
        return .inserted
    }

    /// Removes and returns the entry with `id` (expired or not).
    @discardableResult
    package mutating func remove(_ id: ID) -> (owner: Owner, expires: Date, value: Value)? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        guard var slot = slots.removeValue(forKey: entry.owner) else { return entry }
        let before = slot.count
        if let index = slot.order[slot.head...].firstIndex(where: { $0.id == id }) {
            if index == slot.head { slot.head += 1 } else { slot.order.remove(at: index) }
        }
        slot.compact()
        store(slot, for: entry.owner, before: before)
        return entry
    }

    /// Drops every expired entry (and every horizon that has passed).
    package mutating func dropAllExpired(now: Date) {
        guard now >= earliestExpiry else { return }
        var earliest = Date.distantFuture
        for owner in Array(slots.keys) {
            dropExpired(of: owner, now: now)
            guard let slot = slots[owner] else { continue }
            if slot.count > 0 { earliest = min(earliest, slot.order[slot.head].expires) }
            if let horizon = slot.horizon { earliest = min(earliest, horizon) }
        }
        earliestExpiry = earliest
    }

    private mutating func dropExpired(of owner: Owner, now: Date) {
        guard var slot = slots.removeValue(forKey: owner) else { return }
        let before = slot.count
        while slot.head < slot.order.count, slot.order[slot.head].expires <= now {
            entries[slot.order[slot.head].id] = nil
            slot.head += 1
        }
        if let horizon = slot.horizon, horizon <= now { slot.horizon = nil }
        slot.compact()
        store(slot, for: owner, before: before)
    }

    /// Whether evicting `owner`'s soonest entry leaves room for one expiring at `expires`: with
    /// `remembersEvictions`, an entry no newer than the evicted one would be refused by the raised horizon.
    private func makesRoom(_ owner: Owner, for expires: Date) -> Bool {
        guard remembersEvictions, let slot = slots[owner], slot.count > 0 else { return true }
        return expires > slot.order[slot.head].expires
    }

    private mutating func evictSoonest(of owner: Owner) {
        guard var slot = slots.removeValue(forKey: owner) else { return }
        guard slot.count > 0 else {
            slots[owner] = slot
            return
        }
        let before = slot.count
        let victim = slot.order[slot.head]
        slot.head += 1
        entries[victim.id] = nil
        if remembersEvictions { slot.horizon = max(slot.horizon ?? victim.expires, victim.expires) }
        slot.compact()
        store(slot, for: owner, before: before)
    }

    private mutating func store(_ slot: Slot, for owner: Owner, before: Int) {
        if slot.count == 0 && slot.horizon == nil {
            slots[owner] = nil
        } else {
            slots[owner] = slot
        }
        moved(owner, from: before, to: slot.count)
    }

    private mutating func moved(_ owner: Owner, from old: Int, to new: Int) {
        guard old != new else { return }
        if old > 0 {
            ownersByCount[old]?.remove(owner)
            if ownersByCount[old]?.isEmpty == true { ownersByCount[old] = nil }
        }
        if new > 0 { ownersByCount[new, default: []].insert(owner) }
        if new > heaviestCount { heaviestCount = new }
        while heaviestCount > 0, ownersByCount[heaviestCount] == nil { heaviestCount -= 1 }
    }
}

extension Collection {
    /// The first index whose element satisfies `predicate`, for a collection partitioned by it (binary search).
    fileprivate func partitioningIndex(where predicate: (Element) -> Bool) -> Index {
        var low = startIndex
        var length = count
        while length > 0 {
            let half = length / 2
            let middle = index(low, offsetBy: half)
            if predicate(self[middle]) {
                length = half
            } else {
                low = index(after: middle)
                length -= half + 1
            }
        }
        return low
    }
}
