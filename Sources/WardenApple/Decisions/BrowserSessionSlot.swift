import Foundation
import WardenCore
import WardenOAuth

/// One system-browser sign-in at a time, resumed exactly once: the portable core of the Apple
/// `ASWebAuthenticationSession` agent, tested on Linux.
///
/// AuthenticationServices calls its completion handler on a queue of its choosing (a background queue on macOS),
/// may call it after the task was cancelled, and a misbehaving caller may start a second sheet while the first is
/// showing. The slot makes those cases safe:
/// - ``run(isolation:start:cancel:)`` refuses a second concurrent call with ``OAuthError/Code/signInInProgress``;
/// - the completion it hands to `start` is `@Sendable`, callable from any thread, and only the first of
///   completion / cancellation / `start` throwing resumes the caller;
/// - cancelling the calling task resumes at once with ``OAuthError/Code/cancelled`` and calls `cancel` (which
///   dismisses the sheet);
/// - each run is tagged: the completion handed to `start` belongs to that run only, so a late `canceledLogin` of a
///   cancelled session is dropped instead of ending the next one (a cancelled sheet reports its end after the
///   caller has moved on). `cancel` must likewise dismiss the sheet *its* `start` presented, not whichever is
///   current when it runs.
///
/// ```swift
/// let slot = BrowserSessionSlot()
/// let url = try await slot.run(start: { complete in
///     session = ASWebAuthenticationSession(url: url, callback: callback) { url, error in
///         complete(BrowserSessionSlot.outcome(url: url, errorCode: (error as? ASWebAuthenticationSessionError)?.code.rawValue))
///     }
///     guard session.start() else { throw OAuthError(.presentationUnavailable) }
/// }, cancel: { Task { @MainActor in session.cancel() } })
/// ```
///
/// Thread-safety: all state is behind a lock; every method may be called from any thread.
public final class BrowserSessionSlot: Sendable {
    /// How one browser session ended.
    public enum Outcome: Sendable, Equatable {
        /// The session ended at the redirect: the callback URL, with the authorization response.
        case callback(URL)
        /// The session failed or was cancelled, as an `OAuthError`.
        case failed(OAuthError)
    }

    private enum Phase {
        case idle
        case starting
        case waiting(CheckedContinuation<URL, any Error>)
        /// The outcome arrived before the continuation existed (a synchronous completion).
        case early(Outcome)
    }

    /// The phase of the current run, and that run's number: callbacks of an earlier run are dropped.
    private struct State {
        var run: UInt64 = 0
        var phase = Phase.idle
    }

    private let state = Locked(State())

    /// An idle slot.
    public init() {}

    /// Whether a session is running.
    public var isRunning: Bool {
        if case .idle = state.withLock({ $0.phase }) { return false }
        return true
    }

    /// Runs one browser session: `start` presents it and must arrange for `complete` to be called once it ends
    /// (from any thread); `cancel` dismisses it when the calling task is cancelled. `start` runs on the caller's
    /// actor (the main actor for UI code), synchronously, before the first suspension.
    public func run(
        isolation: isolated (any Actor)? = #isolation,
        start: (@escaping @Sendable (Outcome) -> Void) throws -> Void,
        cancel: @escaping @Sendable () -> Void
    ) async throws -> URL {
        let run = state.withLock { state -> UInt64? in
            guard case .idle = state.phase else { return nil }
            state.run &+= 1
            state.phase = .starting
            return state.run
        }
        guard let run else {
            throw OAuthError(.signInInProgress, "a sign-in is already showing; wait for it to finish")
        }
        if Task.isCancelled {
            state.withLock { $0.phase = .idle }
            throw OAuthError(.cancelled, "the sign-in was cancelled before it started")
        }
        let complete: @Sendable (Outcome) -> Void = { [self] outcome in finish(outcome, run: run) }
        do {
            try start(complete)
        } catch {
            state.withLock { $0.phase = .idle }
            throw error
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                let early = state.withLock { state -> Outcome? in
                    switch state.phase {
                    case .early(let outcome):
                        state.phase = .idle
                        return outcome
                    default:
                        state.phase = .waiting(continuation)
                        return nil
                    }
                }
                if let early { Self.resume(continuation, with: early) }
            }
        } onCancel: {
            if finish(.failed(OAuthError(.cancelled, "the sign-in task was cancelled")), run: run) { cancel() }
        }
    }

    /// Delivers an outcome of `run`; only the first one of the current run counts. Returns whether this call ended
    /// the session.
    @discardableResult
    private func finish(_ outcome: Outcome, run: UInt64) -> Bool {
        var ended = false
        let continuation = state.withLock { state -> CheckedContinuation<URL, any Error>? in
            guard state.run == run else { return nil }  // a callback of an earlier session
            switch state.phase {
            case .waiting(let continuation):
                state.phase = .idle
                return continuation
            case .starting:
                state.phase = .early(outcome)
                ended = true
                return nil
            case .idle, .early:
                return nil
            }
        }
        guard let continuation else { return ended }
        Self.resume(continuation, with: outcome)
        return true
    }

    private static func resume(_ continuation: CheckedContinuation<URL, any Error>, with outcome: Outcome) {
        switch outcome {
        case .callback(let url): continuation.resume(returning: url)
        case .failed(let error): continuation.resume(throwing: error)
        }
    }

    /// Maps what `ASWebAuthenticationSession` reported: a callback URL, or its error's
    /// `ASWebAuthenticationSessionError.Code` raw value (1 `canceledLogin`, 2 `presentationContextNotProvided`,
    /// 3 `presentationContextInvalid`; nil for an error of another domain).
    ///
    /// A cancelled login is ``FailureKind/userCancelled`` (never retried); a missing or invalid presentation anchor
    /// is ``OAuthError/Code/presentationUnavailable`` (misconfiguration, not a network failure); anything else is
    /// ``OAuthError/Code/browserFailed``.
    public static func outcome(url: URL?, errorCode: Int?) -> Outcome {
        if let url, errorCode == nil { return .callback(url) }
        switch errorCode {
        case 1: return .failed(OAuthError(.cancelled, "the user cancelled the sign-in"))
        case 2, 3:
            return .failed(
                OAuthError(.presentationUnavailable, "the sign-in sheet has no valid presentation anchor (window)"))
        default:
            return .failed(OAuthError(.browserFailed, "the system browser session failed"))
        }
    }
}
