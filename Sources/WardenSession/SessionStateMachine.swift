import Foundation
import WardenCore
import WardenOAuth
import WardenStorage

/// Every policy of an ``AuthSession``, as a value: the tokens held, the waiters of the refresh in flight, the
/// backoff window, the refresh-loop guard, the offline flag, "needs persist", the generation adopted from the store
/// and the sign-out epoch. Each event returns the ``Action`` the actor performs; nothing here does I/O, reads a
/// clock or sleeps (the shape of async-http-client's `Transaction.StateMachine`, and of `BrowserSessionSlot`).
///
/// A refresh runs in steps, each an event: ``tokenRequested(_:now:waiter:)`` (serve from memory, wait, or start),
/// then under the grant lock ``storeRead(_:epoch:now:)`` (adopt what another holder stored, follow its sign-out,
/// or spend the refresh token), ``refreshSucceeded(_:epoch:)`` / ``refreshFailed(_:epoch:now:)``, and
/// ``persisted(epoch:error:)``. Sign-out bumps the **epoch**: a step of an older epoch never stores or hands out
/// tokens.
///
/// `Waiter` is whatever the executor resumes (a continuation in ``AuthSession``, a plain value in tests).
struct SessionStateMachine<Waiter> {
    /// What a caller needs.
    enum Need: Equatable {
        /// An access token valid for more than this many seconds.
        case validFor(TimeInterval)
        /// A token other than this one, which a resource server refused.
        case replacing(String)
    }

    /// The refresh in flight.
    struct Flight {
        let epoch: Int
        let need: Need
        var waiters: [Waiter]
        /// The set the refresh token was taken from (to tell, after a rejection, whether another holder rotated).
        var spent: TokenSet?
    }

    /// The window in which no refresh request is sent after a transient failure.
    struct Backoff: Equatable {
        let notBefore: Date
        let error: SessionError
        /// Set by the server (`Retry-After`): the network coming back does not end it.
        let serverSet: Bool
    }

    enum Action {
        /// Hand this token to the caller now (after writing `persistFirst`, a set whose earlier write failed).
        case deliver(String, persistFirst: TokenSet?)
        /// Throw this error to the caller now.
        case fail(SessionError)
        /// The caller joined the waiters of the refresh in flight.
        case wait
        /// Take the grant lock, read the store, then report ``storeRead(_:epoch:now:)``.
        case lockAndReadStore(epoch: Int)
        /// Send a refresh with the refresh token of `tokens` (or, when it is held separately, the token store's).
        case sendRefresh(TokenSet, epoch: Int)
        /// Write `tokens`, then report ``persisted(epoch:error:)``.
        case persist(TokenSet, epoch: Int)
        /// The grant was rejected: read the store again, then report ``storeReadAfterRejection(_:epoch:now:)``.
        case rereadAfterRejection(epoch: Int)
        /// Delete every stored item of the account, publish, then release the lock and resume with `result`.
        case purge(Finish)
        /// Release the lock and resume the waiters with the result (the starter gets it too).
        case finish(Finish)
    }

    /// The end of a refresh round.
    struct Finish {
        let waiters: [Waiter]
        let result: Result<String, SessionError>
    }

    let maximumRefreshes: Int
    let refreshWindow: TimeInterval
    let backoffPolicy: RetryPolicy
    /// The thumbprint of this holder's DPoP key (nil without one): stored tokens bound to another key are unusable.
    let dpopThumbprint: String?

    private(set) var tokens: TokenSet?
    private(set) var signedOutReason: SignedOutReason?
    private(set) var flight: Flight?
    private(set) var epoch = 0
    private(set) var needsPersist = false
    /// Whether the store has held this session's grant (restored from it, or written): only then does an empty
    /// store mean that another holder signed out.
    private(set) var stored: Bool
    private(set) var offline: TransportError.Code?
    private(set) var trouble: DegradedReason?
    private(set) var backoff: Backoff?
    private(set) var failures = 0
    private(set) var refreshTimes: [Date] = []
    /// Refresh requests sent (for tests, benchmarks and the demo's evidence).
    private(set) var refreshesSent = 0
    /// Times a holder adopted tokens another holder stored instead of refreshing.
    private(set) var adoptions = 0

