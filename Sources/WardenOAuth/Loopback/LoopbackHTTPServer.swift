// Sockets: compiled where Package.swift defines WARDEN_LOOPBACK (macOS, Linux).
#if WARDEN_LOOPBACK
    import Dispatch
    import Foundation
    import WardenCore

    /// One HTTP request as received by ``LoopbackHTTPServer``.
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
                headers: headers.merging(["Content-Type": "application/json", "Cache-Control": "no-store"]) { a, _ in a
                },
                body: Data(text.utf8))
        }
    }

    /// A minimal HTTP/1.1 server bound to 127.0.0.1 only, for the RFC 8252 §7.3 redirect listener and the local
    /// demo provider. One request per connection (`Connection: close`); request lines over 8 KiB, headers over 16 KiB
    /// and bodies over 64 KiB are refused with 4xx; malformed requests get 400. Never for production traffic.
    ///
    /// Thread-safety: the accept loop runs on its own dispatch queue; handlers run concurrently on a concurrent
    /// queue and must be thread-safe.
    /// A loopback port kept while nothing serves it: connections are refused, and no other socket of the machine is
    /// given the port in between (the local provider's simulated outage closes its server, then opens it again on
    /// the same port). Released when the reservation is dropped.
    package final class LoopbackPortReservation: Sendable {
        private let descriptor: Int32

        package init?(port: UInt16) {
            let descriptor = Sockets.reserveLoopback(port: port)
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
        }

        deinit { Sockets.close(descriptor) }
    }

    package final class LoopbackHTTPServer: Sendable {
        package typealias Handler = @Sendable (LoopbackRequest) -> HTTPResponse

        /// The bound port.
        package let port: UInt16
        private let descriptor: Int32
        private let handler: Handler
        private let stopped = Locked(false)
        private let finished = DispatchSemaphore(value: 0)

        /// Binds 127.0.0.1 (port 0 = ephemeral) and starts serving.
        package init(port: UInt16 = 0, handler: @escaping Handler) throws {
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
        package func stop() {
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
            case .failure(let failure):
                response = .text(
                    failure.status, failure.status == 431 ? "Request header fields too large" : "Bad request")
            }
            Sockets.write(client, Self.encode(response))
        }

        /// Reads one request from the socket through ``LoopbackRequestParser`` (which holds every rule and cap).
        static func readRequest(_ client: Int32) -> Result<LoopbackRequest, LoopbackRequestParser.Failure> {
            var parser = LoopbackRequestParser()
            while true {
                let chunk = Sockets.read(client, maximum: parser.wanted)
                switch parser.feed(chunk) {
                case .needMore: continue
                case .complete(let request): return .success(request)
                case .failed(let failure): return .failure(failure)
                }
            }
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
#endif
