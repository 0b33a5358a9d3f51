/// The single-flight coordination of refreshes as a pure state machine (no I/O), driven by ``AuthSession``.
///
/// Any number of callers that need a refresh while one is running wait for it and all receive its result;
/// exactly one refresh runs at a time.
struct RefreshStateMachine: Equatable {
    enum State: Equatable {
        case idle
        case refreshing(waiters: Int)
    }

    enum Action: Equatable {
        /// Start the refresh now (this caller runs it).
        case startRefresh
        /// Wait for the refresh in flight.
        case wait
        /// Resume every waiter with the shared outcome.
        case resumeWaiters(count: Int)
    }

    private(set) var state: State = .idle

    /// A caller needs fresh tokens.
    mutating func refreshNeeded() -> Action {
        switch state {
        case .idle:
            state = .refreshing(waiters: 0)
            return .startRefresh
        case .refreshing(let waiters):
            state = .refreshing(waiters: waiters + 1)
            return .wait
        }
    }

    /// The refresh finished (success or failure, already persisted / classified).
    mutating func refreshFinished() -> Action {
        switch state {
        case .idle:
            return .resumeWaiters(count: 0)
        case .refreshing(let waiters):
            state = .idle
            return .resumeWaiters(count: waiters)
        }
    }
}