    init(
        tokens: TokenSet?, stored: Bool = false, maximumRefreshes: Int, refreshWindow: TimeInterval,
        backoffPolicy: RetryPolicy, dpopThumbprint: String? = nil, signedOut reason: SignedOutReason = .noSession
    ) {
        self.dpopThumbprint = dpopThumbprint
        self.tokens = tokens
        self.stored = stored
        self.maximumRefreshes = maximumRefreshes
        self.refreshWindow = refreshWindow
        self.backoffPolicy = backoffPolicy
        signedOutReason = tokens == nil ? reason : nil
    }

    /// What the UI shows, derived from the fields above.
    var state: SessionState {
        if let signedOutReason { return .signedOut(reason: signedOutReason) }
        if let offline { return .degraded(reason: .offline(offline)) }
        if let trouble { return .degraded(reason: trouble) }
        return .signedIn
    }

    var signedOutError: SessionError { SessionError(.signedOut, signedOutReason?.description ?? "not signed in") }

    // MARK: - Asking for a token

    static func satisfies(_ tokens: TokenSet, _ need: Need, now: Date) -> Bool {
        guard !tokens.accessToken.unredacted().isEmpty else { return false }  // a refresh-token-only grant
        let ttl = tokens.timeToLive(now: now)  // nil: no expiry announced, use it until a server refuses it
        switch need {
        case .validFor(let minimum): return ttl.map { $0 > minimum } ?? true
        case .replacing(let refused):
            return tokens.accessToken.unredacted() != refused && (ttl.map { $0 > 0 } ?? true)
        }
    }

    /// A caller asks for a token. On ``Action/wait`` the executor suspends and ``join(_:)``s in the same turn.
    mutating func tokenRequested(_ need: Need, now: Date) -> Action {
        guard signedOutReason == nil, let tokens else { return .fail(signedOutError) }
        if Self.satisfies(tokens, need, now: now) {
            return .deliver(tokens.accessToken.unredacted(), persistFirst: needsPersist ? tokens : nil)
        }
        if flight != nil { return .wait }
        if let backoff, now < backoff.notBefore {
            let error = backoff.error
            return .fail(
                SessionError(
                    error.code, "\(error.reason); not retrying before \(backoff.notBefore)",
                    underlying: error.underlying, retryAt: backoff.notBefore))
        }
        refreshTimes = refreshTimes.filter { now.timeIntervalSince($0) < refreshWindow }
        guard refreshTimes.count < maximumRefreshes else {
            return .fail(
                SessionError(.refreshLoop, "more than \(maximumRefreshes) refreshes in \(Int(refreshWindow)) s"))
        }
        flight = Flight(epoch: epoch, need: need, waiters: [], spent: nil)
        return .lockAndReadStore(epoch: epoch)
    }

    /// Adds a waiter to the refresh in flight; false when there is none (the executor then resumes it itself).
    mutating func join(_ waiter: Waiter) -> Bool {
        guard flight != nil else { return false }
        flight?.waiters.append(waiter)
        return true
    }

    // MARK: - Under the grant lock

    /// The store as another holder may have left it. `stored` is nil when nothing is stored; a read failure is
    /// `.failure`.
    mutating func storeRead(_ stored: Result<TokenSet?, StorageError>, epoch: Int, now: Date) -> Action {
        guard epoch == self.epoch, let current = tokens, let need = flight?.need else {
            return .finish(end(.failure(signedOutError)))
        }
        switch stored {
        case .failure(let error):
            trouble = .storeUnavailable(error.code)
            return .finish(
                end(.failure(SessionError(.degraded, "the stored session cannot be read now", underlying: error))))
        case .success(nil) where self.stored && !needsPersist:
            // Another holder signed out (or the grant was purged): follow it, never refresh a deleted grant.
            signedOutReason = .signedOutElsewhere
            tokens = nil
            return .finish(end(.failure(signedOutError)))
        case .success(let stored?) where !needsPersist && !Self.sameRound(stored, current):
            // Another holder refreshed (or signed in again): the store is the truth, adopt it — unless it is bound to
            // a DPoP key this holder does not have (a Bearer fallback would be a downgrade; the other holder keeps it).
            if let bound = stored.dpopThumbprint, bound != dpopThumbprint {
                signedOutReason = .dpopKeyUnavailable
                tokens = nil
                return .finish(end(.failure(signedOutError)))
            }
            tokens = stored
            adoptions += 1
            if Self.satisfies(stored, need, now: now) {
                clearTrouble()
                return .finish(end(.success(stored.accessToken.unredacted())))
            }
            return spend(stored, now: now)
        case .success:
            return spend(current, now: now)
        }
    }

