import Foundation
import FuzzSupport
@_spi(Fuzzing) import WardenRedis

/// The Redis reply reader (hiredis' parser behind Warden's bounds) fed the way a socket would: the first byte gives
/// the chunk size (1–256; 0 means everything at once), the rest is what the server sends. It never crashes, never
/// accepts more than its cap, and a reply read in pieces is the reply read at once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let chunk = data[0] == 0 ? max(bytes.count, 1) : Int(data[0])
    let whole = read(bytes, chunk: max(bytes.count, 1))
    let pieces = read(bytes, chunk: chunk)
    if case .reply(let reply, let consumed) = whole {
        require(consumed == bytes.count, "a reply read at once left bytes unread")
        guard case .reply(let same, _) = pieces else {
            fatalError("a reply read at once was not one when read in pieces of \(chunk): \(pieces)")
        }
        require(same == reply, "the reply depends on how the bytes were split")
    }
    return 0
}

enum Outcome {
    case reply(RedisReplyReader.Parsed, consumed: Int)
    case incomplete
    case refused
}

func read(_ bytes: [UInt8], chunk: Int) -> Outcome {
    guard let reader = try? RedisReplyReader() else { fatalError("hiredis is not loadable: install libhiredis0.14") }
    var offset = 0
    while offset < bytes.count {
        let end = min(offset + chunk, bytes.count)
        let parsed: RedisReplyReader.Parsed?
        do {
            parsed = try bytes[offset..<end].withUnsafeBytes { try reader.feed($0) }
        } catch {
            require(reader.received <= RedisReplyReader.maximumBytes + chunk, "read past the cap")
            return .refused
        }
        require(reader.received <= RedisReplyReader.maximumBytes, "accepted past the cap")
        offset = end
        if let parsed { return .reply(parsed, consumed: offset) }
    }
    return .incomplete
}

@_cdecl("FuzzRedisReply_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
