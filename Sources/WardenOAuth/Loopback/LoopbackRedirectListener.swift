// RFC 8252 loopback sign-in is for desktops: compiled where Package.swift defines WARDEN_LOOPBACK (macOS, Linux).
#if WARDEN_LOOPBACK
    import Dispatch
    import Foundation
    import WardenCore
    import WardenCrypto

    /// The RFC 8252 §7.3 redirect listener: binds 127.0.0.1 on an ephemeral port only while a request is pending,
    /// takes exactly one request to the expected path, ignores other paths (404), rejects malformed or oversized
    /// requests, and times out.
    ///
    /// **The page tells the truth.** The browser's request is held open until the app has validated the response
    /// and calls ``respond(_:)``: only then does the page say "Signed in" (or "Signed out"); a refused response
    /// (wrong `state`, wrong `iss`, `access_denied`) gets an error page naming the error code, never a secret. A
    /// listener stopped without a verdict — or one not given within 30 s — answers that the sign-in did not
    /// complete.
    ///
    /// ```swift
    /// let listener = try LoopbackRedirectListener(path: "/callback")
    /// let redirect = listener.redirectURI            // http://127.0.0.1:53012/callback
    /// let callback = try await listener.waitForCallback(timeout: .seconds(300))
    /// do { let code = try pending.validate(callback); listener.respond(.signedIn) }
    /// catch { listener.respond(.refused(code: (error as? OAuthError)?.codeName ?? "error")) }
    /// ```
    public final class LoopbackRedirectListener: Sendable {
        /// The path the callback is expected on (default `/callback`); requests to other paths get a 404.
        public let path: String
        /// The ephemeral port the listener is bound to on 127.0.0.1.
        public let port: UInt16
        private let server: LoopbackHTTPServer
        private let received: Locked<(callback: String?, waiters: [CheckedContinuation<String, Never>])>
        private let verdict: Verdict
        /// The `state` the callback must carry (``expect(state:)``); nil: the first request to the path is taken.
        private let expectedState: Locked<Redacted<String>?>

        /// Starts listening on 127.0.0.1 with an ephemeral port.
        public init(path: String = "/callback") throws(OAuthError) {
            guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#") else {
                throw OAuthError(
                    .invalidRedirectURI, "the listener path must start with / and have no query or fragment")
            }
            self.path = path
            let received = Locked<(callback: String?, waiters: [CheckedContinuation<String, Never>])>((nil, []))
            self.received = received
            let verdict = Verdict()
            self.verdict = verdict
            let expectedState = Locked<Redacted<String>?>(nil)
            self.expectedState = expectedState
            let expectedPath = path
            let portBox = Locked<UInt16>(0)
            do {
                server = try LoopbackHTTPServer { request in
                    guard request.method == "GET", request.path == expectedPath else {
                        return .text(404, "Not found")
                    }
                    let url = "http://127.0.0.1:\(portBox.current)\(request.target)"
                    // Any local process can send a request here: one without the pending request's state is answered
                    // and ignored, so it cannot end (or cancel) the sign-in; the listener waits for the real one.
                    if let state = expectedState.current, !Self.carries(state, request.target) {
                        return LoopbackPage.refused(code: "state_mismatch").response
                    }
                    let waiters = received.withLock { state -> [CheckedContinuation<String, Never>]? in
                        guard state.callback == nil else { return nil }
                        state.callback = url
                        defer { state.waiters = [] }
                        return state.waiters
                    }
                    guard let waiters else { return .text(404, "This sign-in was already completed.") }
                    for waiter in waiters { waiter.resume(returning: url) }
                    // Hold the browser's request (a worker thread, never the cooperative pool) for the app's verdict.
                    return verdict.wait(seconds: 30).response
                }
            } catch {
                throw OAuthError(.invalidConfiguration, "cannot listen on 127.0.0.1")
            }
            port = server.port
            portBox.withLock { $0 = server.port }
        }

        /// The redirect URI to send in the authorization request.
        public var redirectURI: String { "http://127.0.0.1:\(port)\(path)" }

        /// From now on only a request carrying `state` (compared in constant time) is taken as the callback; others
        /// get an error page and the listener keeps waiting until the real one or the timeout.
        public func expect(state: Redacted<String>) { expectedState.withLock { $0 = state } }

        /// Whether the request target's query has exactly one `state`, equal to `expected`.
        static func carries(_ expected: Redacted<String>, _ target: String) -> Bool {
            guard let query = target.split(separator: "?", maxSplits: 1).dropFirst().first,
                let pairs = try? FormEncoding.decode(String(query.split(separator: "#", maxSplits: 1)[0]))
            else { return false }
            let states = pairs.filter { $0.0 == "state" }
            return states.count == 1 && ConstantTime.equals(states[0].1, expected.unredacted())
        }

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

        /// Answers the browser that sent the callback: call it once the response was validated (or refused).
        /// Later calls are ignored.
        public func respond(_ page: LoopbackPage) { verdict.give(page) }

        /// Stops listening now; a browser still waiting is told the sign-in did not complete.
        public func stop() {
            server.stop()
            verdict.give(.refused(code: "not_completed"))
        }
    }

    /// What the loopback page tells the user.
    public enum LoopbackPage: Sendable, Equatable {
        /// The sign-in response was validated.
        case signedIn
        /// The provider ended the session (RP-initiated logout) and the return was validated.
        case signedOut
        /// The response was refused, with the error code to show (e.g. `state_mismatch`, `access_denied`).
        case refused(code: String)

        var response: HTTPResponse {
            let (title, text): (String, String)
            switch self {
            case .signedIn: (title, text) = ("Signed in", "You can close this window and return to the application.")
            case .signedOut: (title, text) = ("Signed out", "You can close this window and return to the application.")
            case .refused(let code):
                let shown = String(code.unicodeScalars.filter { $0.properties.isAlphabetic || $0 == "_" }.prefix(64))
                (title, text) = (
                    "Sign-in refused",
                    "The application refused this response (error: \(shown)). Return to it and try again."
                )
            }
            return HTTPResponse(
                status: self == .signedIn || self == .signedOut ? 200 : 400,
                headers: [
                    "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                    "Referrer-Policy": "no-referrer",
                ],
                body: Data("<!doctype html><title>\(title)</title><h1>\(title)</h1><p>\(text)</p>".utf8))
        }
    }

    /// The one verdict for the held request: given once, waited for by the handler thread.
    final class Verdict: Sendable {
        private let page = Locked<LoopbackPage?>(nil)
        private let given = DispatchSemaphore(value: 0)

        func give(_ value: LoopbackPage) {
            let first = page.withLock { page -> Bool in
                guard page == nil else { return false }
                page = value
                return true
            }
            if first { given.signal() }
        }

        func wait(seconds: Int) -> LoopbackPage {
            _ = given.wait(timeout: .now() + .seconds(seconds))
            given.signal()  // anyone else waiting (there is only one held request) goes on too
            return page.current ?? .refused(code: "not_completed")
        }
    }
#endif
