import Foundation
import WardenCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession` (FoundationNetworking on Linux).
///
/// - Refuses `http://` URLs except to loopback hosts (tokens never cross the network in clear).
/// - Applies the request's timeout, caps response bodies (default 1 MiB) and maps `URLError`s to
///   ``TransportError`` codes so retry decisions can be made (`timedOut`, `cannotConnect`, ...).
/// - Uses an ephemeral configuration: no cookies, no URL cache, so tokens are never written to disk by the
///   networking stack.
///
/// Thread-safety: `Sendable`; one instance can serve every task.
public final class URLSessionTransport: HTTPTransport, Sendable {
    private let session: URLSession
    /// The largest response body accepted.
    public let maximumResponseBytes: Int

    /// A transport with its own ephemeral session.
    public init(maximumResponseBytes: Int = 1 << 20) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
        self.maximumResponseBytes = maximumResponseBytes
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Self.checkScheme(request.url)
        var urlRequest = URLRequest(url: request.url, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            throw Self.map(error)
        } catch is CancellationError {
            throw TransportError(.cancelled)
        } catch {
            throw TransportError(.other, "the request failed")
        }
        guard let http = response as? HTTPURLResponse else { throw TransportError(.other, "not an HTTP response") }
        guard data.count <= maximumResponseBytes else {
            throw TransportError(.responseTooLarge, "response body over \(maximumResponseBytes) bytes")
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    /// `https` anywhere; `http` only to loopback (RFC 8252 §8.3 providers on 127.0.0.1 in tests and demos).
    static func checkScheme(_ url: URL) throws {
        switch url.scheme?.lowercased() {
        case "https": return
        case "http" where LoopbackHost.isLoopback(url): return
        default: throw TransportError(.insecureURL, "only https URLs (or http to loopback) are allowed")
        }
    }

    static func map(_ error: URLError) -> TransportError {
        switch error.code {
        case .timedOut: TransportError(.timedOut)
        case .cannotConnectToHost: TransportError(.cannotConnect)
        case .networkConnectionLost: TransportError(.connectionLost)
        case .dnsLookupFailed, .cannotFindHost: TransportError(.dnsLookupFailed)
        case .notConnectedToInternet: TransportError(.notConnected)
        case .cancelled: TransportError(.cancelled)
        default: TransportError(.other, "URL error \(error.code.rawValue)")
        }
    }
}
