import Dispatch
import Foundation
import WardenCore

/// One HTTP request as received by ``LoopbackHTTPServer``.
public struct LoopbackRequest: HTTPMessage {
    public let method: String
    /// The request target as sent (`/callback?code=...`).
    public let target: String
    public let headers: [String: String]
    public let body: Data

    /// The path part of the target.
    public var path: String { String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]) }
    /// The query part of the target, if any.
    public var query: String? {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count > 1 ? String(parts[1]) : nil
    }
}

/// Responses ``LoopbackHTTPServer`` handlers commonly send.
extension HTTPResponse {
    /// A `text/plain` UTF-8 response.
    public static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// An `application/json` response with `Cache-Control: no-store`; `headers` are added and win over both.
    public static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: headers.merging(["Content-Type": "application/json", "Cache-Control": "no-store"]) { a, _ in a },
            body: Data(text.utf8))
    }
}

/// A minimal HTTP/1.1 server bound to 127.0.0.1 only, for the RFC 8252 §7.3 redirect listener and the local
/// demo provider. One request per connection (`Connection: close`); request lines over 8 KiB, headers over 16 KiB
/// and bodies over 64 KiB are refused with 4xx; malformed requests get 400. Never for production traffic.
///
/// Thread-safety: the accept loop runs on its own dispatch queue; handlers run concurrently on a concurrent
/// queue and must be thread-safe.
public final class LoopbackHTTPServer: Sendable {
    public typealias Handler = @Sendable (LoopbackRequest) -> HTTPResponse

    /// The bound port.
    public let port: UInt16
    private let descriptor: Int32
    private let handler: Handler
    private let stopped = Locked(false)
    private let finished = DispatchSemaphore(value: 0)

    static let maximumHeaderBytes = 16 * 1024
    static let maximumBodyBytes = 64 * 1024

    /// Binds 127.0.0.1 (port 0 = ephemeral) and starts serving.
    public init(port: UInt16 = 0, handler: @escaping Handler) throws {
        let (descriptor, bound) = try Sockets.listenLoopback(port: port)
        self.descriptor = descriptor
        self.port = bound
        self.handler = handler
        let workers = DispatchQueue(label: "warden.loopback.workers", attributes: .concurrent)
        DispatchQueue(label: "warden.loopback.accept").async { [self] in
            while !stopped.current {
                guard let client = Sockets.accept(descriptor, timeoutMilliseconds: 100) else { continue }
                workers.async { [self] in serve(client) }
            }
            Sockets.close(descriptor)
            finished.signal()
        }
    }

    /// Stops accepting and closes the socket (waits for the accept loop to end).
    public func stop() {
        let wasStopped = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return stopped
        }
        if !wasStopped { finished.wait() }
    }

    deinit { stop() }

    private func serve(_ client: Int32) {
        defer { Sockets.close(client) }
        let response: HTTPResponse
        switch Self.readRequest(client) {
        case .success(let request): response = handler(request)
        case .failure(let status):
            response = .text(status.code, status.code == 431 ? "Request header fields too large" : "Bad request")
        }
        Sockets.write(client, Self.encode(response))
    }

    struct Status: Error { let code: Int }

    static func readRequest(_ client: Int32) -> Result<LoopbackRequest, Status> {
        var buffer: [UInt8] = []
        var headerEnd: Int?
        while headerEnd == nil {
            let chunk = Sockets.read(client, maximum: 4096)
            guard !chunk.isEmpty else { return .failure(Status(code: 400)) }
            buffer += chunk
            headerEnd = find(buffer, [13, 10, 13, 10])
            if headerEnd == nil && buffer.count > maximumHeaderBytes { return .failure(Status(code: 431)) }
        }
        guard let end = headerEnd, end <= maximumHeaderBytes,
            let head = String(bytes: buffer[..<end], encoding: .utf8)
        else { return .failure(Status(code: 431)) }
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."), requestLine[1].hasPrefix("/"),
            requestLine[1].utf8.count <= 8 * 1024, requestLine[0].allSatisfy({ $0.isUppercase }),
            !requestLine[0].isEmpty,
            requestLine[1].utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return .failure(Status(code: 400)) }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return .failure(Status(code: 400)) }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(buffer[(end + 4)...])
        let length = headers.first { $0.key.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        guard length >= 0, length <= maximumBodyBytes else { return .failure(Status(code: 413)) }
        while body.count < length {
            let chunk = Sockets.read(client, maximum: min(65536, length - body.count))
            guard !chunk.isEmpty else { return .failure(Status(code: 400)) }
            body += chunk
        }
        return .success(
            LoopbackRequest(
                method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
                body: Data(body.prefix(length))))
    }

    static func find(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count)
        where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }

    static func encode(_ response: HTTPResponse) -> [UInt8] {
        let reasons = [
            200: "OK", 302: "Found", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
            405: "Method Not Allowed",
            413: "Payload Too Large", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
            500: "Internal Server Error",
            503: "Service Unavailable",
        ]
        var head = "HTTP/1.1 \(response.status) \(reasons[response.status] ?? "Status")\r\n"
        var headers = response.headers
        headers["Content-Length"] = "\(response.body.count)"
        headers["Connection"] = "close"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + Array(response.body)
    }
}
