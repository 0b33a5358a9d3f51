import Foundation
import Testing
import WardenCore
import WardenPasskeys

@_spi(Fuzzing) @testable import WardenRedis

/// What a server that misbehaves can cost a verification: a bounded wait, a bounded reply, and a connection that is
/// dropped once it says anything it was not asked.
@Suite("Redis replies are bounded")
struct RedisBoundsTests {
    static func client(_ server: ScriptedRedis, timeout: Duration = .milliseconds(300)) throws -> RedisClient {
        try RedisClient(
            RedisConfiguration(port: server.port, commandTimeout: timeout, connections: 1))
    }

    /// A reply trickled a byte every 50 ms (20 s for the whole line): each read is quick, so a per-read timeout
    /// (hiredis' own) would read it all and answer with it. The whole command has one deadline: it times out.
    @Test func aTrickledReplyEndsAtTheCommandsDeadline() async throws {
        let line = "+PONG" + String(repeating: " and more", count: 44) + "\r\n"
        let server = try ScriptedRedis([.trickle(Array(line.utf8), interval: .milliseconds(50))])
        let error = await #expect(throws: RedisError.self) { try await Self.client(server).ping() }
        #expect(error?.code == .timedOut && error?.failureKind == .transient, "\(String(describing: error))")
    }

    /// A 300 MB bulk string: refused once 16 KiB have arrived, not read into memory.
    @Test func aHugeReplyIsRefusedAtTheCap() async throws {
        let server = try ScriptedRedis([.endless(length: 300_000_000), .bytes(Array("+PONG\r\n".utf8))])
        let client = try Self.client(server, timeout: .seconds(5))
        let error = await #expect(throws: RedisError.self) { try await client.ping() }
        #expect(error?.code == .replyTooLarge, "\(String(describing: error))")
        // The connection was dropped: the next command opens a new one and gets its own answer.
        try await client.ping()
        #expect(server.accepted.current == 2)
    }

    /// Two replies to one command: the second would answer the next command (a `SET NX` reading another's `OK`).
    /// The command fails and the connection is dropped.
    @Test func aSecondUnsolicitedReplyDropsTheConnection() async throws {
        let server = try ScriptedRedis([
            .bytes(Array("+PONG\r\n+OK\r\n".utf8)), .bytes(Array("+PONG\r\n".utf8)),
        ])
        let client = try Self.client(server)
        await #expect(throws: RedisError(.unexpectedReply)) { try await client.ping() }
        try await client.ping()
        #expect(server.accepted.current == 2)
    }

    /// A reply that arrives after its command was answered (the server pushes something while the connection
    /// idles) is seen before the next command is sent: the connection is replaced, and the next command reads its
    /// own reply.
    @Test func aReplyArrivingLaterIsNeverTakenForTheNextCommands() async throws {
        let server = try ScriptedRedis([
            .trickle(Array("+PONG\r\n:1\r\n".utf8), interval: .milliseconds(1)), .bytes(Array("+PONG\r\n".utf8)),
        ])
        let client = try Self.client(server)
        // The first reply may be read whole or in pieces; either way the connection carries nothing else.
        _ = try? await client.ping()
        try await Task.sleep(for: .milliseconds(100))
        try await client.ping()
        #expect(server.accepted.current == 2)
    }

