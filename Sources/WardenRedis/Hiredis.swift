#if WARDEN_HIREDIS
    import CHiredis
    import WardenCore

    /// hiredis, loaded at run time (`CHiredis`): its command formatter and its reply reader, the only parts Warden
    /// uses. The one file that touches hiredis; ``RedisReplyReader`` bounds what it is fed.
    enum Hiredis {
        /// Loads the library once; a missing library is a configuration error naming the package to install.
        static func load() throws(RedisError) {
            var reason = [CChar](repeating: 0, count: 256)
            guard warden_hiredis_load(&reason, reason.count) == 1 else {
                let why = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw RedisError(
                    .libraryMissing,
                    "\(why): install Debian's libhiredis0.14 (or libhiredis1.1.0) package, or Homebrew's hiredis")
            }
        }

        /// The RESP encoding of a command (binary-safe arguments).
        static func format(_ arguments: [[UInt8]]) throws(RedisError) -> [UInt8] {
            try load()
            let lengths = arguments.map(\.count)
            var target: UnsafeMutablePointer<CChar>?
            let count = withCStringPointers(arguments) { pointers in
                lengths.withUnsafeBufferPointer { lengths in
                    warden_hiredis_format(&target, Int32(arguments.count), pointers.baseAddress, lengths.baseAddress)
                }
            }
            defer { warden_hiredis_command_free(target) }
            guard count >= 0, let target else { throw RedisError(.unexpectedReply, "the command could not be encoded") }
            return Array(UnsafeRawBufferPointer(start: target, count: Int(count)))
        }

        /// One hiredis reply reader (not thread-safe: one per command).
        final class Reader {
            private let reader: UnsafeMutableRawPointer

            init() throws(RedisError) {
                try Hiredis.load()
                guard let reader = warden_hiredis_reader_new() else {
                    throw RedisError(.unexpectedReply, "no memory for a reply reader")
                }
                self.reader = reader
            }

            deinit { warden_hiredis_reader_free(reader) }

            func feed(_ bytes: UnsafeRawBufferPointer) throws(RedisError) {
                guard
                    warden_hiredis_reader_feed(
                        reader, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count) == 0
                else { throw RedisError(.unexpectedReply, "the reply reader refused its input") }
            }

            /// The next complete reply, nil while more bytes are needed.
            func next() throws(RedisError) -> RedisReplyReader.Parsed? {
                var raw: UnsafeMutableRawPointer?
                var error = [CChar](repeating: 0, count: 128)
                switch warden_hiredis_reader_next(reader, &raw, &error, error.count) {
                case 1:
                    defer { warden_hiredis_reply_free(raw) }
                    return Self.copy(UnsafeRawPointer(raw!), depth: 0)
                case 0: return nil
                default:
                    let message = String(
                        decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    throw RedisError(.unexpectedReply, "not a Redis reply: \(message)")
                }
            }

            /// Bytes fed and not yet consumed by a reply.
            var unread: Int { warden_hiredis_reader_unread(reader) }

            private static func copy(_ node: UnsafeRawPointer, depth: Int) -> RedisReplyReader.Parsed {
                var value = warden_redis_value()
                warden_hiredis_value(node, &value)
                func bytes() -> [UInt8] {
                    guard let start = value.str, value.len > 0 else { return [] }
                    return Array(UnsafeRawBufferPointer(start: start, count: value.len))
                }
                switch Int(value.type) {
                case Int(WARDEN_REDIS_STRING): return .reply(.bulk(bytes()))
                case Int(WARDEN_REDIS_STATUS): return .reply(.status(String(decoding: bytes(), as: UTF8.self)))
                case Int(WARDEN_REDIS_INTEGER): return .reply(.integer(value.integer))
                case Int(WARDEN_REDIS_NIL): return .reply(.null)
                case Int(WARDEN_REDIS_ERROR): return .errorReply(String(decoding: bytes(), as: UTF8.self))
                case Int(WARDEN_REDIS_ARRAY):
                    guard depth < RedisReplyReader.maximumDepth else { return .malformed("nested too deep") }
                    var elements: [RedisReply] = []
                    for index in 0..<value.elements {
                        guard let element = warden_hiredis_element(node, index) else {
                            return .malformed("a missing array element")
                        }
                        guard case .reply(let copied) = copy(element, depth: depth + 1) else {
                            return .malformed("an error or a malformed value inside an array reply")
                        }
                        elements.append(copied)
                    }
                    return .reply(.array(elements))
                default: return .malformed("unknown reply type \(value.type)")
                }
            }
        }
    }

    /// C string pointers to each argument's bytes, valid inside `body` (hiredis copies them).
    private func withCStringPointers<R>(
        _ arguments: [[UInt8]], _ body: (UnsafeMutableBufferPointer<UnsafePointer<CChar>?>) -> R
    ) -> R {
        let buffers = arguments.map { bytes -> UnsafeMutablePointer<CChar> in
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            for (offset, byte) in bytes.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
            return buffer
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        var pointers = buffers.map { UnsafePointer<CChar>?(UnsafePointer($0)) }
        return pointers.withUnsafeMutableBufferPointer { body($0) }
    }
#endif
