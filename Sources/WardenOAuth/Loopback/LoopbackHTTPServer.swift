// Sockets: compiled where Package.swift defines WARDEN_LOOPBACK (macOS, Linux).
#if WARDEN_LOOPBACK
    import Dispatch
    import Foundation
    import WardenCore

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

    /// A minimal HTTP/1.1 server bound to 127.0.0.1 only, for the RFC 8252 §7.3 redirect listener and the local
    /// demo provider. One request per connection (`Connection: close`); request lines over 8 KiB, headers over 16 KiB
    /// and bodies over 64 KiB are refused with 4xx; malformed requests get 400. Never for production traffic.
    ///
    /// Any local process can connect to a loopback port, so no peer can hold the server: one event-loop thread reads
    /// every connection without blocking, a request must arrive whole within ``requestDeadline`` (a peer trickling a
    /// byte at a time is dropped there, not kept alive by each byte), at most ``maximumConnections`` wait at once (a
    /// new one evicts the oldest that has sent nothing, else the oldest), each new connection is read at once, and
    /// only complete requests reach the handler's workers. Idle
    /// connections cost a descriptor each, never a worker: the browser's callback is answered at once behind 300 of
    /// them.
    ///
    /// Thread-safety: the event loop runs on its own thread; handlers run concurrently on a concurrent queue and
    /// must be thread-safe.
    package final class LoopbackHTTPServer: Sendable {
        package typealias Handler = @Sendable (LoopbackRequest) -> HTTPResponse

        /// The bound port.
        package let port: UInt16
        /// How long a connection may take to deliver its whole request.
        package let requestDeadline: Duration
        /// Incomplete requests kept at once.
        package let maximumConnections: Int
        private let descriptor: Int32
        private let handler: Handler
        private let stopped = Locked(false)
        private let finished = DispatchSemaphore(value: 0)
        private let workers = DispatchQueue(label: "warden.loopback.workers", attributes: .concurrent)

        /// Binds 127.0.0.1 (port 0 = ephemeral) and starts serving.
        package init(
            port: UInt16 = 0, requestDeadline: Duration = .seconds(5), maximumConnections: Int = 64,
            handler: @escaping Handler
        ) throws {
            let (descriptor, bound) = try Sockets.listenLoopback(port: port)
            Sockets.setNonBlocking(descriptor)
            self.descriptor = descriptor
            self.port = bound
            self.requestDeadline = requestDeadline
            self.maximumConnections = max(1, maximumConnections)
            self.handler = handler
            let loop = Thread { [self] in serveConnections() }
            loop.name = "warden.loopback.events"
            loop.start()
        }

        /// Stops accepting and closes the socket and every waiting connection (waits for the event loop to end).
        package func stop() {
            let wasStopped = stopped.withLock { stopped -> Bool in
                defer { stopped = true }
                return stopped
            }
            if !wasStopped { finished.wait() }
        }

        deinit { stop() }

        /// A connection whose request has not arrived whole yet.
        private struct Waiting {
            var parser = LoopbackRequestParser()
            let accepted: ContinuousClock.Instant
            let deadline: ContinuousClock.Instant
            /// Whether the peer sent anything yet: a full server evicts a silent peer first.
            var received = false
        }

        /// Connections accepted per pass of the loop, so a flood of new ones cannot starve those already waiting.
        private static let acceptsPerPass = 64

        /// The event loop: accept (reading each new connection at once: a browser has usually sent its request by
        /// then), read what each connection has, hand complete requests to the workers, drop what is past its deadline.
        private func serveConnections() {
            var waiting: [Int32: Waiting] = [:]
            while !stopped.current {
                let now = ContinuousClock.now
                for (fd, connection) in waiting where connection.deadline <= now {
                    Sockets.close(fd)
                    waiting[fd] = nil
                }
                var wait = Duration.milliseconds(100)
                if let nearest = waiting.values.map(\.deadline).min() { wait = min(wait, nearest - now) }
                let milliseconds = Int32(
                    clamping: max(
                        0, wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
                        + 1)
                let ready = Sockets.readable([descriptor] + Array(waiting.keys), timeoutMilliseconds: milliseconds)
                for fd in ready where fd != descriptor { read(fd, &waiting) }
                guard ready.contains(descriptor) else { continue }
                for _ in 0..<Self.acceptsPerPass {
                    guard let client = Sockets.acceptPending(descriptor) else { break }
                    if waiting.count >= maximumConnections { evictOne(&waiting) }
                    let accepted = ContinuousClock.now
                    waiting[client] = Waiting(accepted: accepted, deadline: accepted + requestDeadline)
                    read(client, &waiting)
                }
            }
            for fd in waiting.keys { Sockets.close(fd) }
            Sockets.close(descriptor)
            finished.signal()
        }

        /// Makes room: the oldest peer that has sent nothing, else the oldest.
        private func evictOne(_ waiting: inout [Int32: Waiting]) {
            let silent = waiting.filter { !$0.value.received }
            let pool = silent.isEmpty ? waiting : silent
            guard let oldest = pool.min(by: { $0.value.accepted < $1.value.accepted })?.key else { return }
            Sockets.close(oldest)
            waiting[oldest] = nil
        }

        /// Reads what `fd` has now; a complete (or refused) request leaves the loop for a worker.
        private func read(_ fd: Int32, _ waiting: inout [Int32: Waiting]) {
            guard var connection = waiting[fd] else { return }
            let state: LoopbackRequestParser.State
            switch Sockets.readAvailable(fd, maximum: connection.parser.wanted) {
            case .nothing: return
            case .closed: state = connection.parser.feed([])
            case .bytes(let bytes):
                connection.received = true
                state = connection.parser.feed(bytes)
            }
            switch state {
            case .needMore:
                waiting[fd] = connection
            case .complete(let request):
                waiting[fd] = nil
                let handler = self.handler
                let deadline = ContinuousClock.now + requestDeadline
                workers.async { Self.respond(fd, handler(request), until: deadline) }
            case .failed(let failure):
                waiting[fd] = nil
                let deadline = ContinuousClock.now + requestDeadline
                let response = HTTPResponse.text(
                    failure.status, failure.status == 431 ? "Request header fields too large" : "Bad request")
                workers.async { Self.respond(fd, response, until: deadline) }
            }
        }

        private static func respond(_ client: Int32, _ response: HTTPResponse, until deadline: ContinuousClock.Instant)
        {
            Sockets.write(client, encode(response), until: deadline)
            Sockets.close(client)
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
