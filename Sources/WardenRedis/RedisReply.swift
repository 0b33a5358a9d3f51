/// A Redis reply, copied out of hiredis.
@_spi(Fuzzing) public enum RedisReply: Sendable, Equatable {
    case status(String)
    case integer(Int64)
    case bulk([UInt8])
    case null
    case array([RedisReply])
}
