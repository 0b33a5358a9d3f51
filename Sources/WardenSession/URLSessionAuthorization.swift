import Foundation
import WardenCore
import WardenOAuth

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension AuthSession {
    /// The headers that carry `token` for one request: `Authorization: Bearer`, or for DPoP-bound tokens
    /// `Authorization: DPoP` plus a fresh `DPoP` proof of this method and URL — never a Bearer fallback.
    func credentialHeaders(method: String, url: URL, token: String) async throws -> [String: String] {
        guard let bound = currentTokens?.dpopThumbprint else { return ["Authorization": "Bearer " + token] }
        guard let dpop, dpop.thumbprint == bound else {
            throw SessionError(.signedOut, "the DPoP key these tokens are bound to is missing; sign in again")
        }
        return [
            "Authorization": "DPoP " + token, "DPoP": try dpop.proof(method: method, url: url, accessToken: token),
        ]
    }

    /// `request` with this session's credentials, for apps that send their own `URLRequest`s (URLSession,
    /// Alamofire): a valid access token (refreshed, single-flight, when it expires within `minimumTTL`), as
    /// `Authorization: Bearer` or, for DPoP-bound tokens, `Authorization: DPoP` with a proof of this request.
    ///
    /// ```swift
    /// var request = URLRequest(url: URL(string: "https://api.example.com/me")!)
    /// request = try await session.authorize(request)
    /// ```
    public func authorize(_ request: URLRequest, minimumTTL: TimeInterval = 30) async throws -> URLRequest {
        let token = try await validAccessToken(minTTL: minimumTTL)
        return try await authorize(request, token: token)
    }

    func authorize(_ request: URLRequest, token: String) async throws -> URLRequest {
        guard let url = request.url else { throw TransportError(.other, "the request has no URL") }
        // The token never travels in cleartext: https, or http to a loopback IP literal (tests, local tools).
        try URLSessionTransport.checkScheme(url)
        var authorized = request
        for (name, value) in try await credentialHeaders(
            method: request.httpMethod ?? "GET", url: url, token: token)
        {
            authorized.setValue(value, forHTTPHeaderField: name)
        }
        return authorized
    }

    /// What an API request's outcome says about the network: an HTTP response means reachable; a connectivity
    /// failure (offline, DNS, refused, lost, timed out) makes the session offline; anything else is the request's.
    func report(_ error: any Error) {
        guard let urlError = error as? URLError else { return }
        let mapped = URLSessionTransport.map(urlError)
        if mapped.isConnectivity { requestFailed(mapped) }
    }
}

extension URLSession {
    /// Sends `request` with `session`'s credentials through this URLSession — your configuration, caching, limits and
    /// redirects. A 401 whose challenge says the token is invalid refreshes once (single-flight with every other
    /// caller, and only if the request carried the current token) and sends the request again; a second 401 is
    /// returned. Connectivity failures make the session offline (read-only); an HTTP response from the network makes
    /// it reachable (one from the URL cache alone does not).
    ///
    /// Transient failures are retried as ``AuthorizedClient`` retries them (`retryPolicy`): connectivity errors and
    /// 500/502/503/504 back off, a 429/503 `Retry-After` is waited exactly — or, beyond the policy's budget, thrown
    /// at once as ``SessionError/Code/rateLimited`` with the time the server allows — and only idempotent methods
    /// (GET, HEAD, OPTIONS, PUT, DELETE) are retried unless the policy says otherwise. `RetryPolicy(maximumAttempts:
    /// 1)` sends once.
    ///
    /// ```swift
    /// let (data, response) = try await URLSession.shared.data(for: URLRequest(url: me), authorizedBy: session)
    /// ```
    public func data(
        for request: URLRequest, authorizedBy session: AuthSession, retryPolicy: RetryPolicy = RetryPolicy()
    ) async throws -> (Data, URLResponse) {
        var token = try await session.validAccessToken(minTTL: 30)
        var (data, response) = try await sendRetrying(request, token: token, session: session, policy: retryPolicy)
        // Only a 401 from the server the token was sent to (no redirect in between) says anything about the token.
        if let http = response as? HTTPURLResponse, http.statusCode == 401, http.url == request.url,
            AuthorizedClient.isInvalidToken(HTTPResponse(status: 401, headers: Self.headers(http)))
        {
            token = try await session.refresh(ifCurrent: token)
            (data, response) = try await sendRetrying(request, token: token, session: session, policy: retryPolicy)
        }
        return (data, response)
    }

    /// ``send(_:token:session:)`` under `policy`: the retry loop ``AuthorizedClient`` runs too.
    private func sendRetrying(_ request: URLRequest, token: String, session: AuthSession, policy: RetryPolicy)
        async throws -> (Data, URLResponse)
    {
        try await policy.run(
            method: request.httpMethod ?? "GET", now: session.now, sleep: { try await Task.sleep(for: $0) },
            send: { try await send(request, token: token, session: session) },
            status: { answer in
                (answer.1 as? HTTPURLResponse).map { ($0.statusCode, $0.value(forHTTPHeaderField: "Retry-After")) }
            },
            transportError: { ($0 as? URLError).map(URLSessionTransport.map) })
    }

