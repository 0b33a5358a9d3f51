#if WARDEN_LOOPBACK
    import Foundation
    import Testing
    import WardenCore

    @_spi(Fuzzing) @testable import WardenOAuth

    /// A process the app starts while a loopback listener is open (a browser, a helper, a server a test starts) must
    /// not inherit the listening socket: it would keep the port open after Warden closed it, and a listener that
    /// wants the port back could not have it.
    @Suite("Loopback sockets are close-on-exec")
    struct LoopbackInheritanceTests {
        @Test func aChildProcessDoesNotKeepAClosedListenerOpen() throws {
            let server = try LoopbackHTTPServer { _ in HTTPResponse(status: 200) }
            // posix_spawn with no file actions: the child gets every descriptor not marked close-on-exec.
            var child: pid_t = 0
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
            defer { for argument in argv { free(argument) } }
            #expect(posix_spawn(&child, "/bin/sleep", nil, nil, &argv, environ) == 0)
            defer {
                kill(child, SIGKILL)
                var status: Int32 = 0
                waitpid(child, &status, 0)
            }
            server.stop()
            #expect(!Sockets.canConnect(port: server.port), "the child still holds the listener")
        }
    }
#endif
