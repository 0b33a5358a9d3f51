import Foundation
import WardenCore

/// One `ASAuthorizationController` request at a time, each run tagged: the portable core of
/// `AppleAuthorizationCoordinator` (WardenApple), tested on Linux.
///
/// - A pending **AutoFill** request (``AppleAuthorizationMode/autoFill``) does not block the next request: it is ended
///   (its caller gets ``AppleAuthorizationError/Code/cancelled``, which AutoFill surfaces as nil), its controller is
///   cancelled, and the new request starts once the cancelled one reported its end — or after `drainTimeout`, should
///   it never report. The system refuses a sheet while an AutoFill request is still live. Any other running request
///   refuses a second one with ``AppleAuthorizationError/Code/alreadyRunning``.
/// - ``finish(_:with:)`` takes the run a delegate callback belongs to: a callback of a cancelled or replaced run
///   never resolves the current one.
/// - Cancelling the calling task ends its run with ``AppleAuthorizationError/Code/cancelled`` and asks `cancel` to
///   stop that run's controller.
///
/// Thread-safety: all state is behind a lock; ``finish(_:with:)`` may be called from any thread.
package final class AuthorizationRequestSlot<Value: Sendable>: Sendable {
    /// Identifies one run.
    package typealias Run = UInt64

    private enum Phase {
        case pending
        case waiting(CheckedContinuation<Value, any Error>)
        /// Resolved before its caller waited (a synchronous completion, or replaced before it started).
        case early(Result<Value, any Error>)
    }

    private struct Entry {
        let mode: AppleAuthorizationMode
        var phase = Phase.pending
        var started = false
    }

    private struct State {
        var next: Run = 0
        var current: Run?
        var runs: [Run: Entry] = [:]
        /// Replaced runs whose controller has not reported its end yet.
        var draining: Set<Run> = []
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())
    private let drainTimeout: UInt64
    private let onAbandoned: @Sendable ([Run]) -> Void

    /// - Parameters:
    ///   - drainTimeout: how long a new request waits for a replaced AutoFill request to report its end.
    ///   - onAbandoned: the runs whose controllers never reported before the drain timed out: whatever the caller keeps
    ///     for them (the coordinator's controller entries) can go, since their report will never come.
    package init(drainTimeout: TimeInterval = 2, onAbandoned: @escaping @Sendable ([Run]) -> Void = { _ in }) {
        self.drainTimeout = UInt64(max(drainTimeout, 0) * 1e9)
        self.onAbandoned = onAbandoned
    }

    /// Whether a request is running.
    package var isRunning: Bool { state.withLock { $0.current != nil } }

    /// Runs one request: `start` presents it (on the caller's actor) and must arrange for ``finish(_:with:)`` with
    /// its run; `cancel` stops the controller of a run (called from any thread) when its task is cancelled or an
    /// AutoFill run is replaced.
    package func perform(
        isolation: isolated (any Actor)? = #isolation,
        mode: AppleAuthorizationMode,
        start: (Run) throws -> Void,
        cancel: @escaping @Sendable (Run) -> Void
    ) async throws -> Value {
        // An already-cancelled caller never takes the slot (nor ends a live AutoFill request).
        if Task.isCancelled { throw AppleAuthorizationError(.cancelled, "the request was cancelled before it started") }
        var replaced: (run: Run, continuation: CheckedContinuation<Value, any Error>?, live: Bool)?
        let claimed = state.withLock { state -> Run? in
            if let current = state.current, let entry = state.runs[current] {
                guard entry.mode == .autoFill else { return nil }
                state.current = nil
                // Its controller is live unless it already reported (an outcome recorded, not yet collected).
                var live = entry.started
                if case .early = entry.phase { live = false }
                let continuation = Self.resolve(
                    current, .failure(AppleAuthorizationError(.cancelled, "replaced by a newer request")), in: &state)
                if live { state.draining.insert(current) }
                replaced = (current, continuation, live)
            }
            state.next += 1
            state.runs[state.next] = Entry(mode: mode)
            state.current = state.next
            return state.next
        }
        guard let run = claimed else {
            throw AppleAuthorizationError(.alreadyRunning, "an authorization request is already showing")
        }
        if let replaced {
            replaced.continuation?.resume(
                throwing: AppleAuthorizationError(.cancelled, "replaced by a newer request"))
            if replaced.live { cancel(replaced.run) }
        }
        await awaitDrain()

        // Replaced or cancelled while waiting: report that, never present.
        let proceed = state.withLock { state -> Result<Value, any Error>? in
            guard let entry = state.runs[run] else { return .failure(AppleAuthorizationError(.cancelled)) }
            if case .early(let result) = entry.phase {
                state.runs[run] = nil
                if state.current == run { state.current = nil }
                return result
            }
            state.runs[run]?.started = true
            return nil
        }
        if let proceed { return try proceed.get() }
        if Task.isCancelled {
            end(run)
            throw AppleAuthorizationError(.cancelled, "the request was cancelled before it started")
        }
        do {
            try start(run)
        } catch {
            end(run)
            throw error
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let early = state.withLock { state -> Result<Value, any Error>? in
                    guard let entry = state.runs[run] else {
                        return .failure(AppleAuthorizationError(.cancelled))
                    }
                    if case .early(let result) = entry.phase {
                        state.runs[run] = nil
                        if state.current == run { state.current = nil }
                        return result
                    }
                    state.runs[run]?.phase = .waiting(continuation)
                    return nil
                }
                if let early { continuation.resume(with: early) }
            }
        } onCancel: {
            let ended = state.withLock { state -> CheckedContinuation<Value, any Error>?? in
                guard let entry = state.runs[run] else { return nil }
                if case .early = entry.phase { return nil }  // it already ended
                // A cancelled AutoFill controller is still live until it reports: the next request waits for it.
                if entry.mode == .autoFill, entry.started { state.draining.insert(run) }
                return .some(
                    Self.resolve(
                        run, .failure(AppleAuthorizationError(.cancelled, "the task was cancelled")), in: &state))
            }
            guard let ended else { return }
            ended?.resume(throwing: AppleAuthorizationError(.cancelled, "the task was cancelled"))
            cancel(run)
        }
    }

    /// Delivers the outcome of `run`; the first one counts, and one of a run that already ended is dropped (it only
    /// tells that a replaced request's controller has finished).
    package func finish(_ run: Run, with result: Result<Value, any Error>) {
        let (continuation, waiters) = state.withLock {
            state -> (CheckedContinuation<Value, any Error>?, [CheckedContinuation<Void, Never>]) in
            var waiters: [CheckedContinuation<Void, Never>] = []
            if state.draining.remove(run) != nil, state.draining.isEmpty {
                waiters = state.drainWaiters
                state.drainWaiters = []
            }
            return (Self.resolve(run, result, in: &state), waiters)
        }
        continuation?.resume(with: result)
        for waiter in waiters { waiter.resume() }
    }

    /// Resolves a run still open: returns its continuation to resume (outside the lock), or records the result for
    /// a run whose caller is not waiting yet.
    private static func resolve(_ run: Run, _ result: Result<Value, any Error>, in state: inout State)
        -> CheckedContinuation<Value, any Error>?
    {
        guard let entry = state.runs[run] else { return nil }
        switch entry.phase {
        case .pending:
            state.runs[run]?.phase = .early(result)
            return nil
        case .waiting(let continuation):
            state.runs[run] = nil
            if state.current == run { state.current = nil }
            return continuation
        case .early:
            return nil
        }
    }

    private func end(_ run: Run) {
        state.withLock { state in
            state.runs[run] = nil
            if state.current == run { state.current = nil }
        }
    }

    /// Waits until every replaced request reported its end, at most `drainTimeout`.
    private func awaitDrain() async {
        guard state.withLock({ !$0.draining.isEmpty }) else { return }
        let timeout = drainTimeout
        let timer = Task.detached { [self] in
            try? await Task.sleep(nanoseconds: timeout)
            guard !Task.isCancelled else { return }
            let (waiters, abandoned) = state.withLock { state -> ([CheckedContinuation<Void, Never>], [Run]) in
                let abandoned = state.draining.sorted()
                state.draining.removeAll()
                defer { state.drainWaiters = [] }
                return (state.drainWaiters, abandoned)
            }
            if !abandoned.isEmpty { onAbandoned(abandoned) }
            for waiter in waiters { waiter.resume() }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.draining.isEmpty { return true }
                state.drainWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
        timer.cancel()
    }
}
