import Foundation
import WardenCore

/// Fetches and caches a provider's JWKS over an ``HTTPTransport``.
///
/// - Honours `Cache-Control: max-age` within bounds (default 5 minutes to 24 hours; 1 hour without a header).
/// - On a token with an unknown `kid` (OpenID Connect Core §10.1.1: the provider rotated its keys) it refetches
///   the set once and retries, then fails closed — at most one such refetch per ``minimumRefetchInterval``
///   (default 60 s), so a flood of forged `kid`s cannot turn into a flood of requests. The first rotation after a
///   regular fetch is followed at once.
/// - When a refetch fails it keeps serving the last good set, and asks again after ``minimumRefetchInterval``.
/// - Concurrent verifications that need the set share one fetch (a cold server under load asks once).
///
/// ```swift
/// let cache = JWKSCache(url: metadata.jwksURI, transport: URLSessionTransport())
/// let claims = try await cache.verify(token) { keys in
///     IDTokenVerifier(issuer: issuer, clientID: clientID, keys: keys)
/// }
/// ```
///
/// Thread-safety: an actor.
public actor JWKSCache {
    /// The JWKS endpoint.
    public let url: URL
    let transport: any HTTPTransport
    let now: NowProvider
    /// The least time, in seconds, between two refetches forced by an unknown `kid`, and how long a failed refresh
    /// keeps serving the last good set before asking again.
    public let minimumRefetchInterval: TimeInterval
    /// The range, in seconds, that a response's `Cache-Control: max-age` is clamped into.
    public let maximumAgeBounds: ClosedRange<TimeInterval>

    private var current: JWKSet?
    private var expiresAt: Date = .distantPast
    private var lastForcedRefetch: Date = .distantPast
    private var inflight: Task<Result<JWKSet, JOSEError>, Never>?
    private(set) var fetchCount = 0
    /// With no set at all, a failed fetch is not repeated before this time (1 s, doubling to the refetch interval):
    /// callers get the failure at once instead of one request each to an endpoint that is down.
    private var failure: (error: JOSEError, retryAt: Date, backoff: TimeInterval)?

    /// A cache of the JWKS at `url`, fetched over `transport`; `minimumRefetchInterval` defaults to 60 s,
    /// `maximumAgeBounds` to 5 minutes to 24 hours, and `now` to the system clock.
    public init(
        url: URL, transport: any HTTPTransport, minimumRefetchInterval: TimeInterval = 60,
        maximumAgeBounds: ClosedRange<TimeInterval> = 300...86_400, now: @escaping NowProvider = systemNow
    ) {
        self.url = url
        self.transport = transport
        self.minimumRefetchInterval = minimumRefetchInterval
        self.maximumAgeBounds = maximumAgeBounds
        self.now = now
    }

    /// The cached set, fetched when missing or stale (a failed refresh of a stale set serves the stale set).
    public func keySet() async throws(JOSEError) -> JWKSet {
        if let current, now() < expiresAt { return current }
        return try await refresh(force: false)
    }

    /// Runs `verify` with the cached keys; on ``JOSEErrorDomain/Code/unknownKid`` refetches once (rate-limited) and
    /// retries.
    public func verify<T: Sendable>(_ token: String, _ verify: @Sendable (JWKSet) throws(JOSEError) -> T)
        async throws(JOSEError) -> T
    {
        let fetches = fetchCount
        let keys = try await keySet()
        do {
            return try verify(keys)
        } catch  where error.code == .unknownKid {
            // A set fetched for this very call is as fresh as a refetch would be.
            guard fetchCount == fetches, now().timeIntervalSince(lastForcedRefetch) >= minimumRefetchInterval else {
                throw error
            }
            lastForcedRefetch = now()
            return try verify(try await refresh(force: true))
        }
    }

    /// One fetch at a time: callers that find the set missing or stale while a fetch is running wait for it.
    private func refresh(force: Bool) async throws(JOSEError) -> JWKSet {
        if let inflight { return try await inflight.value.get() }
        if current == nil, let failure, now() < failure.retryAt { throw failure.error }
        let fetch = Task { await self.fetch() }
        inflight = fetch
        let result = await fetch.value
        inflight = nil
        return try result.get()
    }

    private func fetch() async -> Result<JWKSet, JOSEError> {
        do throws(JOSEError) { return .success(try await fetchOnce()) } catch { return .failure(error) }
    }

    private func fetchOnce() async throws(JOSEError) -> JWKSet {
        fetchCount += 1
        do {
            let response = try await transport.send(
                HTTPRequest(url: url, headers: ["Accept": "application/json"], timeout: 15))
            guard response.status == 200 else {
                throw JOSEError(.keySetUnavailable, "the JWKS endpoint answered HTTP \(response.status)")
            }
            guard response.body.count <= 1 << 20 else { throw JOSEError(.keySetUnavailable, "JWKS over 1 MiB") }
            let set = try JWKSet(json: Array(response.body))
            current = set
            failure = nil
            expiresAt = now().addingTimeInterval(maxAge(response.header("Cache-Control")))
            return set
        } catch {
            if let current {
                // Serve the last good set, and do not ask again at every token while the endpoint is down.
                expiresAt = now().addingTimeInterval(minimumRefetchInterval)
                return current
            }
            let reported: JOSEError
            if let error = error as? JOSEError, error.code != .keySetUnavailable {
                reported = JOSEError(.keySetUnavailable, "the JWKS is unusable: \(error.reason)")
            } else {
                reported = JOSEError(
                    .keySetUnavailable,
                    "the JWKS could not be fetched: \((error as? any WardenError)?.reason ?? "transport error")")
            }
            let backoff = min(max(1, (failure?.backoff ?? 0.5) * 2), max(1, minimumRefetchInterval))
            failure = (reported, now().addingTimeInterval(backoff), backoff)
            throw reported
        }
    }

    private func maxAge(_ cacheControl: String?) -> TimeInterval {
        var age: TimeInterval = 3600
        if let cacheControl {
            for directive in cacheControl.split(separator: ",") {
                let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                // delta-seconds (RFC 9111 §1.2.2): digits only — "nan", "-1", "1e9" or "inf" would make the expiry
                // undefined (NaN never compares, so every call would refetch).
                if parts.count == 2, parts[0].lowercased() == "max-age", !parts[1].isEmpty,
                    parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) })
                {
                    age = TimeInterval(parts[1].prefix(9)) ?? age
                }
                if parts.first?.lowercased() == "no-store" || parts.first?.lowercased() == "no-cache" {
                    age = 0
                }
            }
        }
        return min(max(age, maximumAgeBounds.lowerBound), maximumAgeBounds.upperBound)
    }
}
