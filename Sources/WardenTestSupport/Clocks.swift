import Foundation
import WardenCore

/// A `Clock` whose sleeps are recorded and return at once: backoff and `Retry-After` delays are observed exactly,
/// never waited. Time does not pass (`now` stays at its start).
package final class RecordingClock: Clock, @unchecked Sendable {  // state in Locked
    private let sleeps = Locked<[Duration]>([])
    private let base = ContinuousClock().now

    package init() {}

    package var now: ContinuousClock.Instant { base }
    package var minimumResolution: Duration { .zero }
    package func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        sleeps.withLock { $0.append(deadline - base) }
    }

    /// Every sleep asked for, in order.
    package var slept: [Duration] { sleeps.current }
}

/// A `Clock` whose sleeps return at once while its `now` is real time: a wait budget is spent without waiting.
package struct ImmediateClock: Clock {
    package init() {}
    package var now: ContinuousClock.Instant { ContinuousClock().now }
    package var minimumResolution: Duration { .zero }
    package func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {}
}

/// A wall clock for `now:` seams that stands still until a test moves it (token expiry, `iat`, backoff windows).
package final class ManualDate: Sendable {
    /// The current instant.
    package let date: Locked<Date>

    /// Starts at `start` (by default 2027-01-15T08:00:00Z, a fixed instant, so results do not depend on the day).
    package init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { date = Locked(start) }

    /// The clock as a ``NowProvider``.
    package var now: NowProvider { { [date] in date.current } }
    /// Moves the clock `seconds` forward (or back, when negative).
    package func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
}

/// A `Clock` whose sleeps move a ``ManualDate`` forward by their length and return at once: polling and backoff run
/// in virtual time that a client and a local provider share (both read the same `ManualDate`).
package final class AdvancingClock: Clock, @unchecked Sendable {  // state in Locked
    private let date: ManualDate
    private let base = ContinuousClock().now
    private let sleeps = Locked<[Duration]>([])

    /// A clock that advances `date`.
    package init(_ date: ManualDate) { self.date = date }

    package var now: ContinuousClock.Instant { base }
    package var minimumResolution: Duration { .zero }
    package func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let duration = deadline - base
        sleeps.withLock { $0.append(duration) }
        let (seconds, attoseconds) = duration.components
        date.advance(TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
    }

    /// Every sleep asked for, in order.
    package var slept: [Duration] { sleeps.current }
}
