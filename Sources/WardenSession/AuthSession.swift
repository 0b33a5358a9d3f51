import Foundation
import WardenCore
import WardenJOSE
import WardenOAuth
import WardenStorage

/// What a session needs from the token endpoint. ``TokenClient`` and `AuthClient`'s endpoint conform.
public protocol TokenRefresher: Sendable {
    /// Redeems `refreshToken` at the token endpoint, optionally narrowing the grant to `scope`.
    func refresh(refreshToken: String, scope: String?) async throws(OAuthError) -> TokenResponse
    /// Revokes `token` (RFC 7009), with `hint` as its `token_type_hint` (e.g. `refresh_token`).
    func revoke(token: String, hint: String) async throws(OAuthError)
    /// Checks the ID token a refresh returned against `current`, the session's validated one (OpenID Connect
    /// Core §12.2). The default cannot check it: the session then keeps `current` and never stores the new one.
    func checkRefreshedIDToken(_ response: TokenResponse, current: String?) async -> RefreshedIDToken
}

extension TokenRefresher {
    public func checkRefreshedIDToken(_ response: TokenResponse, current: String?) async -> RefreshedIDToken {
        response.idToken == nil ? .absent : .unchecked("this refresher does not validate ID tokens")
    }
}

extension TokenClient: TokenRefresher {
    /// Validates with the provider's JWKS, fetched for this check (``IDTokenVerification``).
    public func checkRefreshedIDToken(_ response: TokenResponse, current: String?) async -> RefreshedIDToken {
        guard response.idToken != nil else { return .absent }
        let verification: IDTokenVerification
        do throws(OAuthError) {
            verification = try IDTokenVerification(
                metadata: metadata, clientID: clientID, transport: transport, now: now)
        } catch {
            return .unchecked(error.reason)
        }
        return await verification.check(response, current: current)
    }
}

