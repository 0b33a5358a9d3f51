import WardenCore

/// Reads exactly one reply to one command, within bounds: at most ``maximumBytes`` received (a server answering
/// with a 300 MB string costs 16 KiB, not 950 MB), arrays at most ``maximumDepth`` deep, and nothing after the reply
/// — a second, unsolicited reply would otherwise wait in the buffer and answer the next command.
///
/// Why 16 KiB: the stores' replies are under 1 KiB (a challenge record, `OK`, nil, an integer), and hiredis 1.x
/// frees a reply recursively, so the byte cap also bounds the nesting a server can make it walk.
///
/// `@_spi(Fuzzing)`: public for the fuzz target only (Fuzz/Sources/FuzzRedisReply), not API.
@_spi(Fuzzing) public final class RedisReplyReader {
    /// What one reply was.
    @_spi(Fuzzing) public enum Parsed: Equatable, Sendable {
        case reply(RedisReply)
        /// `-ERR ...`: a well-formed refusal, the connection stays in step.
        case errorReply(String)
        /// A reply Warden never asks for (too deep, a RESP3 type, an error inside an array).
        case malformed(String)
    }

    @_spi(Fuzzing) public static let maximumBytes = 16 << 10
    @_spi(Fuzzing) public static let maximumDepth = 8

    private let reader: Hiredis.Reader
    /// Bytes fed so far.
    @_spi(Fuzzing) public private(set) var received = 0
    /// The largest array a reply may announce (Warden's replies hold a handful of elements): hiredis allocates an
    /// announced array before its elements arrive (`*100000000` is 800 MB for 0.14, whose reader has no limit of its
    /// own; 1.x's is set to the same bound).
    @_spi(Fuzzing) public static let maximumArrayElements = 1024
    /// The header scan's state across chunks: whether the next byte starts a line, and the digits of an array
    /// header read so far (nil outside one).
    private var atLineStart = true
    private var previousWasCR = false
    private var arrayCount: Int?

    @_spi(Fuzzing) public init() throws(RedisError) { reader = try Hiredis.Reader() }

    /// Feeds what the socket gave; returns the reply once it is complete.
    ///
    /// - Throws: ``RedisErrorDomain/Code/replyTooLarge`` past ``maximumBytes``; ``RedisErrorDomain/Code/unexpectedReply``
    ///   for bytes that are not RESP, or anything after the one reply. After a throw the connection must be dropped.
    @_spi(Fuzzing) public func feed(_ bytes: UnsafeRawBufferPointer) throws(RedisError) -> Parsed? {
        received += bytes.count
        guard received <= Self.maximumBytes else {
            throw RedisError(.replyTooLarge, "the reply is larger than \(Self.maximumBytes) bytes")
        }
        try scanArrayHeaders(bytes)
        try reader.feed(bytes)
        guard let parsed = try reader.next() else { return nil }
        guard reader.unread == 0 else {
            throw RedisError(.unexpectedReply, "the server sent more than one reply to one command")
        }
        return parsed
    }

    /// Refuses an array header (`*<count>` at the start of a line) announcing more than ``maximumArrayElements``
    /// before hiredis sees it. A bulk string's payload that happens to hold such a line is refused too: Warden's
    /// stored values never do, and refusing is failing closed.
    private func scanArrayHeaders(_ bytes: UnsafeRawBufferPointer) throws(RedisError) {
        for byte in bytes {
            if let count = arrayCount {
                if byte >= 0x30 && byte <= 0x39 {
                    let next = count * 10 + Int(byte - 0x30)
                    guard next <= Self.maximumArrayElements else {
                        throw RedisError(
                            .replyTooLarge,
                            "the reply announces an array of more than \(Self.maximumArrayElements) elements")
                    }
                    arrayCount = next
                } else {
                    arrayCount = nil
                }
            } else if atLineStart && byte == 0x2A {  // '*'
                arrayCount = 0
            }
            atLineStart = previousWasCR && byte == 0x0A
            previousWasCR = byte == 0x0D
        }
    }
}