    private func send(_ request: URLRequest, token: String, session: AuthSession) async throws -> (Data, URLResponse) {
        let authorized = try await session.authorize(request, token: token)
        let guardian = CredentialRedirectGuard(dpop: session.dpop != nil)
        do {
            var (data, response) = try await guardian.data(for: authorized, on: self)
            if let dpop = session.dpop, let http = response as? HTTPURLResponse, let url = request.url,
                http.url == url
            {
                let observed = HTTPResponse(status: http.statusCode, headers: Self.headers(http))
                if dpop.record(observed, from: url), DPoPBinding.asksForNonce(observed) {
                    // One retry with the resource server's new nonce (RFC 9449 §9).
                    (data, response) = try await guardian.data(
                        for: try await session.authorize(request, token: token), on: self)
                    if let retried = response as? HTTPURLResponse {
                        dpop.record(HTTPResponse(status: retried.statusCode, headers: Self.headers(retried)), from: url)
                    }
                }
            }
            if guardian.reachedNetwork { await session.requestSucceeded() }
            return (data, response)
        } catch {
            await session.report(error)
            throw error
        }
    }

    private static func headers(_ response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return headers
    }
}

/// Keeps the credentials on the origin they were issued for when the app's URLSession follows a redirect: a redirect to
/// another scheme, host or port loses `Authorization` and `DPoP` (as browsers drop `Authorization` across origins);
/// a DPoP proof names one URL, so any redirect of a DPoP request loses them.
///
/// It also watches the task's metrics: a response served from the app's `URLCache` without the network says nothing
/// about connectivity, so it does not bring an offline session back.
final class CredentialRedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    let dpop: Bool
    /// For each transaction of the task, whether it was served from the local cache (empty when the platform
    /// reports no metrics).
    private let fromLocalCache = Locked<[Bool]>([])

    init(dpop: Bool) { self.dpop = dpop }

    /// Whether the request's response shows the network works: not when every transaction came from the local
    /// cache. Without metrics (swift-corelibs-foundation reports none, and caches nothing either) it does.
    static func reachedNetwork(fromLocalCache: [Bool]) -> Bool {
        fromLocalCache.isEmpty || fromLocalCache.contains(false)
    }

    var reachedNetwork: Bool { Self.reachedNetwork(fromLocalCache: fromLocalCache.current) }

    #if !canImport(FoundationNetworking)
        /// `resourceFetchType` (iOS 10, macOS 10.12): `.localCache` for a response the URL cache served.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics
        ) {
            let cached = metrics.transactionMetrics.map { $0.resourceFetchType == .localCache }
            fromLocalCache.withLock { $0 = cached }
        }
    #endif

    /// The redirected request, with the credentials removed unless it stays on the same origin (and is not DPoP).
    static func redirected(_ request: URLRequest, from original: URL?, dpop: Bool) -> URLRequest {
        var next = request
        let sameOrigin =
            original.map { from in
                guard let to = request.url else { return false }
                return from.scheme?.lowercased() == to.scheme?.lowercased()
                    && from.host?.lowercased() == to.host?.lowercased() && from.port == to.port
            } ?? false
        if dpop || !sameOrigin {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
            next.setValue(nil, forHTTPHeaderField: "DPoP")
        }
        return next
    }

    #if canImport(FoundationNetworking)
        /// The app session's delegate (swift-corelibs-foundation: the request runs on a guarded session of its own).
        nonisolated(unsafe) private var appDelegate: (any URLSessionTaskDelegate)?

        /// The app's delegate decides first (it may refuse or rewrite the redirect), then the credentials rule.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            let (original, dpop) = (task.originalRequest?.url, dpop)
            let stripped = Self.redirected(request, from: original, dpop: dpop)
            guard let appDelegate else { return completionHandler(stripped) }
            appDelegate.urlSession(
                session, task: task, willPerformHTTPRedirection: response, newRequest: stripped
            ) { decided in
                completionHandler(decided.map { Self.redirected($0, from: original, dpop: dpop) })
            }
        }
    #else
        /// The app session's delegate decides first (a task delegate would otherwise override its redirect policy:
        /// it may refuse or rewrite the redirect), then the credentials rule, on whatever request it chose.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            let (original, dpop) = (task.originalRequest?.url, dpop)
            let stripped = Self.redirected(request, from: original, dpop: dpop)
            guard let appDelegate = session.delegate as? any URLSessionTaskDelegate, appDelegate !== self else {
                return completionHandler(stripped)
            }
            let asked: Void? = appDelegate.urlSession?(
                session, task: task, willPerformHTTPRedirection: response, newRequest: stripped
            ) { decided in
                completionHandler(decided.map { Self.redirected($0, from: original, dpop: dpop) })
            }
            if asked == nil { completionHandler(stripped) }
        }
    #endif

    /// Runs `request` on `session` with this guard watching its redirects. Apple's URLSession takes a per-task
    /// delegate (iOS 15), which asks the session's delegate about redirects first; swift-corelibs-foundation ignores
    /// per-task delegates, so there the request runs on a session with the same configuration and this guard as its
    /// delegate, which asks the app session's delegate about redirects (its other callbacks, such as authentication
    /// challenges, get the default handling there).
    func data(for request: URLRequest, on session: URLSession) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking)
            appDelegate = session.delegate as? any URLSessionTaskDelegate
            let guarded = URLSession(configuration: session.configuration, delegate: self, delegateQueue: nil)
            defer { guarded.finishTasksAndInvalidate() }
            return try await guarded.data(for: request)
        #else
            return try await session.data(for: request, delegate: self)
        #endif
    }
}
