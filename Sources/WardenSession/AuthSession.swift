import Foundation
import WardenCore
import WardenOAuth
import WardenStorage

/// What a session needs from the token endpoint. ``TokenClient`` conforms.
public protocol TokenRefresher: Sendable {
    func refresh(refreshToken: String, scope: String?) async throws(OAuthError) -> TokenResponse
    func revoke(token: String, hint: String) async throws(OAuthError)
}

extension TokenClient: TokenRefresher {}

/// One account's session: a valid access token on demand, with single-flight refresh, rotation-safe
/// persistence and graceful degradation.
///
/// - **Single-flight**: any number of concurrent callers that need a refresh share one refresh request.
/// - **Rotation-safe**: the new ``TokenSet`` is written to the store before any waiter resumes; a response
///   without a refresh token keeps the old one; if the write fails the error is surfaced, the in-memory tokens
///   still serve and the write is retried on the next call.
/// - **Transient is not terminal**: offline, timeouts, 5xx, 429, `temporarily_unavailable` and a locked keychain
///   keep the session (``SessionState/degraded(reason:)``, `canMutate` false); only `invalid_grant`, 401 or
///   `invalid_client` from the token endpoint sign out — every stored item of the account is deleted.
/// - A refresh-loop guard: at most 5 refreshes per 30 s by default.
///
/// ```swift
/// let session = try await AuthSession.restore(store: KeychainStore(), service: "com.example.tokens",
///                                              account: "alice", refresher: tokenClient)
/// let token = try await session?.validAccessToken(minTTL: 60)
/// for await state in session!.states { updateUI(state) }
/// ```
///
/// Thread-safety: an actor; the coordination itself is the pure `RefreshStateMachine`.
public actor AuthSession {
    public let service: String
    public let account: String
    /// The DPoP key the session's tokens are bound to (``AuthorizedClient`` signs API requests with it).
    public nonisolated let dpop: DPoPBinding?
    let store: any CredentialStore
    let refresher: any TokenRefresher
    let now: NowProvider
    let maximumRefreshes: Int
    let refreshWindow: TimeInterval
    private let log = WardenLogger(category: "session")

    private var tokens: TokenSet?
    private var machine = RefreshStateMachine()
    private var waiters: [CheckedContinuation<Result<String, SessionError>, Never>] = []
    private var refreshTimes: [Date] = []
    private var needsPersist = false
    /// After a transient refresh failure: no refresh request before this time (the server's `Retry-After`, or
    /// exponential backoff with jitter), so a degraded session never hammers the token endpoint.
    private var refreshNotBefore: Date?
    private var refreshFailures = 0
    private var refreshBackoffReason: SessionError?
    let jitter: @Sendable () -> Double
    public private(set) var state: SessionState
    /// How many refresh requests this session has made (for tests, benchmarks and the demo's evidence).
    public private(set) var refreshCount = 0

    /// State changes for UI (the current state is delivered first).
    public nonisolated let states: AsyncStream<SessionState>
    private let continuation: AsyncStream<SessionState>.Continuation

    /// A session over tokens already in memory (after a sign-in); call ``persist()`` to store them.
    public init(
        tokens: TokenSet?, store: any CredentialStore, service: String, account: String, refresher: any TokenRefresher,
        maximumRefreshes: Int = 5, refreshWindow: TimeInterval = 30, now: @escaping NowProvider = systemNow,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, dpop: DPoPBinding? = nil
    ) {
        self.jitter = jitter
        self.dpop = dpop
        self.tokens = tokens
        self.store = store
        self.service = service
        self.account = account
        self.refresher = refresher
        self.maximumRefreshes = maximumRefreshes
        self.refreshWindow = refreshWindow
        self.now = now
        let initial: SessionState = tokens == nil ? .signedOut(reason: "no stored session") : .signedIn
        state = initial
        (states, continuation) = AsyncStream.makeStream(of: SessionState.self, bufferingPolicy: .bufferingNewest(16))
        continuation.yield(initial)
    }

    /// Restores the account's session from `store`, after the reinstall check of `sentinel` (when given).
    /// Returns a signed-out session when nothing is stored.
    ///
    /// DPoP-bound tokens need their key: when `dpop` is missing or holds another key than the one the tokens were
    /// bound to, the tokens are unusable (a Bearer fallback would be a downgrade), so the stored session is purged
    /// and a signed-out session returned.
    public static func restore(
        store: any CredentialStore, service: String, account: String, refresher: any TokenRefresher,
        sentinel: InstallSentinel? = nil, now: @escaping NowProvider = systemNow, dpop: DPoPBinding? = nil
    ) async throws(StorageError) -> AuthSession {
        if let sentinel { try await sentinel.purgeIfFirstLaunch(store: store, services: [service]) }
        var tokens = try await store.load(service: service, account: account).map { data throws(StorageError) in
            try TokenSet(encoded: data)
        }
        if let bound = tokens?.dpopThumbprint, bound != dpop?.thumbprint {
            WardenLogger(category: "session").notice("the DPoP key of the stored tokens is gone; signing out")
            try await store.delete(service: service, account: account)
            tokens = nil
        }
        return AuthSession(
            tokens: tokens, store: store, service: service, account: account, refresher: refresher, now: now,
            dpop: dpop)
    }

    /// Writes the current tokens to the store.
    public func persist() async throws(StorageError) {
        guard let tokens else { return }
        try await store.save(try tokens.encoded(), service: service, account: account)
        needsPersist = false
    }

    /// The current tokens (for display of expiry; the values print redacted).
    public var currentTokens: TokenSet? { tokens }

    /// A valid access token, refreshed first when it expires within `minTTL` seconds.
    public func validAccessToken(minTTL: TimeInterval = 60) async throws(SessionError) -> String {
        if needsPersist { try? await persist() }
        guard let tokens else { throw signedOutError() }
        if let ttl = tokens.timeToLive(now: now()), ttl > minTTL { return tokens.accessToken.unredacted() }
        if tokens.expiresAt == nil { return tokens.accessToken.unredacted() }
        return try await sharedRefresh()
    }

    /// Refreshes unless `token` is no longer the current access token (a 401 for an already-replaced token
    /// just retries with the new one).
    public func refresh(ifCurrent token: String) async throws(SessionError) -> String {
        guard let tokens else { throw signedOutError() }
        if tokens.accessToken.unredacted() != token { return tokens.accessToken.unredacted() }
        return try await sharedRefresh()
    }

    private func signedOutError() -> SessionError {
        if case .signedOut(let reason) = state { return SessionError(.signedOut, reason) }
        return SessionError(.signedOut, "not signed in")
    }

    private func sharedRefresh() async throws(SessionError) -> String {
        switch machine.refreshNeeded() {
        case .startRefresh(let generation):
            var result = await performRefresh(generation: generation)
            let action = machine.refreshFinished(generation: generation)
            if case .discard = action { result = .failure(signedOutError()) }
            let pending = waiters
            waiters = []
            for waiter in pending { waiter.resume(returning: result) }
            return try result.get()
        default:
            let result = await withCheckedContinuation { waiters.append($0) }
            return try result.get()
        }
    }

    private func performRefresh(generation: Int) async -> Result<String, SessionError> {
        let current = now()
        if let notBefore = refreshNotBefore, current < notBefore {
            let reason = refreshBackoffReason?.reason ?? "the last refresh failed"
            return .failure(
                SessionError(
                    refreshBackoffReason?.code == .rateLimited ? .rateLimited : .degraded,
                    "\(reason); not retrying before \(notBefore)", underlying: refreshBackoffReason?.underlying,
                    retryAt: notBefore))
        }
        refreshTimes = refreshTimes.filter { current.timeIntervalSince($0) < refreshWindow }
        guard refreshTimes.count < maximumRefreshes else {
            return .failure(
                SessionError(.refreshLoop, "more than \(maximumRefreshes) refreshes in \(Int(refreshWindow)) s"))
        }
        guard let tokens else { return .failure(signedOutError()) }
        let refreshToken: String
        switch await currentRefreshToken(tokens) {
        case .success(let value): refreshToken = value
        case .failure(let error): return .failure(error)
        }
        refreshTimes.append(current)
        refreshCount += 1
        let response: TokenResponse
        do {
            response = try await refresher.refresh(refreshToken: refreshToken, scope: nil)
        } catch {
            guard machine.isCurrent(generation) else { return .failure(signedOutError()) }
            return .failure(await handle(error))
        }
        // Signed out while the request was in flight: the new tokens are never stored or handed out.
        guard machine.isCurrent(generation) else {
            log.notice("a refresh finished after sign-out; its tokens were discarded")
            return .failure(signedOutError())
        }
        var fresh = tokens.refreshed(by: response, now: now())
        fresh.dpopThumbprint = response.tokenType == "DPoP" ? dpop?.thumbprint : nil
        if fresh.refreshToken == nil, tokens.refreshTokenHeldSeparately {
            fresh.refreshToken = Redacted(refreshToken)  // not rotated: keep the one read from the vault
        }
        // Persist before any waiter resumes, and before the new tokens are visible to anyone: callers arriving
        // while the write is in flight (the actor is reentrant across `await`) still see the expired set and join
        // the waiters, so no one uses a rotated token that is not yet stored.
        do {
            try await store.save(try fresh.encoded(), service: service, account: account)
            guard machine.isCurrent(generation) else {
                // Sign-out purged the store while this write was in flight: purge again, keep nothing.
                try? await store.delete(service: service, account: account)
                log.notice("a refresh finished after sign-out; its tokens were discarded")
                return .failure(signedOutError())
            }
            self.tokens = fresh
            needsPersist = false
        } catch {
            self.tokens = fresh
            needsPersist = true
            log.error("refreshed tokens could not be stored: \(error.reason)")
            setState(.degraded(reason: "tokens could not be stored: \(error.codeName)"))
            return .failure(
                SessionError(
                    .persistenceFailed, "the refreshed tokens could not be stored; they are kept in memory",
                    underlying: error))
        }
        if store is any RefreshTokenVault {
            // Held separately (e.g. biometric-bound): do not keep it in memory past its use.
            fresh.refreshToken = nil
            fresh.refreshTokenHeldSeparately = true
            self.tokens = fresh
        }
        refreshNotBefore = nil
        refreshFailures = 0
        refreshBackoffReason = nil
        offlineReason = nil
        setState(.signedIn)
        log.info("access token refreshed")
        return .success(fresh.accessToken.unredacted())
    }

    /// The refresh token in memory, or read from the ``RefreshTokenVault`` when it is held separately. A vault
    /// item that is gone (biometric re-enrolment invalidates `.biometryCurrentSet` items) signs out cleanly; a
    /// cancelled or failed prompt keeps the session and is reported once, never retried in a loop.
    private func currentRefreshToken(_ tokens: TokenSet) async -> Result<String, SessionError> {
        if let value = tokens.refreshToken?.unredacted() { return .success(value) }
        guard tokens.refreshTokenHeldSeparately, let vault = store as? any RefreshTokenVault else {
            await endSession(reason: "the access token expired and there is no refresh token")
            return .failure(SessionError(.noRefreshToken, "the access token expired and there is no refresh token"))
        }
        do {
            if let value = try await vault.loadRefreshToken(service: service, account: account) {
                return .success(value)
            }
            let reason = "the protected refresh token is no longer readable (biometry changed?); sign in again"
            log.notice("\(reason)")
            await endSession(reason: reason)
            return .failure(SessionError(.signedOut, reason))
        } catch {
            switch error.failureKind {
            case .userCancelled, .rejected:
                return .failure(
                    SessionError(
                        .refreshTokenLocked, "the refresh token was not released (\(error.code))", underlying: error))
            default:
                setState(.degraded(reason: error.codeName))
                return .failure(
                    SessionError(.degraded, "the refresh token cannot be read now (\(error.code))", underlying: error))
            }
        }
    }

    static let baseRefreshBackoff: TimeInterval = 1
    static let maximumRefreshBackoff: TimeInterval = 300

    private var offlineReason: String?

    /// An API request failed in transport (after its retries): the session is kept but read-only
    /// (``SessionState/degraded(reason:)``, `canMutate == false`) until a request gets through.
    public func requestFailed(_ error: TransportError) {
        guard tokens != nil else { return }
        offlineReason = "offline (\(error.codeName))"
        setState(.degraded(reason: offlineReason!))
    }

    /// An API request got an HTTP response: the network is back; leave the offline state.
    public func requestSucceeded() {
        guard tokens != nil, offlineReason != nil else { return }
        offlineReason = nil
        if refreshNotBefore == nil { setState(.signedIn) }
    }

    private func handle(_ error: OAuthError) async -> SessionError {
        switch error.failureKind {
        case .terminal:
            log.notice("the grant was rejected (\(error.codeName)); signing out")
            await endSession(reason: "the provider rejected the grant (\(error.codeName))")
            return SessionError(.signedOut, "the provider rejected the grant (\(error.codeName))", underlying: error)
        default:
            refreshFailures += 1
            let wait: TimeInterval
            let result: SessionError
            let notBefore: Date
            if let retryAfter = error.retryAfter {
                wait = retryAfter  // exactly what the server asked, never earlier
                notBefore = now().addingTimeInterval(wait)
                result = SessionError(
                    .rateLimited,
                    "the token endpoint rate-limited the refresh (\(error.codeName)); the session is kept",
                    underlying: error, retryAt: notBefore)
            } else {
                // Exponential backoff with "equal jitter": half fixed, half random, so never immediately.
                let ceiling = min(
                    Self.maximumRefreshBackoff, Self.baseRefreshBackoff * pow(2, Double(refreshFailures - 1)))
                wait = ceiling / 2 + ceiling / 2 * jitter()
                notBefore = now().addingTimeInterval(wait)
                result = SessionError(
                    .degraded, "refresh failed (\(error.codeName)); the session is kept", underlying: error,
                    retryAt: notBefore)
            }
            refreshNotBefore = notBefore
            refreshBackoffReason = result
            log.warning(
                "refresh failed transiently (\(error.codeName)); keeping the session, next try in \(Int(wait)) s")
            setState(.degraded(reason: error.codeName))
            return result
        }
    }

    /// Signs out: revokes the refresh and access tokens (RFC 7009, best effort), deletes the account's stored
    /// items and clears memory.
    ///
    /// A refresh still in flight is discarded when it returns (a new generation starts here, before any `await`),
    /// so it can never write tokens back after the purge. A refresh token held in a separate protected item
    /// (``SplitTokenStore``) is not read just to revoke it (that would prompt); revoking the access token and
    /// deleting both items ends the session.
    public func signOut() async {
        let ending = tokens
        machine.signedOut()
        tokens = nil
        needsPersist = false
        if let ending {
            if let refresh = ending.refreshToken?.unredacted() {
                try? await refresher.revoke(token: refresh, hint: "refresh_token")
            }
            try? await refresher.revoke(token: ending.accessToken.unredacted(), hint: "access_token")
        }
        await endSession(reason: "signed out by the user")
    }

    private func endSession(reason: String) async {
        machine.signedOut()
        tokens = nil
        needsPersist = false
        do {
            try await store.delete(service: service, account: account)
        } catch {
            log.error("could not delete the stored tokens: \(error.reason)")
        }
        setState(.signedOut(reason: reason))
    }

    private func setState(_ new: SessionState) {
        guard new != state else { return }
        state = new
        continuation.yield(new)
    }
}