    struct Chunked: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let expected: RedisReplyReader.Parsed?
        let error: RedisError?
        var testDescription: String { name }
    }

    static let replies: [Chunked] = [
        Chunked(name: "status", bytes: Array("+OK\r\n".utf8), expected: .reply(.status("OK")), error: nil),
        Chunked(name: "nil", bytes: Array("$-1\r\n".utf8), expected: .reply(.null), error: nil),
        Chunked(name: "integer", bytes: Array(":-42\r\n".utf8), expected: .reply(.integer(-42)), error: nil),
        Chunked(
            name: "binary bulk", bytes: Array("$5\r\na\0\r\nb\r\n".utf8),
            expected: .reply(.bulk(Array("a\0\r\nb".utf8))),
            error: nil),
        Chunked(
            name: "array", bytes: Array("*2\r\n$1\r\nx\r\n:7\r\n".utf8),
            expected: .reply(.array([.bulk([0x78]), .integer(7)])), error: nil),
        Chunked(name: "error reply", bytes: Array("-ERR no\r\n".utf8), expected: .errorReply("ERR no"), error: nil),
        Chunked(
            name: "nested too deep", bytes: Array(String(repeating: "*1\r\n", count: 9).utf8) + Array(":1\r\n".utf8),
            expected: nil, error: RedisError(.unexpectedReply)),
        Chunked(
            name: "not RESP", bytes: Array("HTTP/1.1 200 OK\r\n".utf8), expected: nil,
            error: RedisError(.unexpectedReply)),
        Chunked(
            name: "two replies", bytes: Array("+OK\r\n+OK\r\n".utf8), expected: nil, error: RedisError(.unexpectedReply)
        ),
        Chunked(
            name: "over the cap", bytes: Array("$20000\r\n".utf8) + [UInt8](repeating: 0x61, count: 20_000),
            expected: nil, error: RedisError(.replyTooLarge)),
        // 13 bytes that would make hiredis allocate an 800 MB (0.14) or 32 GB array before any element arrived.
        Chunked(
            name: "a huge array header", bytes: Array("*100000000\r\n".utf8), expected: nil,
            error: RedisError(.replyTooLarge)),
        Chunked(
            name: "a huge nested array header", bytes: Array("*1\r\n*4294967295\r\n".utf8), expected: nil,
            error: RedisError(.replyTooLarge)),
        Chunked(
            name: "an array at the bound",
            bytes: Array("*1024\r\n".utf8) + Array(repeating: Array(":1\r\n".utf8), count: 1024).flatMap { $0 },
            expected: .reply(.array(Array(repeating: .integer(1), count: 1024))), error: nil),
    ]

    /// Fed a byte at a time (the worst split a socket can give) and at once, each gives the same answer.
    @Test(arguments: replies, [1, 1 << 20])
    func theReaderGivesOneAnswerHoweverTheBytesArrive(_ reply: Chunked, chunk: Int) throws {
        let reader = try RedisReplyReader()
        var result: RedisReplyReader.Parsed?
        var thrown: RedisError?
        var offset = 0
        while offset < reply.bytes.count, result == nil, thrown == nil {
            let end = min(offset + chunk, reply.bytes.count)
            let piece = Array(reply.bytes[offset..<end])
            let pointer = UnsafeMutableRawBufferPointer.allocate(byteCount: piece.count, alignment: 1)
            defer { pointer.deallocate() }
            pointer.copyBytes(from: piece)
            do throws(RedisError) {
                result = try reader.feed(UnsafeRawBufferPointer(pointer))
            } catch {
                thrown = error
            }
            offset = end
        }
        // Bytes after the reply: in the same read the reader refuses them; arriving later, the connection sees them
        // before its next command and drops itself (aReplyArrivingLaterIsNeverTakenForTheNextCommands).
        if thrown == nil, result != nil, offset < reply.bytes.count { thrown = RedisError(.unexpectedReply) }
        if let expected = reply.error {
            // A malformed reply is refused either by the reader or as a value the connection turns into the same
            // error; nesting comes back as `.malformed`.
            if thrown == nil, case .malformed = result { return }
            #expect(thrown == expected, "\(reply.name): \(String(describing: result))")
        } else {
            #expect(thrown == nil && result == reply.expected, "\(reply.name): \(String(describing: thrown))")
        }
    }
}

/// What an operator sees when Redis is set up wrong.
@Suite("Redis configuration mistakes", .serialized)
struct RedisConfigurationMistakeTests {
    /// `redis://s3cret@host` puts a password where the user goes: it must not be printed as one.
    @Test func aPasswordInTheUserPositionIsNeverPrinted() async throws {
        let configuration = try RedisConfiguration(
            url: "redis://hunter2-secret@127.0.0.1:\(try RedisServer.freePort())")
        #expect(!configuration.displayURL.contains("hunter2"))
        let error = await #expect(throws: RedisError.self) { try await RedisClient(configuration).ping() }
        #expect(error.map { !"\($0)".contains("hunter2") } == true, "\(String(describing: error))")
    }

    /// A database the server does not have is the operator's to fix, not a passing outage.
    @Test func aRefusedSELECTIsAConfigurationError() async throws {
        let server = try RedisServer(["--databases", "2"])
        var configuration = server.configuration()
        configuration.database = 5
        let error = await #expect(throws: RedisError.self) { try await RedisClient(configuration).ping() }
        #expect(error?.code == .invalidConfiguration && error?.failureKind == .misconfiguration)
    }

    /// Without hiredis, the Redis features of the CLI say which package to install (exit 2), and nothing else fails.
    @Test func withoutHiredisTheErrorNamesThePackage() async throws {
        let nowhere = "redis://127.0.0.1:\(try RedisServer.freePort())"
        let exits = try await ProcessTests.runTogether(
            [
                ["passkey", "issue-challenge", "--challenge-store", nowhere, "--binding", "s"],
                ["pkce", "--verifier", String(repeating: "a", count: 43)],
            ],
            environment: ["WARDEN_HIREDIS_LIBRARY": "/nonexistent/libhiredis.so"])
        #expect(exits[0].status == 2, "\(exits[0].stderr)")
        #expect(exits[0].stderr.contains("redis_library_missing") && exits[0].stderr.contains("libhiredis0.14"))
        #expect(exits[1].status == 0)
    }
}
