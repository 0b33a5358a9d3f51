import Foundation
import WardenCore
import WardenOAuth

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let components = components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// When and how long to retry: transient failures back off (honouring `Retry-After`), terminal ones never retry.
///
/// - Transient network errors (`timedOut`, `networkConnectionLost`, `dnsLookupFailed`, `cannotConnectToHost`,
///   `notConnectedToInternet`) and 5xx: exponential backoff with full jitter, capped in attempts and total time.
/// - 429 and 503 honour `Retry-After` (seconds or HTTP-date) exactly: never retried before it; a `Retry-After`
///   beyond ``maximumTotalDelay`` (the caller's budget) is ``Decision/rateLimited(retryAfter:)`` at once, which
///   ``AuthorizedClient`` throws as ``SessionError/Code/rateLimited`` with the time.
/// - Other 4xx: never retried. User cancellation: never retried.
/// - Non-idempotent methods (POST, PATCH) are not retried unless the caller opts in.
///
/// ```swift
/// let policy = RetryPolicy(maximumAttempts: 4, baseDelay: .milliseconds(200))
/// ```
public struct RetryPolicy: Sendable {
    /// The most attempts per request, the first included (default 4).
    public var maximumAttempts: Int
    /// The first backoff step, doubled at each further attempt (default 250 ms).
    public var baseDelay: Duration
    /// The cap on one backoff step (default 30 s); a `Retry-After` wait is not capped by it.
    public var maximumDelay: Duration
    /// The most time the waits of one request may add up to (default 60 s): the caller's budget.
    public var maximumTotalDelay: Duration
    /// Whether methods other than GET, HEAD, OPTIONS, PUT and DELETE are retried (default `false`).
    public var retryNonIdempotent: Bool
    /// The share of each backoff step that is fixed: 0 is "full jitter" (a delay anywhere in [0, step), the API
    /// default), 0.5 is "equal jitter" (never sooner than half a step, what a session's refresh backoff uses).
    public var jitterFloor: Double
    /// Returns a value in [0, 1); injected for tests.
    let jitter: @Sendable () -> Double

    /// A policy; by default 4 attempts, a 250 ms base step capped at 30 s, 60 s of waiting in all and full
    /// jitter. `jitterFloor` is clamped to [0, 1].
    public init(
        maximumAttempts: Int = 4, baseDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(30),
        maximumTotalDelay: Duration = .seconds(60), retryNonIdempotent: Bool = false, jitterFloor: Double = 0,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.jitterFloor = min(max(jitterFloor, 0), 1)
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumTotalDelay = maximumTotalDelay
        self.retryNonIdempotent = retryNonIdempotent
        self.jitter = jitter
    }

    /// What to do after a failure.
    public enum Decision: Sendable, Equatable {
        /// Try again after waiting this long.
        case retry(after: Duration)
        /// Do not retry: the attempt's result stands.
        case giveUp
        /// The server's `Retry-After` is beyond what this policy may wait (``maximumTotalDelay``, the caller's
        /// budget) or than its attempts allow: fail now, saying when the server allows the next try.
        case rateLimited(retryAfter: Duration)
    }

    /// The outcome of one attempt, as the policy sees it.
    public enum Outcome: Sendable {
        /// The request failed in the transport; only timeouts and connectivity errors are retried.
        case transport(TransportError)
        /// The server answered with this HTTP status and, when it sent one, its `Retry-After` in seconds.
        case status(Int, retryAfter: TimeInterval?)
        /// The request was cancelled: never retried.
        case cancelled
    }