    /// Whether two sets are the same round of the grant (same access token and generation): a split store's
    /// copy lacks the refresh token that memory may hold, and that is no news.
    static func sameRound(_ a: TokenSet, _ b: TokenSet) -> Bool {
        a.accessToken == b.accessToken && a.generation == b.generation
    }

    private mutating func spend(_ tokens: TokenSet, now: Date) -> Action {
        flight?.spent = tokens
        return .sendRefresh(tokens, epoch: epoch)
    }

    /// A refresh request went out (counted for the loop guard when its answer arrives).
    private mutating func sent(at now: Date) {
        refreshTimes.append(now)
        refreshesSent += 1
    }

    /// The refresh token could not be had: `nil` when its protected item is gone (a biometry change), else why.
    mutating func refreshTokenUnavailable(_ error: StorageError?, epoch: Int) -> Action {
        guard epoch == self.epoch else { return .finish(end(.failure(signedOutError))) }
        guard let error else {
            return signOut(reason: .refreshTokenUnreadable)
        }
        switch error.failureKind {
        case .userCancelled, .rejected:
            return .finish(
                end(
                    .failure(
                        SessionError(
                            .refreshTokenLocked, "the refresh token was not released (\(error.code))",
                            underlying: error))))
        default:
            trouble = .storeUnavailable(error.code)
            return .finish(
                end(
                    .failure(
                        SessionError(
                            .degraded, "the refresh token cannot be read now (\(error.code))", underlying: error))))
        }
    }

    /// There is no refresh token at all and the access token no longer serves.
    mutating func noRefreshToken(epoch: Int) -> Action {
        guard epoch == self.epoch else { return .finish(end(.failure(signedOutError))) }
        signedOutReason = .noRefreshToken
        tokens = nil
        return .purge(end(.failure(SessionError(.noRefreshToken, SignedOutReason.noRefreshToken.description))))
    }

    mutating func refreshSucceeded(_ fresh: TokenSet, epoch: Int, now: Date) -> Action {
        sent(at: now)
        guard epoch == self.epoch else { return .finish(end(.failure(signedOutError))) }
        return .persist(fresh, epoch: epoch)
    }

    /// A refresh came back with an ID token that does not continue the session's (OpenID Connect Core §12.2:
    /// another subject, a signature the provider's keys do not verify, an `auth_time` moved back): its tokens are
    /// refused — never stored or handed out — and the session ends with ``SessionError/Code/idTokenRejected``.
    mutating func refreshedIDTokenRejected(_ error: OAuthError, epoch: Int, now: Date) -> Action {
        sent(at: now)
        guard epoch == self.epoch else { return .finish(end(.failure(signedOutError))) }
        let reason = "the refreshed ID token was rejected (\(error.reason))"
        signedOutReason = .idTokenRejected
        tokens = nil
        needsPersist = false
        return .purge(end(.failure(SessionError(.idTokenRejected, reason, underlying: error))))
    }

    /// The write of a refresh's tokens returned. `held` is what memory keeps (without a refresh token the store keeps apart).
    mutating func persisted(_ held: TokenSet, epoch: Int, error: StorageError?) -> Action {
        guard epoch == self.epoch else {
            // Signed out while the write was in flight: purge again, hand out nothing.
            return .purge(end(.failure(signedOutError)))
        }
        tokens = held
        backoff = nil
        failures = 0
        if let error {
            needsPersist = true
            trouble = .tokensNotStored(error.code)
            return .finish(
                end(
                    .failure(
                        SessionError(
                            .persistenceFailed, "the refreshed tokens could not be stored; they are kept in memory",
                            underlying: error))))
        }
        needsPersist = false
        stored = true
        offline = nil
        clearTrouble()
        return .finish(end(.success(held.accessToken.unredacted())))
    }

