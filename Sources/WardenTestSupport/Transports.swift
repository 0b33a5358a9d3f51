import Foundation
import WardenCore
import WardenOAuth

/// A transport that answers every request with `handler` and records what it was sent: the tests' provider
/// stand-in where a real one would prove nothing more (status mapping, request shape, retry decisions).
package final class RecordingTransport: HTTPTransport, @unchecked Sendable {  // state in Locked
    private let handler: @Sendable (HTTPRequest) async throws -> HTTPResponse
    private let requests = Locked<[HTTPRequest]>([])

    package init(_ handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) { self.handler = handler }

    /// Answers from `script` in order, repeating its last entry once the others are used up.
    package convenience init(script: [Result<HTTPResponse, TransportError>]) {
        precondition(!script.isEmpty, "a scripted transport needs at least one answer")
        let remaining = Locked(script)
        self.init { _ in
            try remaining.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }.get()
        }
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.withLock { $0.append(request) }
        return try await handler(request)
    }

    /// Every request sent so far, in order.
    package var sent: [HTTPRequest] { requests.current }
    /// How many requests were sent.
    package var count: Int { requests.withLock { $0.count } }
}

/// Wraps a real transport, records the path of every request and can be switched offline (airplane mode for one
/// holder of a grant): then it fails every request with `notConnected`, as URLSession does.
package final class CountingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let paths = Locked<[String]>([])
    /// While true, every request fails below HTTP with ``TransportErrorDomain/Code-swift.struct/notConnected``.
    package let offline = Locked(false)

    package init(_ inner: any HTTPTransport = URLSessionTransport()) { self.inner = inner }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        paths.withLock { $0.append(request.url.path) }
        guard !offline.current else { throw TransportError(.notConnected) }
        return try await inner.send(request)
    }

    /// The path of every request sent so far (offline ones included), in order.
    package var sent: [String] { paths.current }
    /// How many requests were sent.
    package var count: Int { paths.withLock { $0.count } }
}

/// A transport to a provider whose port is closed: every request is refused (`cannotConnect`).
package struct RefusingTransport: HTTPTransport {
    package init() {}
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw TransportError(.cannotConnect) }
}