    static let idempotent: Set<String> = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]

    /// Decides for attempt number `attempt` (1-based) of `method`, given the time already spent waiting.
    public func decide(_ outcome: Outcome, attempt: Int, method: String, waitedSoFar: Duration) -> Decision {
        // 429/503 with Retry-After: never retry before it (RFC 9110 §10.2.3); the wait is exact, not capped or
        // jittered, and one that does not fit the budget fails at once with the time.
        if case .status(let status, let retryAfter?) = outcome, status == 429 || status == 503 {
            let delay = Duration.milliseconds(Int64((max(0, retryAfter) * 1000).rounded(.up)))
            guard attempt < maximumAttempts, retryNonIdempotent || Self.idempotent.contains(method.uppercased()),
                waitedSoFar + delay <= maximumTotalDelay
            else { return .rateLimited(retryAfter: delay) }
            return .retry(after: delay)
        }
        guard attempt < maximumAttempts else { return .giveUp }
        guard retryNonIdempotent || Self.idempotent.contains(method.uppercased()) else { return .giveUp }
        let delay: Duration
        switch outcome {
        case .cancelled:
            return .giveUp
        case .transport(let error):
            switch error.code {
            case .timedOut, .connectionLost, .dnsLookupFailed, .cannotConnect, .notConnected: delay = backoff(attempt)
            default: return .giveUp
            }
        case .status(let status, _):
            switch status {
            case 429, 503:
                delay = backoff(attempt)  // no Retry-After (with one, handled above)
            case 500, 502, 504: delay = backoff(attempt)
            default: return .giveUp
            }
        }
        guard waitedSoFar + delay <= maximumTotalDelay else { return .giveUp }
        return .retry(after: delay)
    }

    /// The one backoff of Warden (API retries and the session's refresh backoff): the step is
    /// min(cap, base × 2^(attempt-1)), and the delay is uniform in [floor × step, step), ``jitterFloor`` being the
    /// fixed share.
    func backoff(_ attempt: Int) -> Duration {
        let exponent = min(max(attempt, 1) - 1, 20)
        let ceiling = min(baseDelay * (1 << exponent), maximumDelay)
        let share = jitterFloor + (1 - jitterFloor) * min(max(jitter(), 0), 1)
        return .milliseconds(Int64(ceiling.seconds * share * 1000))
    }
}

extension SessionError {
    /// The failure of a request whose server asked to wait `delay`, longer than the policy may (the policy's
    /// `rateLimited` decision), with the time it allows the next try.
    static func rateLimited(status: Int, after delay: Duration, now: Date) -> SessionError {
        let components = delay.components
        let until = now.addingTimeInterval(Double(components.seconds) + Double(components.attoseconds) / 1e18)
        return SessionError(
            .rateLimited, "HTTP \(status): the server allows the next try at \(until)", retryAt: until)
    }
}

extension RetryPolicy {
    /// The retry loop the session's HTTP clients share (``AuthorizedClient`` and
    /// `URLSession.data(for:authorizedBy:retryPolicy:)`): `send` runs until it answers with a status other than
    /// 429/500/502/503/504, or fails otherwise than transiently, or the policy gives up; a `Retry-After` the policy
    /// may not wait is thrown as ``SessionError/Code/rateLimited``.
    ///
    /// - Parameters:
    ///   - status: the response's status and `Retry-After` header (nil: not an HTTP response, returned as is).
    ///   - transportError: the transport failure an error is, or nil for one that is never retried.
    func run<Response>(
        method: String, now: () -> Date, sleep: (Duration) async throws -> Void, send: () async throws -> Response,
        status: (Response) -> (code: Int, retryAfter: String?)?, transportError: (any Error) -> TransportError?
    ) async throws -> Response {
        var attempt = 1
        var waited = Duration.zero
        while true {
            let response: Response
            do {
                response = try await send()
            } catch {
                guard let failure = transportError(error),
                    case .retry(let delay) = decide(
                        failure.code == .cancelled ? .cancelled : .transport(failure), attempt: attempt, method: method,
                        waitedSoFar: waited)
                else { throw error }
                try await sleep(delay)
                waited += delay
                attempt += 1
                continue
            }
            guard let (code, retryAfter) = status(response), [429, 500, 502, 503, 504].contains(code) else {
                return response
            }
            let outcome = Outcome.status(code, retryAfter: RetryAfter.seconds(retryAfter, now: now()))
            switch decide(outcome, attempt: attempt, method: method, waitedSoFar: waited) {
            case .retry(let delay):
                try await sleep(delay)
                waited += delay
                attempt += 1
            case .rateLimited(let delay): throw SessionError.rateLimited(status: code, after: delay, now: now())
            case .giveUp: return response
            }
        }
    }
}
