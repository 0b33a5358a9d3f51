import Foundation
import WardenCore
import WardenCrypto

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession` (FoundationNetworking on Linux), for every request Warden makes:
/// discovery, JWKS, token, revocation, PAR and API calls.
///
/// - Refuses `http://` URLs except to loopback IP literals (`127.0.0.0/8`, `::1`; never a name, `localhost` included): tokens never cross the network in clear.
/// - **Never follows a redirect**: a 3xx comes back as the response, and every Warden endpoint call refuses it
///   (a redirected discovery, JWKS or token request could hand codes and tokens to another host).
/// - Caps response bodies (default 1 MiB) **while streaming**: a `Content-Length` over the cap or the first byte
///   past it cancels the request with ``TransportErrorDomain/Code/responseTooLarge``; nothing larger is buffered.
/// - Maps `URLError`s to ``TransportError`` codes so retry decisions can be made (`timedOut`, `cannotConnect`, ...).
/// - Uses an ephemeral configuration by default: no cookies, no URL cache, so tokens are never written to disk.
/// - Certificate pins per host (``init(configuration:maximumResponseBytes:pins:now:)``) protect all of the above on Apple
///   platforms (system trust first, then the SPKI pins); on Linux configuring pins throws
///   ``TransportErrorDomain/Code/pinningUnsupported`` rather than silently not pinning.
///
/// ```swift
/// let transport = try URLSessionTransport(pins: ["id.example.com": try PinSet(pins: [current, backup], expires: date)])
/// let metadata = try await ProviderMetadata.discover(issuer: "https://id.example.com", transport: transport)
/// ```
///
/// Thread-safety: `Sendable`; one instance can serve every task.
public final class URLSessionTransport: HTTPTransport, Sendable {
    private let session: URLSession
    private let delegate: TransportDelegate
    /// The largest response body accepted.
    public let maximumResponseBytes: Int

    /// The default configuration: ephemeral, no cookies, no cache.
    public static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        return configuration
    }

    /// A transport with its own ephemeral session and no pins.
    public convenience init(maximumResponseBytes: Int = 1 << 20) {
        self.init(configuration: Self.defaultConfiguration(), maximumResponseBytes: maximumResponseBytes, trust: nil)
    }

    /// A transport over `configuration` (proxies, timeouts, headers of your choice; cookies and caching are
    /// turned off whatever it says) with certificate pins per host name (lowercased); `now` is the time the pin
    /// sets' expiry is judged at.
    public convenience init(
        configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration(),
        maximumResponseBytes: Int = 1 << 20, pins: [String: PinSet], now: @escaping NowProvider = systemNow
    ) throws(TransportError) {
        guard pins.isEmpty || ServerTrust.canEvaluate else {
            throw TransportError(
                .pinningUnsupported,
                "certificate pinning needs the platform's server trust, which this platform's URLSession does not expose"
            )
        }
        let lowered = Dictionary(pins.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.init(
            configuration: configuration, maximumResponseBytes: maximumResponseBytes,
            trust: lowered.isEmpty ? nil : ServerTrust(pins: lowered, now: now))
    }

    private init(configuration: URLSessionConfiguration, maximumResponseBytes: Int, trust: ServerTrust?) {
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        delegate = TransportDelegate(maximumResponseBytes: maximumResponseBytes, trust: trust)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        self.maximumResponseBytes = maximumResponseBytes
    }

    deinit { session.finishTasksAndInvalidate() }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Self.checkScheme(request.url)
        var urlRequest = URLRequest(url: request.url, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let task = session.dataTask(with: urlRequest)
        let cancel = CancelHandle(task: task)
        let (data, response) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                delegate.register(task, continuation)
                task.resume()
            }
        } onCancel: {
            cancel.cancel()
        }
        guard let http = response as? HTTPURLResponse else { throw TransportError(.other, "not an HTTP response") }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    /// `URLSessionTask` is documented thread-safe for `cancel()`.
    private struct CancelHandle: @unchecked Sendable {
        let task: URLSessionTask
        func cancel() { task.cancel() }
    }

    /// `https` anywhere; `http` only to loopback (RFC 8252 §8.3 providers on 127.0.0.1 in tests and demos).
    package static func checkScheme(_ url: URL) throws {
        switch url.scheme?.lowercased() {
        case "https": return
        case "http" where LoopbackHost.isLoopback(url): return
        default: throw TransportError(.insecureURL, "only https URLs (or http to a loopback IP literal) are allowed")
        }
    }

    package static func map(_ error: URLError) -> TransportError {
        switch error.code {
        case .timedOut: TransportError(.timedOut)
        case .cannotConnectToHost: TransportError(.cannotConnect)
        case .networkConnectionLost: TransportError(.connectionLost)
        case .dnsLookupFailed, .cannotFindHost: TransportError(.dnsLookupFailed)
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff, .callIsActive:
            TransportError(.notConnected)
        case .cancelled: TransportError(.cancelled)
        default: TransportError(.other, "URL error \(error.code.rawValue)")
        }
    }
}
