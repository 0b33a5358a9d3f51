import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth

@Suite("Loopback listener")
struct LoopbackListenerTests {
    @Test func answersOneRequestToTheExpectedPath() async throws {
        let listener = try LoopbackRedirectListener(path: "/callback")
        #expect(listener.redirectURI.hasPrefix("http://127.0.0.1:"))
        let port = listener.port
        async let callback = listener.waitForCallback(timeout: .seconds(10))
        let transport = URLSessionTransport()
        let other = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/favicon.ico")!))
        #expect(other.status == 404)
        async let first = transport.send(
            HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/callback?code=a&state=b")!))
        #expect(try await callback == "http://127.0.0.1:\(port)/callback?code=a&state=b")
        listener.respond(.signedIn)
        let page = try await first
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("<title>Signed in</title>"))
        #expect(!Sockets.canConnect(port: port), "the listener closes once the callback arrived")
    }

    /// The page is the verdict the app gave after validating: a refused response never reads "Signed in".
    @Test(arguments: ["state_mismatch", "issuer_mismatch", "access_denied"])
    func aRefusedResponseGetsAnErrorPageNamingTheCode(code: String) async throws {
        let listener = try LoopbackRedirectListener(path: "/callback")
        async let callback = listener.waitForCallback(timeout: .seconds(10))
        async let page = URLSessionTransport().send(
            HTTPRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/callback?code=a&state=forged")!))
        _ = try await callback
        listener.respond(.refused(code: code))
        listener.respond(.signedIn)  // too late: the first verdict stands
        let body = String(decoding: try await page.body, as: UTF8.self)
        #expect(try await page.status == 400)
        #expect(body.contains("Sign-in refused") && body.contains("error: \(code)") && !body.contains("Signed in"))
        #expect(!body.contains("forged"), "nothing of the response is echoed")
    }

    /// Any local process can reach the listener. With the pending request's state set, a request without it (a
    /// forged `error=access_denied`, a guess) gets an error page and is ignored: the sign-in goes on until the real
    /// callback, which alone is returned.
    @Test func aRequestWithoutThePendingStateCannotEndTheSignIn() async throws {
        let listener = try LoopbackRedirectListener(path: "/callback")
        listener.expect(state: Redacted("the-real-state"))
        let port = listener.port
        async let callback = listener.waitForCallback(timeout: .seconds(10))
        let transport = URLSessionTransport()
        for forged in [
            "/callback?error=access_denied", "/callback?code=x&state=guess", "/callback?code=x",
            "/callback?state=the-real-state&state=the-real-state", "/callback?code=x&state=the-real-stat",
        ] {
            let page = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)\(forged)")!))
            #expect(
                page.status == 400 && String(decoding: page.body, as: UTF8.self).contains("state_mismatch"), "\(forged)"
            )
        }
        async let real = transport.send(
            HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/callback?code=a&state=the-real-state")!))
        #expect(try await callback == "http://127.0.0.1:\(port)/callback?code=a&state=the-real-state")
        listener.respond(.signedIn)
        #expect(try await real.status == 200)
    }

