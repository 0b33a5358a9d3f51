#if !WARDEN_HIREDIS
    import WardenCore

    /// Where hiredis is not loaded (iOS, Mac Catalyst, visionOS: WardenRedis is for servers), every Redis feature
    /// refuses with ``RedisErrorDomain/Code/libraryMissing``.
    enum Hiredis {
        static func load() throws(RedisError) {
            throw RedisError(.libraryMissing, "hiredis is not loaded on this platform: WardenRedis is for servers")
        }

        static func format(_ arguments: [[UInt8]]) throws(RedisError) -> [UInt8] {
            try load()
            return []
        }

        final class Reader {
            init() throws(RedisError) { try Hiredis.load() }
            func feed(_ bytes: UnsafeRawBufferPointer) throws(RedisError) {}
            func next() throws(RedisError) -> RedisReplyReader.Parsed? { nil }
            var unread: Int { 0 }
        }
    }
#endif
