import Foundation
import WardenCore
import WardenOAuth

/// Sends API requests with `Authorization: Bearer <token>` from an ``AuthSession`` (never a query parameter).
///
/// On a 401 (with `WWW-Authenticate: Bearer error="invalid_token"` or plain) it refreshes only if the failed
/// request carried the current token, then retries once; a second 401 is returned, not looped. Transient failures
/// are retried per ``RetryPolicy``, sleeping through the injected clock.
///
/// ```swift
/// let client = AuthorizedClient(session: session, transport: URLSessionTransport())
/// let response = try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/me")!))
/// ```
public struct AuthorizedClient: Sendable {
    /// The session whose access token authorizes each request.
    public let session: AuthSession
    let transport: any HTTPTransport
    /// How transient failures are retried (default: ``RetryPolicy``'s defaults).
    public let retryPolicy: RetryPolicy
    let clock: any Clock<Duration>
    /// The shortest remaining lifetime, in seconds, an access token must have to be sent without
    /// refreshing first (default 30).
    public let minimumTTL: TimeInterval

    let now: NowProvider

    /// A client for `session` over `transport`, sleeping between retries on `clock`.
    public init(
        session: AuthSession, transport: any HTTPTransport, retryPolicy: RetryPolicy = RetryPolicy(),
        clock: any Clock<Duration> = ContinuousClock(), minimumTTL: TimeInterval = 30,
        now: @escaping NowProvider = systemNow
    ) {
        self.now = now
        self.session = session
        self.transport = transport
        self.retryPolicy = retryPolicy
        self.clock = clock
        self.minimumTTL = minimumTTL
    }

    /// Sends `request` with the session's token.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var token = try await session.validAccessToken(minTTL: minimumTTL)
        var response = try await reporting { try await sendWithRetry(request, token: token) }
        if response.status == 401, Self.isInvalidToken(response) {
            token = try await session.refresh(ifCurrent: token)
            response = try await reporting { try await sendWithRetry(request, token: token) }
        }
        return response
    }

    /// Any request's outcome moves the session: a connectivity failure (after the retries) marks it offline
    /// (`canMutate == false`), any HTTP response marks it reachable again. A too-large response, an insecure URL or a
    /// refused redirect is the request's problem, not the network's: it leaves the session as it is.
    private func reporting(_ body: () async throws -> HTTPResponse) async throws -> HTTPResponse {
        do {
            let response = try await body()
            await session.requestSucceeded()
            return response
        } catch let error as TransportError where error.isConnectivity {
            await session.requestFailed(error)
            throw error
        }
    }

    static func isInvalidToken(_ response: HTTPResponse) -> Bool {
        guard let challenge = response.header("WWW-Authenticate") else { return true }
        guard challenge.lowercased().hasPrefix("bearer") || challenge.lowercased().hasPrefix("dpop") else {
            return false
        }
        return !challenge.contains("error=") || challenge.contains("invalid_token")
    }

    /// The request with its credentials: `Authorization: Bearer`, or for DPoP-bound tokens `Authorization: DPoP`
    /// plus a fresh `DPoP` proof (with `ath` and the resource server's latest nonce) — never a Bearer fallback.
    private func authorize(_ request: HTTPRequest, token: String) async throws -> HTTPRequest {
        var authorized = request
        for (name, value) in try await session.credentialHeaders(method: request.method, url: request.url, token: token)
        {
            authorized.headers[name] = value
        }
        return authorized
    }

    private func sendWithRetry(_ request: HTTPRequest, token: String) async throws -> HTTPResponse {
        var nonceRetried = false
        return try await retryPolicy.run(
            method: request.method, now: now, sleep: { try await clock.sleep(for: $0) },
            send: {
                var response = try await transport.send(try await authorize(request, token: token))
                if let dpop = session.dpop, dpop.record(response, from: request.url), !nonceRetried,
                    DPoPBinding.asksForNonce(response)
                {
                    nonceRetried = true  // one retry with the resource server's new nonce (RFC 9449 §9)
                    response = try await transport.send(try await authorize(request, token: token))
                    dpop.record(response, from: request.url)
                }
                return response
            },
            status: { ($0.status, $0.header("Retry-After")) }, transportError: { $0 as? TransportError })
    }
}