    @Test func aListenerStoppedWithoutAVerdictSaysTheSignInDidNotComplete() async throws {
        let listener = try LoopbackRedirectListener(path: "/callback")
        async let callback = listener.waitForCallback(timeout: .seconds(10))
        async let page = URLSessionTransport().send(
            HTTPRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/callback?code=a&state=b")!))
        _ = try await callback
        listener.stop()
        #expect(String(decoding: try await page.body, as: UTF8.self).contains("not_completed"))
    }

    @Test func timesOut() async throws {
        let listener = try LoopbackRedirectListener()
        await #expect(throws: OAuthError(.timedOut)) { try await listener.waitForCallback(timeout: .milliseconds(200)) }
    }

    @Test func rejectsMalformedAndOversizedRequests() async throws {
        let server = try LoopbackHTTPServer { _ in .text(200, "ok") }
        defer { server.stop() }
        #expect(try Self.raw(server.port, "GARBAGE\r\n\r\n").hasPrefix("HTTP/1.1 400"))
        #expect(
            try Self.raw(server.port, "GET /" + String(repeating: "a", count: 20_000) + " HTTP/1.1\r\n\r\n").hasPrefix(
                "HTTP/1.1 431"))
        #expect(
            try Self.raw(server.port, "GET /x HTTP/1.1\r\nContent-Length: 999999\r\n\r\n").hasPrefix("HTTP/1.1 413"))
        #expect(try Self.raw(server.port, "GET /x HTTP/1.1\r\n\r\n").hasPrefix("HTTP/1.1 200"))
    }

    /// Idle local connections cost a descriptor each, never a worker: the browser's callback is answered at once
    /// behind 300 of them (before, 8 delayed it by 6 s and 300 hung the process past its own timeout).
    @Test func aRequestIsAnsweredAtOnceBehindThreeHundredIdleConnections() throws {
        let server = try LoopbackHTTPServer(maximumConnections: 512) { _ in .text(200, "ok") }
        defer { server.stop() }
        let idle = (0..<300).map { _ in Sockets.connectIdle(port: server.port) }
        defer { for fd in idle { Sockets.close(fd) } }
        #expect(idle.allSatisfy { $0 >= 0 })
        // A 3 s receive timeout: less than the 5 s each idle peer may take, so a server that gave each a worker
        // and waited on it would answer nothing in time.
        let answer = String(
            decoding: Sockets.exchange(
                port: server.port, Array("GET /callback HTTP/1.1\r\n\r\n".utf8), timeoutSeconds: 3),
            as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
    }

    /// A peer that trickles its request a byte at a time is dropped at the whole-request deadline: each byte
    /// arriving in time does not extend it.
    @Test func aTricklingPeerIsDroppedAtTheRequestDeadline() throws {
        let server = try LoopbackHTTPServer(requestDeadline: .milliseconds(300)) { _ in .text(200, "ok") }
        defer { server.stop() }
        let fd = Sockets.connectIdle(port: server.port)
        defer { Sockets.close(fd) }
        var closed = false
        for byte in Array("GET /callback HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".utf8)
        {
            Sockets.write(fd, [byte])
            Thread.sleep(forTimeInterval: 0.05)
            if Sockets.readAvailable(fd, maximum: 16) == .closed {
                closed = true
                break
            }
        }
        #expect(closed, "the server never dropped the trickling peer")
    }

    /// At most `maximumConnections` incomplete requests wait; a new connection evicts the oldest, so a flood of
    /// idle peers cannot keep the browser out.
    @Test func aFullServerEvictsTheOldestIncompleteConnection() throws {
        let server = try LoopbackHTTPServer(maximumConnections: 4) { _ in .text(200, "ok") }
        defer { server.stop() }
        let idle = (0..<4).map { _ in Sockets.connectIdle(port: server.port) }
        defer { for fd in idle { Sockets.close(fd) } }
        Thread.sleep(forTimeInterval: 0.2)  // let the event loop accept all four first
        let answer = String(
            decoding: Sockets.exchange(port: server.port, Array("GET /x HTTP/1.1\r\n\r\n".utf8), timeoutSeconds: 2),
            as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200"))
        Sockets.setNonBlocking(idle[0])
        var evicted = false
        for _ in 0..<40 where !evicted {
            evicted = Sockets.readAvailable(idle[0], maximum: 16) == .closed
            if !evicted { Thread.sleep(forTimeInterval: 0.025) }
        }
        #expect(evicted, "the oldest idle connection was not the one dropped")
    }

    /// A flood of silent connections after the browser's request never evicts the browser: a new connection is read
    /// at once, and a full server drops a peer that has sent nothing before one that has.
    @Test func aFloodAfterTheBrowsersRequestEvictsTheSilentPeersNotTheBrowser() throws {
        let answered = Locked(0)
        let server = try LoopbackHTTPServer(maximumConnections: 8) { _ in
            answered.withLock { $0 += 1 }
            return .text(200, "ok")
        }
        defer { server.stop() }
        // The browser: a request sent in two parts, the second only after the flood.
        let browser = Sockets.connectIdle(port: server.port)
        defer { Sockets.close(browser) }
        Sockets.write(browser, Array("GET /callback HTTP/1.1\r\n".utf8))
        Thread.sleep(forTimeInterval: 0.1)
        let flood = (0..<40).map { _ in Sockets.connectIdle(port: server.port) }
        defer { for fd in flood { Sockets.close(fd) } }
        Thread.sleep(forTimeInterval: 0.2)
        Sockets.write(browser, Array("\r\n".utf8))
        var answer: [UInt8] = []
        let deadline = Date() + 3
        Sockets.setNonBlocking(browser)
        reading: while Date() < deadline {
            switch Sockets.readAvailable(browser, maximum: 4096) {
            case .bytes(let bytes): answer += bytes
            case .closed: break reading
            case .nothing: Thread.sleep(forTimeInterval: 0.01)
            }
        }
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"), "the browser was evicted")
        #expect(answered.current == 1)
    }

    static func raw(_ port: UInt16, _ text: String) throws -> String {
        String(decoding: Sockets.exchange(port: port, Array(text.utf8)), as: UTF8.self)
    }
}