    /// A write of tokens held in memory (``Action/deliver(_:persistFirst:)``, ``AuthSession/persist()``) returned.
    mutating func laterPersist(succeeded: Bool) {
        guard succeeded else { return }
        stored = true
        guard needsPersist else { return }
        needsPersist = false
        if case .tokensNotStored = trouble { trouble = nil }
    }

    mutating func refreshFailed(_ error: OAuthError, epoch: Int, now: Date) -> Action {
        sent(at: now)
        guard epoch == self.epoch else { return .finish(end(.failure(signedOutError))) }
        if error.failureKind == .terminal { return .rereadAfterRejection(epoch: epoch) }
        failures += 1
        let result: SessionError
        let notBefore: Date
        if let retryAfter = error.retryAfter {
            notBefore = now.addingTimeInterval(retryAfter)  // exactly what the server asked, never earlier
            result = SessionError(
                .rateLimited, "the token endpoint rate-limited the refresh (\(error.codeName)); the session is kept",
                underlying: error, retryAt: notBefore)
        } else {
            notBefore = now.addingTimeInterval(backoffPolicy.backoff(failures).seconds)
            result = SessionError(
                .degraded, "refresh failed (\(error.codeName)); the session is kept", underlying: error,
                retryAt: notBefore)
        }
        backoff = Backoff(notBefore: notBefore, error: result, serverSet: error.retryAfter != nil)
        trouble = .refreshFailed(error.code)
        return .finish(end(.failure(result)))
    }

    /// After `invalid_grant`/401: a newer grant in the store (another holder rotated it meanwhile) is adopted, not
    /// taken for a revocation.
    mutating func storeReadAfterRejection(_ stored: Result<TokenSet?, StorageError>, epoch: Int, now: Date) -> Action {
        guard epoch == self.epoch else { return .finish(end(.failure(signedOutError))) }
        let reason = SignedOutReason.grantRejected
        if case .success(let stored?) = stored, let spent = flight?.spent, !Self.sameRound(stored, spent) {
            tokens = stored
            adoptions += 1
            if let need = flight?.need, Self.satisfies(stored, need, now: now) {
                clearTrouble()
                return .finish(end(.success(stored.accessToken.unredacted())))
            }
            trouble = .grantRotatedElsewhere
            return .finish(
                end(.failure(SessionError(.degraded, "another holder rotated the grant; try again"))))
        }
        return signOut(reason: reason)
    }

    private mutating func signOut(reason: SignedOutReason) -> Action {
        signedOutReason = reason
        tokens = nil
        needsPersist = false
        return .purge(end(.failure(SessionError(.signedOut, reason.description))))
    }

    private mutating func end(_ result: Result<String, SessionError>) -> Finish {
        let waiters = flight?.waiters ?? []
        flight = nil
        return Finish(waiters: waiters, result: result)
    }

    private mutating func clearTrouble() {
        trouble = nil
        backoff = nil
        failures = 0
    }

    // MARK: - The app's events

    /// The user signs out: any step in flight is now stale. Returns the tokens to revoke.
    mutating func signOutRequested() -> TokenSet? {
        let ending = tokens
        epoch += 1
        signedOutReason = .userSignedOut
        tokens = nil
        needsPersist = false
        backoff = nil
        return ending
    }

    /// An API request failed in transport: read-only until a request gets through.
    mutating func requestFailed(_ code: TransportError.Code) {
        guard signedOutReason == nil else { return }
        offline = code
    }

    /// An API request got an HTTP response.
    mutating func requestSucceeded() { offline = nil }

    /// The network is back: the refresh backoff ends (a server's `Retry-After` does not). True when a refresh
    /// should be tried once now.
    mutating func networkBecameAvailable(now: Date) -> Bool {
        guard signedOutReason == nil else { return false }
        offline = nil
        guard let backoff else { return false }
        if backoff.serverSet, now < backoff.notBefore { return false }
        self.backoff = nil
        failures = 0
        return true
    }
}