/// One account's session: a valid access token on demand, with single-flight refresh, rotation-safe
/// persistence shared with every other holder of the grant, and graceful degradation.
///
/// - **Restoring needs no network**: a stored, still-valid access token is served with zero requests; an expired
///   one offline is a transient error with the session kept (``SessionState/degraded(reason:)``).
/// - **Single-flight**: any number of concurrent callers that need a refresh share one refresh request.
/// - **One grant, many holders**: before a refresh the session takes the store's ``GrantLock`` and re-reads the
///   store. Tokens another holder (an app extension, another process) stored are adopted instead of spending an
///   old refresh token; a grant another holder signed out of is followed; and after `invalid_grant` the store is
///   read again, since a newer grant there is no revocation.
/// - **Rotation-safe**: the new ``TokenSet`` is written to the store before any waiter resumes; a response without
///   a refresh token keeps the old one; a failed write is surfaced, the in-memory tokens still serve and the write
///   is retried on the next call.
/// - **Transient is not terminal**: offline, timeouts, 5xx, 429, `temporarily_unavailable` and a locked keychain
///   keep the session, read-only (`canMutate` false); the refresh then backs off (``RetryPolicy``'s equal-jitter
///   arithmetic, `Retry-After` exactly) until ``networkBecameAvailable()``. Only `invalid_grant`, 401 or
///   `invalid_client` from the token endpoint sign out — every stored item of the account is deleted — and a
///   refresh whose new ID token does not continue the session's (OpenID Connect Core §12.2, checked by the
///   refresher's ``TokenRefresher/checkRefreshedIDToken(_:current:)``): its tokens are never stored and the session
///   ends with ``SessionError/Code/idTokenRejected``.
/// - A refresh-loop guard: at most 5 refreshes per 30 s by default.
///
/// ```swift
/// guard let session = try await client.restoreSession() else { return showSignIn() }
/// let token = try await session.validAccessToken(minTTL: 60)
/// for await state in session.states { updateUI(state) }
/// ```
///
/// Thread-safety: an actor that executes the actions of a pure state machine (`SessionStateMachine`), which holds
/// every policy.
public actor AuthSession {
    /// The store service the session's tokens are saved under.
    public let service: String
    /// The store account the session's tokens are saved under.
    public let account: String
    /// The DPoP key the session's tokens are bound to (``AuthorizedClient`` signs API requests with it).
    public nonisolated let dpop: DPoPBinding?
    let store: any TokenStore
    let refresher: any TokenRefresher
    let now: NowProvider
    private let log = WardenLogger(category: "session")

    typealias Waiter = CheckedContinuation<Result<String, SessionError>, Never>
    private var machine: SessionStateMachine<Waiter>
    private var published: SessionState

    /// State changes for UI (the current state is delivered first). One stream: two loops over it compete for its
    /// elements. Each observer that must see every change takes its own, ``stateUpdates()``.
    public nonisolated let states: AsyncStream<SessionState>
    private let continuation: AsyncStream<SessionState>.Continuation
    /// The latest published state and every ``stateUpdates()`` subscriber, behind one lock so a subscriber's end can
    /// remove it from any thread.
    private nonisolated let subscribers: Locked<Subscribers>
    private struct Subscribers {
        var latest: SessionState
        var streams: [UInt64: AsyncStream<SessionState>.Continuation] = [:]
        var next: UInt64 = 0
    }

    /// A session over tokens already in memory (after a sign-in); call ``persist()`` to store them.
    public init(
        tokens: TokenSet?, store: any TokenStore, service: String, account: String, refresher: any TokenRefresher,
        maximumRefreshes: Int = 5, refreshWindow: TimeInterval = 30, now: @escaping NowProvider = systemNow,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, dpop: DPoPBinding? = nil
    ) {
        self.init(
            tokens: tokens, restored: false, store: store, service: service, account: account, refresher: refresher,
            maximumRefreshes: maximumRefreshes, refreshWindow: refreshWindow, now: now, jitter: jitter, dpop: dpop)
    }

    /// A session whose tokens are one item per account in `store` (``ItemTokenStore``). Disfavoured: a store that is
    /// both a `CredentialStore` and a ``TokenStore`` is taken as the token store.
    @_disfavoredOverload
    public init(
        tokens: TokenSet?, store: any CredentialStore, service: String, account: String, refresher: any TokenRefresher,
        maximumRefreshes: Int = 5, refreshWindow: TimeInterval = 30, now: @escaping NowProvider = systemNow,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, dpop: DPoPBinding? = nil
    ) {
        self.init(
            tokens: tokens, restored: false, store: ItemTokenStore(store), service: service, account: account,
            refresher: refresher, maximumRefreshes: maximumRefreshes, refreshWindow: refreshWindow, now: now,
            jitter: jitter, dpop: dpop)
    }

    init(
        tokens: TokenSet?, restored: Bool, store: any TokenStore, service: String, account: String,
        refresher: any TokenRefresher, maximumRefreshes: Int = 5, refreshWindow: TimeInterval = 30,
        now: @escaping NowProvider = systemNow,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, dpop: DPoPBinding? = nil,
        signedOut reason: SignedOutReason = .noSession
    ) {
        self.dpop = dpop
        self.store = store
        self.service = service
        self.account = account
        self.refresher = refresher
        self.now = now
        machine = SessionStateMachine(
            tokens: tokens, stored: restored, maximumRefreshes: maximumRefreshes, refreshWindow: refreshWindow,
            backoffPolicy: Self.refreshBackoff(jitter: jitter), dpopThumbprint: dpop?.thumbprint, signedOut: reason)
        published = machine.state
        (states, continuation) = AsyncStream.makeStream(of: SessionState.self, bufferingPolicy: .bufferingNewest(16))
        continuation.yield(published)
        subscribers = Locked(Subscribers(latest: published))
    }

    /// A stream of its own for one observer (a view model, a widget timeline, a logger): the current state first,
    /// then every change, however many observers there are (``states`` is one stream that its readers share). It ends
    /// when the observer stops iterating.
    ///
    /// ```swift
    /// Task { for await state in session.stateUpdates() { updateUI(state) } }
    /// Task { for await state in session.stateUpdates() { log(state) } }    // sees every change too
    /// ```
    public nonisolated func stateUpdates() -> AsyncStream<SessionState> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SessionState.self, bufferingPolicy: .bufferingNewest(16))
        let id = subscribers.withLock { state -> UInt64 in
            state.next += 1
            state.streams[state.next] = continuation
            continuation.yield(state.latest)
            return state.next
        }
        continuation.onTermination = { [subscribers] _ in
            _ = subscribers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// The refresh backoff: 1 s doubling to 5 min, equal jitter (never sooner than half a step).
    static func refreshBackoff(jitter: @escaping @Sendable () -> Double) -> RetryPolicy {
        RetryPolicy(baseDelay: .seconds(1), maximumDelay: .seconds(300), jitterFloor: 0.5, jitter: jitter)
    }

    /// Restores the account's session from `store`, after the reinstall check of `sentinel` (when given). Reads
    /// only the store: no request is made. Returns a signed-out session when nothing is stored.
    ///
    /// DPoP-bound tokens need their key: when `dpop` is missing or holds another key than the one the tokens were
    /// bound to, the tokens are unusable (a Bearer fallback would be a downgrade), so the stored session is purged
    /// and a signed-out session returned.
    public static func restore(
        store: any TokenStore, service: String, account: String, refresher: any TokenRefresher,
        sentinel: InstallSentinel? = nil, now: @escaping NowProvider = systemNow, dpop: DPoPBinding? = nil
    ) async throws(StorageError) -> AuthSession {
        if let sentinel {
            try await sentinel.purgeIfFirstLaunch(
                store: store.records, services: [service, PendingRevocations.service(for: service)])
        }
        var tokens = try await store.loadTokens(service: service, account: account)
        var reason = SignedOutReason.noSession
        if let bound = tokens?.dpopThumbprint, bound != dpop?.thumbprint {
            WardenLogger(category: "session").notice("the DPoP key of the stored tokens is gone; signing out")
            try await store.deleteTokens(service: service, account: account)
            tokens = nil
            reason = .dpopKeyUnavailable
        }
        return AuthSession(
            tokens: tokens, restored: tokens != nil, store: store, service: service, account: account,
            refresher: refresher, now: now, dpop: dpop, signedOut: reason)
    }

    /// Restores the account's session, as the token-store form does, from tokens stored one item per account in
    /// `store` (``ItemTokenStore``).
    @_disfavoredOverload
    public static func restore(
        store: any CredentialStore, service: String, account: String, refresher: any TokenRefresher,
        sentinel: InstallSentinel? = nil, now: @escaping NowProvider = systemNow, dpop: DPoPBinding? = nil
    ) async throws(StorageError) -> AuthSession {
        try await restore(
            store: ItemTokenStore(store), service: service, account: account, refresher: refresher, sentinel: sentinel,
            now: now, dpop: dpop)
    }

    /// Writes the current tokens to the store.
    public func persist() async throws(StorageError) {
        guard let tokens = machine.tokens else { return }
        try await write(tokens)
    }

    /// The current tokens (for display of expiry; the values print redacted).
    public var currentTokens: TokenSet? { machine.tokens }

    /// Who is signed in, without the network: the claims of the session's ID token — validated in full before it was
    /// stored (at sign-in, or at a refresh that passed OpenID Connect Core §12.2's continuity checks; a session moved
    /// from another SDK by ``AuthClient/migrateSession(_:)`` keeps that SDK's ID token, checked for its issuer and
    /// audience only, until its first refresh brings one Warden validated) — read back from the session, so a session restored at launch, offline, still answers `sub`, `email`, `name`. Nil without an ID
    /// token (a plain OAuth 2.0 sign-in) or once signed out.
    ///
    /// ```swift
    /// if let session = try await client.restoreSession(), let who = try await session.idTokenClaims?.subject { greet(who) }
    /// ```
    public var idTokenClaims: JWTClaims? {
        guard let idToken = machine.tokens?.idToken?.unredacted(),
            let object = try? JWSCompact.decodeUnverified(idToken).payload?.objectValue
        else { return nil }
        return JWTClaims(object: object)
    }

    /// The current state (also streamed by ``states``).
    public var state: SessionState { machine.state }

    /// How many refresh requests this session has sent (for tests, benchmarks and the demo's evidence).
    public var refreshCount: Int { machine.refreshesSent }

    /// How many times this session adopted tokens another holder of the grant had stored, instead of refreshing.
    public var adoptionCount: Int { machine.adoptions }

    /// A valid access token, refreshed first when it expires within `minTTL` seconds.
    public func validAccessToken(minTTL: TimeInterval = 60) async throws(SessionError) -> String {
        try await token(for: .validFor(minTTL))
    }

    /// Refreshes unless `token` is no longer the current access token (a 401 for an already-replaced token
    /// just retries with the new one).
    public func refresh(ifCurrent token: String) async throws(SessionError) -> String {
        try await self.token(for: .replacing(token))
    }

    private func token(for need: SessionStateMachine<Waiter>.Need) async throws(SessionError) -> String {
        switch machine.tokenRequested(need, now: now()) {
        case .wait:
            // Joined in the same actor turn as the decision (the closure runs before the suspension).
            let result = await withCheckedContinuation { (waiter: Waiter) in
                if !machine.join(waiter) { waiter.resume(returning: .failure(machine.signedOutError)) }
            }
            return try result.get()
        case .deliver(let token, let stale):
            if let stale { try? await write(stale) }
            return token
        case .fail(let error): return try Result<String, SessionError>.failure(error).get()
        case .lockAndReadStore(let epoch): return try await runRefresh(epoch: epoch).get()
        default: return try Result<String, SessionError>.failure(machine.signedOutError).get()
        }
    }

    /// Writes tokens held in memory; a sign-out during the write deletes them again (never a grant written back).
    private func write(_ tokens: TokenSet) async throws(StorageError) {
        let epoch = machine.epoch
        try await store.saveTokens(tokens, service: service, account: account)
        guard machine.epoch == epoch else {
            await purge()
            return
        }
        machine.laterPersist(succeeded: true)
        publish()
    }

    /// One refresh round under the grant lock: read the store, maybe adopt, maybe send, persist, resume.
    private func runRefresh(epoch: Int) async -> Result<String, SessionError> {
        let lease: GrantLease
        do throws(StorageError) {
            lease = try await store.grantLock.acquire(service: service, account: account)
        } catch {
            return await execute(
                machine.storeRead(.failure(error), epoch: epoch, now: now()), lease: nil)
        }
        let stored = await readStore()
        return await execute(machine.storeRead(stored, epoch: epoch, now: now()), lease: lease)
    }

    private func readStore() async -> Result<TokenSet?, StorageError> {
        do throws(StorageError) {
            return .success(try await store.loadTokens(service: service, account: account))
        } catch {
            return .failure(error)
        }
    }

    /// Performs actions until the round ends, then releases the lease and resumes the waiters.
    private func execute(_ first: SessionStateMachine<Waiter>.Action, lease: GrantLease?) async -> Result<
        String, SessionError
    > {
        var action = first
        while true {
            switch action {
            case .sendRefresh(let tokens, let epoch):
                if let lease, !(await lease.isHeld()) {
                    // Suspended past the lease: another holder may be spending this very refresh token. Never race it.
                    action = machine.refreshTokenUnavailable(
                        StorageError(.lockTimeout, "the grant lock's lease ran out before the refresh was sent"),
                        epoch: epoch)
                } else {
                    action = await sendRefresh(tokens, epoch: epoch)
                }
            case .persist(let fresh, let epoch):
                var error: StorageError?
                do throws(StorageError) {
                    try await store.saveTokens(fresh, service: service, account: account)
                } catch let e {
                    error = e
                    log.error("refreshed tokens could not be stored: \(e.reason)")
                }
                var held = fresh
                if error == nil, store.keepsRefreshTokensApart {
                    // Held separately (e.g. biometric-bound): do not keep it in memory past its use.
                    held.refreshToken = nil
                    held.refreshTokenHeldSeparately = true
                }
                action = machine.persisted(held, epoch: epoch, error: error)
                if case .finish(let end) = action, case .success = end.result { log.info("access token refreshed") }
                if case .purge = action { await discard(fresh, spent: nil) }
            case .rereadAfterRejection(let epoch):
                action = machine.storeReadAfterRejection(await readStore(), epoch: epoch, now: now())
            case .purge(let end):
                await purge()
                return await finish(end, lease: lease)
            case .finish(let end):
                return await finish(end, lease: lease)
            case .wait, .deliver, .fail, .lockAndReadStore:
                return await finish(.init(waiters: [], result: .failure(machine.signedOutError)), lease: lease)
            }
        }
    }

    private func sendRefresh(_ tokens: TokenSet, epoch: Int) async -> SessionStateMachine<Waiter>.Action {
        let refreshToken: String
        if let value = tokens.refreshToken?.unredacted() {
            refreshToken = value
        } else if tokens.refreshTokenHeldSeparately, store.keepsRefreshTokensApart {
            do throws(StorageError) {
                guard let value = try await store.loadRefreshToken(service: service, account: account) else {
                    log.notice("the protected refresh token is gone (biometry changed?); signing out")
                    return machine.refreshTokenUnavailable(nil, epoch: epoch)
                }
                refreshToken = value
            } catch {
                return machine.refreshTokenUnavailable(error, epoch: epoch)
            }
        } else {
            return machine.noRefreshToken(epoch: epoch)
        }
        do throws(OAuthError) {
            let response = try await refresher.refresh(refreshToken: refreshToken, scope: nil)
            var fresh = tokens.refreshed(by: response, now: now())
            switch await refresher.checkRefreshedIDToken(response, current: tokens.idToken?.unredacted()) {
            case .absent, .valid: break
            case .unchecked(let why):
                log.notice("the refreshed ID token was not stored (\(why)); the session keeps its ID token")
                fresh.idToken = tokens.idToken
            case .rejected(let error):
                log.error("the refreshed ID token was rejected (\(error.codeName)); signing out")
                let action = machine.refreshedIDTokenRejected(error, epoch: epoch, now: now())
                // The grant is live at the provider: revoke its refresh token (the rotated one, or the one spent when
                // the provider does not rotate), then the access token that came with the refused ID token.
                let live = response.refreshToken?.unredacted() ?? refreshToken
                try? await refresher.revoke(token: live, hint: "refresh_token")
                try? await refresher.revoke(token: response.accessToken.unredacted(), hint: "access_token")
                return action
            }
            fresh.dpopThumbprint = response.tokenType == "DPoP" ? dpop?.thumbprint : nil
            if fresh.refreshToken == nil {
                fresh.refreshToken = Redacted(refreshToken)  // not rotated: keep the one that was spent
            }
            fresh.refreshTokenHeldSeparately = false
            let action = machine.refreshSucceeded(fresh, epoch: epoch, now: now())
            if case .finish = action { await discard(fresh, spent: refreshToken) }
            return action
        } catch {
            if error.failureKind == .terminal {
                log.notice("the grant was rejected (\(error.codeName)); reading the store before signing out")
            } else {
                log.warning("refresh failed transiently (\(error.codeName)); keeping the session")
            }
            return machine.refreshFailed(error, epoch: epoch, now: now())
        }
    }

    /// A refresh that returned after sign-out: its tokens are never stored or handed out, and a rotated refresh
    /// token — live at the provider, unknown to the sign-out — is revoked (best effort).
    private func discard(_ fresh: TokenSet, spent: String?) async {
        log.notice("a refresh finished after sign-out; its tokens were discarded")
        if let rotated = fresh.refreshToken?.unredacted(), rotated != spent {
            try? await refresher.revoke(token: rotated, hint: "refresh_token")
        }
    }

    private func finish(_ end: SessionStateMachine<Waiter>.Finish, lease: GrantLease?) async -> Result<
        String, SessionError
    > {
        await lease?.release()
        publish()
        for waiter in end.waiters { waiter.resume(returning: end.result) }
        return end.result
    }

    private func purge() async {
        do throws(StorageError) {
            try await store.deleteTokens(service: service, account: account)
        } catch {
            log.error("could not delete the stored tokens: \(error.reason)")
        }
    }

    // MARK: - The app's events

    /// An API request failed in transport (after its retries): the session is kept but read-only
    /// (``SessionState/degraded(reason:)``, `canMutate == false`) until a request gets through.
    public func requestFailed(_ error: TransportError) {
        machine.requestFailed(error.code)
        publish()
    }

    /// An API request got an HTTP response: the network is back; leave the offline state.
    public func requestSucceeded() {
        machine.requestSucceeded()
        publish()
    }

    /// Tells the session the network is back (WardenApple's `NetworkPathObserver` calls it on `NWPathMonitor`'s
    /// `.satisfied`): the offline flag clears, the refresh backoff ends — a server's `Retry-After` still holds —
    /// and when a refresh was waiting out a backoff, it is tried once now.
    public func networkBecameAvailable() async {
        let retry = machine.networkBecameAvailable(now: now())
        publish()
        if retry { _ = try? await validAccessToken() }
    }

    /// Signs out and reports what happened (``SignOutReport``).
    ///
    /// In this order: a token to revoke is first recorded as a pending revocation in the secure store; every
    /// stored item of the account is deleted and the state is `signedOut` — at once, before any request; then the
    /// refresh token is revoked (RFC 7009), and the access token after it. A revocation that fails transiently
    /// (offline) stays recorded and is retried by ``AuthClient/retryPendingRevocations()`` at the next launch or
    /// network return; otherwise the record is removed.
    ///
    /// A refresh still in flight is discarded when it returns (a new epoch starts here, before any `await`), so it
    /// can never write tokens back after the purge. A refresh token held in a separate protected item
    /// (``SplitTokenStore``) is not read just to revoke it (that would prompt): the access token is revoked, and not
    /// kept for a retry when that fails (it expires soon by itself).
    @discardableResult
    public func signOut() async -> SignOutReport {
        let ending = machine.signOutRequested()
        publish()
        let revocable: (token: String, hint: String)? = ending.map { tokens in
            tokens.refreshToken.map { ($0.unredacted(), "refresh_token") }
                ?? (tokens.accessToken.unredacted(), "access_token")
        }
        let pending = PendingRevocations(store: store.records, service: service, account: account, now: now)
        var recorded = false
        if let revocable, revocable.hint == "refresh_token" {  // only a refresh token is worth keeping for later
            do throws(StorageError) {
                try await pending.add(revocable.token, hint: revocable.hint)
                recorded = true
            } catch {
                log.error("the pending revocation could not be recorded: \(error.reason)")
            }
        }
        var deletionError: StorageError?
        do throws(StorageError) { try await store.deleteTokens(service: service, account: account) } catch {
            deletionError = error
            log.error("could not delete the stored tokens: \(error.reason)")
        }
        guard let ending, let revocable else {
            return SignOutReport(
                localDataDeleted: deletionError == nil, localDeletionError: deletionError, revocation: .nothingToRevoke)
        }
        var failure: OAuthError?
        do throws(OAuthError) {
            try await refresher.revoke(token: revocable.token, hint: revocable.hint)
        } catch { failure = error }
        var outcome = SignOutReport.Revocation.outcome(of: failure, tokenType: revocable.hint)
        if case .failed(let reason, willRetry: true) = outcome, !recorded {
            outcome = .failed(reason: reason, willRetry: false)
        }
        if case .failed(_, willRetry: true) = outcome {
            log.notice("the revocation failed (\(failure?.codeName ?? "?")); it is kept and retried later")
        } else {
            await pending.remove(revocable.token)
        }
        if revocable.hint == "refresh_token", failure == nil {
            try? await refresher.revoke(token: ending.accessToken.unredacted(), hint: "access_token")
        }
        await deleteWhatAnotherHolderWrote(revoked: revocable.token)
        return SignOutReport(
            localDataDeleted: deletionError == nil, localDeletionError: deletionError, revocation: outcome)
    }

    /// Another holder (an extension, another process) may be refreshing this grant right now: wait for its round
    /// under the grant lock, then delete what it wrote and revoke the refresh token it rotated to, so a signed-out
    /// grant is never written back. Bounded by the lock's lease and timeout; best effort.
    private func deleteWhatAnotherHolderWrote(revoked: String) async {
        // This session's own refresh in flight holds the lock: no other holder is refreshing, and the stale round
        // purges and revokes by itself (waiting for it here would wait for our own request).
        guard machine.flight == nil else { return }
        guard let lease = try? await store.grantLock.acquire(service: service, account: account) else { return }
        if case .success(let leftover?) = await readStore() {
            try? await store.deleteTokens(service: service, account: account)
            if let rotated = leftover.refreshToken?.unredacted(), rotated != revoked {
                try? await refresher.revoke(token: rotated, hint: "refresh_token")
            }
        }
        await lease.release()
    }

    private func publish() {
        let new = machine.state
        guard new != published else { return }
        published = new
        continuation.yield(new)
        subscribers.withLock { state in
            state.latest = new
            for stream in state.streams.values { stream.yield(new) }
        }
    }
}
