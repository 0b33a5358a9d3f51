// RFC 8252 loopback sign-in is for desktops: compiled where Package.swift defines WARDEN_LOOPBACK (macOS, Linux).
#if WARDEN_LOOPBACK
    import Dispatch
    import Foundation
    import WardenCore

    /// The RFC 8252 §7.3 redirect listener: binds 127.0.0.1 on an ephemeral port only while a request is pending,
    /// answers exactly one request to the expected path with a page saying the window can be closed, ignores other
    /// paths (404), rejects malformed or oversized requests, and times out.
    ///
    /// ```swift
    /// let listener = try LoopbackRedirectListener(path: "/callback")
    /// let redirect = listener.redirectURI            // http://127.0.0.1:53012/callback
    /// let callback = try await listener.waitForCallback(timeout: .seconds(300))
    /// ```
    public final class LoopbackRedirectListener: Sendable {
        public let path: String
        public let port: UInt16
        private let server: LoopbackHTTPServer
        private let received: Locked<(callback: String?, waiters: [CheckedContinuation<String, Never>])>

        /// Starts listening on 127.0.0.1 with an ephemeral port.
        public init(path: String = "/callback") throws(OAuthError) {
            guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#") else {
                throw OAuthError(
                    .invalidRedirectURI, "the listener path must start with / and have no query or fragment")
            }
            self.path = path
            let received = Locked<(callback: String?, waiters: [CheckedContinuation<String, Never>])>((nil, []))
            self.received = received
            let expectedPath = path
            let portBox = Locked<UInt16>(0)
            do {
                server = try LoopbackHTTPServer { request in
                    guard request.method == "GET", request.path == expectedPath else {
                        return .text(404, "Not found")
                    }
                    let url = "http://127.0.0.1:\(portBox.current)\(request.target)"
                    let waiters = received.withLock { state -> [CheckedContinuation<String, Never>]? in
                        guard state.callback == nil else { return nil }
                        state.callback = url
                        defer { state.waiters = [] }
                        return state.waiters
                    }
                    guard let waiters else { return .text(404, "This sign-in was already completed.") }
                    for waiter in waiters { waiter.resume(returning: url) }
                    return HTTPResponse(
                        status: 200,
                        headers: [
                            "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                            "Referrer-Policy": "no-referrer",
                        ],
                        body: Data(
                            "<!doctype html><title>Signed in</title><p>You can close this window and return to the application.</p>"
                                .utf8))
                }
            } catch {
                throw OAuthError(.invalidConfiguration, "cannot listen on 127.0.0.1")
            }
            port = server.port
            portBox.withLock { $0 = server.port }
        }

        /// The redirect URI to send in the authorization request.
        public var redirectURI: String { "http://127.0.0.1:\(port)\(path)" }

        /// Waits for the one callback, or throws ``OAuthError/Code/timedOut``. The listener stops either way.
        public func waitForCallback(timeout: Duration, clock: any Clock<Duration> = ContinuousClock())
            async throws(OAuthError) -> String
        {
            defer { server.stop() }
            let result: String? = await withTaskGroup(of: String?.self) { group in
                group.addTask {
                    await withCheckedContinuation { continuation in
                        let existing = self.received.withLock { state -> String? in
                            if let callback = state.callback { return callback }
                            state.waiters.append(continuation)
                            return nil
                        }
                        if let existing { continuation.resume(returning: existing) }
                    }
                }
                group.addTask {
                    try? await clock.sleep(for: timeout)
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                if first == nil {
                    // Release a still-waiting continuation so its child task can finish.
                    let waiters = self.received.withLock { state -> [CheckedContinuation<String, Never>] in
                        defer { state.waiters = [] }
                        if state.callback == nil { state.callback = "" }
                        return state.waiters
                    }
                    for waiter in waiters { waiter.resume(returning: "") }
                }
                return first
            }
            guard let result, !result.isEmpty else { throw OAuthError(.timedOut, "no redirect arrived in time") }
            return result
        }

        /// Stops listening now.
        public func stop() { server.stop() }
    }
#endif
