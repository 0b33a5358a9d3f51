/// The pure coordination behind ``AuthSession``'s single-flight refresh: which caller starts a refresh, who waits,
/// whether a finished refresh still applies, and what happens to its waiters. No I/O, no clocks; the actor performs
/// the actions it returns (the shape of async-http-client's `Transaction.StateMachine`).
///
/// Sign-out bumps a **generation**. A refresh carries the generation it started in; when it finishes in an older
/// one its result is discarded (never persisted, never handed out) and its waiters are told the session is signed
/// out.
struct RefreshStateMachine: Equatable {
    enum State: Equatable {
        case idle
        case refreshing(generation: Int, waiters: Int)
    }

    enum Action: Equatable {
        /// Perform the refresh, tagged with this generation.
        case startRefresh(generation: Int)
        /// Suspend until the running refresh finishes.
        case wait
        /// The result applies: persist it, then resume this many waiters with it.
        case deliver(waiters: Int)
        /// Signed out meanwhile: drop the result and resume the waiters with "signed out".
        case discard(waiters: Int)
    }

    private(set) var state: State = .idle
    private(set) var generation = 0

    mutating func refreshNeeded() -> Action {
        switch state {
        case .idle:
            state = .refreshing(generation: generation, waiters: 0)
            return .startRefresh(generation: generation)
        case .refreshing(let started, let waiters):
            state = .refreshing(generation: started, waiters: waiters + 1)
            return .wait
        }
    }

    /// Whether a refresh started in `generation` may still persist and hand out its result.
    func isCurrent(_ generation: Int) -> Bool { generation == self.generation }

    /// The refresh started in `generation` finished (successfully or not).
    mutating func refreshFinished(generation finished: Int) -> Action {
        guard case .refreshing(let started, let waiters) = state, started == finished else {
            return .discard(waiters: 0)
        }
        state = .idle
        return isCurrent(finished) ? .deliver(waiters: waiters) : .discard(waiters: waiters)
    }

    /// The user signed out (or the grant was rejected): any refresh in flight is now stale.
    mutating func signedOut() {
        generation += 1
    }
}
